"""Fan-out of bus messages to websocket clients.

One bus subscription per topic, however many clients follow it; each message is encoded to
JSON once and handed to every member. A member's backlog is bounded: a client that cannot
keep up is dropped (it reconnects and resumes from its last version) rather than slowing
the others.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass

from relay.bus.memory import MemoryBus, Subscription
from relay.bus.messages import Published

#: Messages a client may fall behind by before it is dropped.
DEFAULT_BACKLOG = 1024


def encode_event(message: Published) -> str:
    return json.dumps(
        {
            "type": "event",
            "game": message.game_id,
            "v": message.seq,
            "kind": message.kind,
            "data": message.data,
        },
        separators=(",", ":"),
    )


@dataclass(frozen=True, slots=True)
class Outgoing:
    game_id: int
    seq: int
    text: str


class Member:
    """One client's place in a room: a bounded backlog of encoded messages."""

    def __init__(self, room: Room, backlog: int) -> None:
        self.room = room
        self._backlog = backlog
        self._items: deque[Outgoing] = deque()
        self._ready = asyncio.Event()
        self.closed = False
        self.overflowed = False
        #: A spectator without a token: subject to the round's transmission delay.
        self.public = True
        #: Per game, the last version the client already has; older messages are skipped.
        self.sent: dict[int, int] = {}

    def offer(self, item: Outgoing) -> None:
        if self.closed:
            return
        if len(self._items) >= self._backlog:
            self.overflowed = True
            self.close()
            return
        self._items.append(item)
        self._ready.set()

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    async def next(self) -> Outgoing | None:
        """The next message newer than what the client has, or None once closed."""
        while True:
            while not self._items:
                if self.closed:
                    return None
                self._ready.clear()
                await self._ready.wait()
            if self.closed:
                return None
            item = self._items.popleft()
            if item.seq > self.sent.get(item.game_id, 0):
                self.sent[item.game_id] = item.seq
                return item


class Room:
    """All clients following one topic, live or ``delay`` seconds behind."""

    def __init__(self, rooms: Rooms, topic: str, delay: float = 0.0) -> None:
        self._rooms = rooms
        self.topic = topic
        self.delay = delay
        self.members: set[Member] = set()
        self._loop = asyncio.get_running_loop()
        self._pending: set[asyncio.TimerHandle] = set()
        handler = self._deliver if delay <= 0 else self._hold
        self._subscription: Subscription = rooms.bus.subscribe(topic, handler)

    def _hold(self, message: Published) -> None:
        """A delayed room hands each message on when it is ``delay`` seconds old."""
        wait = message.recorded_at + self.delay - time.time()

        def release() -> None:
            self._pending.discard(handle)
            self._deliver(message)

        handle = self._loop.call_later(max(0.0, wait), release)
        self._pending.add(handle)

    def _deliver(self, message: Published) -> None:
        item = Outgoing(message.game_id, message.seq, encode_event(message))
        for member in tuple(self.members):
            member.offer(item)

    def leave(self, member: Member) -> None:
        member.close()
        self.members.discard(member)
        if not self.members:
            self.close()

    def close(self) -> None:
        """Close the room and every member in it (they reconnect and resume)."""
        for member in tuple(self.members):
            member.close()
        self.members.clear()
        for handle in self._pending:
            handle.cancel()
        self._pending.clear()
        self._subscription.close()
        self._rooms.forget(self)


class Rooms:
    """The rooms of one process, created on first join and removed when empty."""

    def __init__(self, bus: MemoryBus, backlog: int = DEFAULT_BACKLOG) -> None:
        self.bus = bus
        self.backlog = backlog
        self._rooms: dict[str, Room] = {}

    def join(self, topic: str, delay: float = 0.0, *, public: bool = True) -> Member:
        key = _key(topic, delay)
        room = self._rooms.get(key)
        if room is None:
            room = self._rooms[key] = Room(self, topic, delay)
        member = Member(room, self.backlog)
        member.public = public
        room.members.add(member)
        return member

    def forget(self, room: Room) -> None:
        key = _key(room.topic, room.delay)
        if self._rooms.get(key) is room:
            del self._rooms[key]

    def drop_public(self) -> None:
        """A delay changed: every public member starts again (they reconnect and get the
        round as the new delay shows it)."""
        for room in tuple(self._rooms.values()):
            for member in tuple(room.members):
                if member.public:
                    room.leave(member)

    def __len__(self) -> int:
        return len(self._rooms)


def _key(topic: str, delay: float) -> str:
    return topic if delay <= 0 else f"{topic}@{delay:g}"
