from __future__ import annotations

import asyncio
import json
import struct
import time
from collections.abc import Callable

import anyio
import pytest

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic, round_topic
from relay.edge.frames import close_frame, frame, text_frame
from relay.edge.rooms import CLOSE_TRY_AGAIN, Rooms


def published(seq: int, game_id: int = 1, recorded_at: float = 0.0) -> Published:
    return Published(9, game_id, seq, "move", {"ply": seq}, recorded_at)


class FakeWriter:
    """Stands in for a connection's transport."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.backlog = 0
        self.closed: tuple[int, str] | None = None
        self.written = asyncio.Event()

    def buffered(self) -> int:
        return self.backlog

    def write(self, data: bytes) -> bool:
        if self.closed:
            return False
        self.writes.append(data)
        self.written.set()
        return True

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def hot_path(self) -> Callable[[bytes, int], bool]:
        def push(data: bytes, limit: int) -> bool:
            return self.backlog <= limit and self.write(data)

        return push

    def socket_fd(self) -> int | None:
        return None


def texts(data: bytes) -> list[dict[str, object]]:
    """The JSON messages in a run of unmasked text frames."""
    messages = []
    while data:
        assert data[0] == 0x81
        size, start = data[1], 2
        if size == 126:
            size, start = struct.unpack("!H", data[2:4])[0], 4
        messages.append(json.loads(data[start : start + size]))
        data = data[start + size :]
    return messages


async def turn() -> None:
    """Let the loop run what is scheduled now (the room's flush) before going on."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.call_soon(done.set_result, None)
    await done


def test_frames_follow_rfc_6455():
    assert frame(0x1, b"hi") == b"\x81\x02hi"
    assert frame(0x1, b"x" * 200)[:4] == b"\x81\x7e\x00\xc8"
    assert frame(0x1, b"x" * 70000)[:10] == b"\x81\x7f" + (70000).to_bytes(8, "big")
    assert close_frame(1013, "later") == b"\x88\x07\x03\xf5later"
    assert text_frame("é") == b"\x81\x02\xc3\xa9"


@pytest.mark.anyio
async def test_one_subscription_per_topic_and_one_buffer_per_turn_for_everyone():
    bus = MemoryBus()
    rooms = Rooms(bus)
    writers = [FakeWriter(), FakeWriter()]
    members = [rooms.join(round_topic(9), writer=w) for w in writers]
    assert bus.subscriber_count(round_topic(9)) == 1
    for member in members:
        member.go_live()
    for seq in (1, 2, 3):  # a burst within one turn of the loop
        bus.publish(published(seq))
    await turn()
    assert [len(w.writes) for w in writers] == [1, 1]
    assert writers[0].writes[0] is writers[1].writes[0]  # framed once, shared
    assert texts(writers[0].writes[0]) == [
        {"type": "event", "game": 1, "v": seq, "kind": "move", "data": {"ply": seq}}
        for seq in (1, 2, 3)
    ]
    for member in members:
        member.room.leave(member)
    assert bus.subscriber_count(round_topic(9)) == 0
    assert len(rooms) == 0


@pytest.mark.anyio
async def test_messages_during_catch_up_are_held_and_versions_the_client_has_skipped():
    rooms = Rooms(MemoryBus())
    writer = FakeWriter()
    member = rooms.join(game_topic(1), writer=writer)
    for seq in (1, 2, 3):
        rooms.bus.publish(published(seq))
    await turn()
    assert writer.writes == []  # the history is still being sent
    member.sent[1] = 2  # the history covered versions 1 and 2
    member.go_live()
    assert [m["v"] for m in texts(b"".join(writer.writes))] == [3]
    rooms.bus.publish(published(4))
    await turn()
    assert [m["v"] for m in texts(b"".join(writer.writes))] == [3, 4]


@pytest.mark.anyio
async def test_a_client_whose_buffer_stays_full_is_closed_without_slowing_others():
    bus = MemoryBus()
    rooms = Rooms(bus, write_limit=1000)
    slow, fast = FakeWriter(), FakeWriter()
    slow_member = rooms.join(game_topic(1), writer=slow)
    fast_member = rooms.join(game_topic(1), writer=fast)
    slow_member.go_live()
    fast_member.go_live()
    bus.publish(published(1))
    await turn()
    slow.backlog = 5000  # the client stopped reading
    bus.publish(published(2))
    await turn()
    assert slow.closed is not None
    assert slow.closed[0] == CLOSE_TRY_AGAIN
    assert slow_member.overflowed
    assert slow_member.closed
    assert [m["v"] for m in texts(b"".join(fast.writes))] == [1, 2]
    assert not fast_member.overflowed


@pytest.mark.anyio
async def test_a_backlog_member_that_falls_behind_is_dropped():
    bus = MemoryBus()
    rooms = Rooms(bus, backlog=2)
    slow, fast = rooms.join(game_topic(1)), rooms.join(game_topic(1))
    slow.go_live()
    fast.go_live()
    for seq in (1, 2):
        bus.publish(published(seq))
        await turn()
        with anyio.fail_after(1):
            assert (await fast.next()) is not None
    bus.publish(published(3))
    await turn()
    assert slow.overflowed
    assert not fast.overflowed
    with anyio.fail_after(1):
        assert await slow.next() is None
        item = await fast.next()
    assert item is not None
    assert item.seq == 3


@pytest.mark.anyio
async def test_a_quiet_room_pings_everyone():
    rooms = Rooms(MemoryBus(), heartbeat=0.05)
    writer = FakeWriter()
    member = rooms.join(round_topic(9), writer=writer)
    member.go_live()
    with anyio.fail_after(2):
        await writer.written.wait()
    assert texts(writer.writes[0]) == [{"type": "ping"}]
    member.room.leave(member)


@pytest.mark.anyio
async def test_a_delayed_room_hands_messages_on_when_they_are_old_enough():
    bus = MemoryBus()
    rooms = Rooms(bus)
    writer = FakeWriter()
    member = rooms.join(game_topic(1), 0.2, writer=writer)
    member.go_live()
    loop = asyncio.get_running_loop()
    now = loop.time()
    bus.publish(published(1, recorded_at=time.time()))
    await turn()
    assert writer.writes == []
    with anyio.fail_after(2):
        await writer.written.wait()
    assert loop.time() - now >= 0.15
    member.room.leave(member)
