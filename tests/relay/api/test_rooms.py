from __future__ import annotations

import json

import anyio
import pytest

from relay.api.rooms import Rooms
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic, round_topic


def published(seq: int, game_id: int = 1) -> Published:
    return Published(9, game_id, seq, "move", {"ply": seq})


@pytest.mark.anyio
async def test_one_subscription_per_topic_and_one_encoding_per_message():
    bus = MemoryBus()
    rooms = Rooms(bus)
    first, second = rooms.join(round_topic(9)), rooms.join(round_topic(9))
    assert bus.subscriber_count(round_topic(9)) == 1
    bus.publish(published(1))
    with anyio.fail_after(1):
        a, b = await first.next(), await second.next()
    assert a is not None
    assert b is not None
    assert a.text is b.text  # encoded once, shared by every member
    assert json.loads(a.text) == {
        "type": "event",
        "game": 1,
        "v": 1,
        "kind": "move",
        "data": {"ply": 1},
    }
    first.room.leave(first)
    second.room.leave(second)
    assert bus.subscriber_count(round_topic(9)) == 0
    assert len(rooms) == 0


@pytest.mark.anyio
async def test_versions_the_client_has_are_skipped():
    rooms = Rooms(MemoryBus())
    member = rooms.join(game_topic(1))
    member.sent[1] = 2
    for seq in (1, 2, 3):
        rooms.bus.publish(published(seq))
    with anyio.fail_after(1):
        item = await member.next()
    assert item is not None
    assert item.seq == 3


@pytest.mark.anyio
async def test_a_member_that_falls_behind_is_dropped_without_slowing_others():
    bus = MemoryBus()
    rooms = Rooms(bus, backlog=2)
    slow, fast = rooms.join(game_topic(1)), rooms.join(game_topic(1))
    for seq in (1, 2):
        bus.publish(published(seq))
        with anyio.fail_after(1):
            assert (await fast.next()) is not None
    bus.publish(published(3))
    assert slow.overflowed
    assert not fast.overflowed
    with anyio.fail_after(1):
        assert await slow.next() is None
        item = await fast.next()
    assert item is not None
    assert item.seq == 3
