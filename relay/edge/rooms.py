"""Fan-out of bus messages to websocket clients, without a queue and a task per client.

One bus subscription per topic, however many clients follow it. Each message is encoded to
JSON once and framed once as a websocket frame; the messages of one turn of the event loop
are written to each client as one buffer, so a burst costs each client one system call. A
client whose socket buffer stays above ``write_limit`` bytes is closed with code 1013 (it
reconnects and resumes from its version) rather than slowing the others. A room with
nothing to say for ``heartbeat`` seconds writes a ping message to everyone.

Frames go straight to the connection's socket when the server is uvicorn (see
:mod:`relay.edge.protocol`), written by :mod:`relay.edge.fanout` over the machine's cores;
elsewhere (a test client, another ASGI server) each member falls back to a bounded backlog
that its own connection handler sends (:mod:`relay.edge.asgi`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from relay.bus.memory import MemoryBus, Subscription
from relay.bus.messages import Published
from relay.edge.fanout import SocketFanout
from relay.edge.frames import FrameWriter, HotPath, text_frame

#: Messages a client may fall behind by before it is dropped (backlog members).
DEFAULT_BACKLOG = 1024
#: Bytes a client's socket buffer may hold before it is dropped (direct members).
DEFAULT_WRITE_LIMIT = 512 * 1024
PING = json.dumps({"type": "ping"})
PING_FRAME = text_frame(PING)
#: Close code for "try again later": the client fell too far behind.
CLOSE_TRY_AGAIN = 1013


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
    frame: bytes


class Member:
    """One client's place in a room.

    A member starts *catching up*: while its stored history is sent, live messages wait in
    ``_held``. :meth:`go_live` sends what the history did not cover; from then on messages
    are written directly (or, without a direct writer, kept in a bounded backlog).

    Thousands of these sit idle at once, so a member holds only what its kind needs.
    """

    __slots__ = (
        "_backlog",
        "_held",
        "_items",
        "_ready",
        "closed",
        "fd",
        "hot",
        "overflowed",
        "public",
        "room",
        "sent",
        "writer",
    )

    def __init__(self, room: Room, backlog: int, writer: FrameWriter | None) -> None:
        self.room = room
        self.writer = writer
        self._backlog = backlog
        self._held: list[Outgoing] | None = []
        # Backlog members only: what waits for the handler, and its wake-up.
        self._items: deque[Outgoing] | None = None if writer is not None else deque()
        self._ready: asyncio.Event | None = None if writer is not None else asyncio.Event()
        self.closed = False
        self.overflowed = False
        #: A spectator without a token: subject to the round's transmission delay.
        self.public = True
        #: Per game, the last version the client already has; older messages are skipped.
        self.sent: dict[int, int] = {}
        #: A live direct member's bare write function (see FrameWriter.hot_path).
        self.hot: HotPath | None = None
        #: The socket the room writes to itself while nothing waits in the writer's buffer.
        self.fd: int | None = None

    def go_live(self) -> None:
        """The history has been sent: send what arrived meanwhile, then go live."""
        held, self._held = self._held or [], None
        if self.writer is not None and not self.closed:
            self.hot = self.writer.hot_path()
            self.drained()
        fresh = [item for item in held if item.seq > self.sent.get(item.game_id, 0)]
        for item in fresh:
            self.sent[item.game_id] = item.seq
        if fresh:
            self.offer(fresh, b"".join(item.frame for item in fresh))

    def offer(self, items: list[Outgoing], frames: bytes) -> None:
        if self.closed:
            return
        if self._held is not None:
            if len(self._held) + len(items) > self._backlog:
                self.drop()
            else:
                self._held.extend(items)
            return
        if self.writer is not None:
            if self.writer.buffered() > self.room.write_limit or not self.writer.write(frames):
                self.drop()
            return
        assert self._items is not None
        assert self._ready is not None
        if len(self._items) + len(items) > self._backlog:
            self.drop()
            return
        self._items.extend(items)
        self._ready.set()

    def ping(self) -> None:
        if self.closed or self._held is not None:
            return
        if self.writer is not None:
            self.writer.write(PING_FRAME)
        else:
            assert self._items is not None
            assert self._ready is not None
            self._items.append(Outgoing(0, 0, PING, PING_FRAME))
            self._ready.set()

    def drop(self) -> None:
        """Too far behind: close the client with 1013; it resumes from its version."""
        self.overflowed = True
        if self.writer is not None:
            self.writer.close(CLOSE_TRY_AGAIN, "too far behind; resume from your version")
            self.room.leave(self)
        self.close()

    def spilled(self) -> None:
        """The writer holds bytes the socket has not taken: write through it from now on,
        so frames stay in order."""
        self.room.write_by_socket(self, None)

    def drained(self) -> None:
        """The writer's buffer is empty again: the room may write to the socket itself."""
        if self.hot is not None and self.writer is not None:
            self.room.write_by_socket(self, self.writer.socket_fd())

    def close(self) -> None:
        self.closed = True
        self.hot = None
        self.room.write_by_socket(self, None)
        if self._ready is not None:
            self._ready.set()

    async def next(self) -> Outgoing | None:
        """Backlog members: the next message, or None once closed."""
        assert self._items is not None
        assert self._ready is not None
        while not self._items:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        if self.closed:
            return None
        item = self._items.popleft()
        if item.seq:
            self.sent[item.game_id] = max(item.seq, self.sent.get(item.game_id, 0))
        return item


class Room:
    """All clients following one topic, live or ``delay`` seconds behind, and of its games
    either all or only ``games`` (a page of a round's boards)."""

    def __init__(
        self,
        rooms: Rooms,
        topic: str,
        delay: float = 0.0,
        games: frozenset[int] | None = None,
        key: str = "",
    ) -> None:
        self._rooms = rooms
        self.topic = topic
        self.delay = delay
        self.games = games
        self.key = key or _key(topic, delay, "")
        self.write_limit = rooms.write_limit
        self.members: set[Member] = set()
        #: Live members written to by socket, while their writers' buffers are empty.
        self._by_socket: dict[int, Member] = {}
        self._sockets: tuple[int, ...] | None = None  # its keys, kept between changes
        #: Every other member: catching up, behind, or without a socket of its own.
        self._others: set[Member] = set()
        self._loop = asyncio.get_running_loop()
        self._pending: set[asyncio.TimerHandle] = set()
        self._batch: list[Outgoing] = []
        self._said_at = time.monotonic()
        self._heartbeat = self._loop.call_later(rooms.heartbeat, self._beat)
        handler: Callable[[Published], None] = self._deliver if delay <= 0 else self._hold
        if games is not None:
            handler = self._only_games(handler)
        self._subscription: Subscription = rooms.bus.subscribe(topic, handler)

    def _only_games(self, handler: Callable[[Published], None]) -> Callable[[Published], None]:
        games = self.games or frozenset()

        def only(message: Published) -> None:
            if message.game_id in games:
                handler(message)

        return only

    def _hold(self, message: Published) -> None:
        """A delayed room hands each message on when it is ``delay`` seconds old."""
        wait = message.recorded_at + self.delay - time.time()

        def release() -> None:
            self._pending.discard(handle)
            self._deliver(message)

        handle = self._loop.call_later(max(0.0, wait), release)
        self._pending.add(handle)

    def _deliver(self, message: Published) -> None:
        text = encode_event(message)
        self._batch.append(Outgoing(message.game_id, message.seq, text, text_frame(text)))
        if len(self._batch) == 1:
            # Everything published in this turn of the loop goes out as one write.
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        items, self._batch = self._batch, []
        if not items:
            return
        frames = b"".join(item.frame for item in items)
        self._said_at = time.monotonic()
        # The common case, most of the work: a system call per client and nothing else.
        sockets = self._sockets
        if sockets is None:
            sockets = self._sockets = tuple(self._by_socket)
        for fd, sent in self._rooms.fanout.write(sockets, frames):
            member = self._by_socket[fd]
            if member.writer is not None:
                member.writer.write(frames[sent:])  # the writer keeps the rest: spilled()
        limit = self.write_limit
        for member in tuple(self._others):
            hot = member.hot
            if hot is None:
                member.offer(items, frames)
            elif not hot(frames, limit):
                member.drop()

    def write_by_socket(self, member: Member, fd: int | None) -> None:
        """Write to ``member`` by its socket ``fd`` from now on; None: through its writer."""
        self._sockets = None
        if member.fd is not None:
            self._by_socket.pop(member.fd, None)
            member.fd = None
        if fd is not None and not member.closed:
            member.fd = fd
            self._by_socket[fd] = member
            self._others.discard(member)
        elif member in self.members:
            self._others.add(member)

    def _beat(self) -> None:
        interval = self._rooms.heartbeat
        quiet = time.monotonic() - self._said_at
        if quiet >= interval * 0.99:
            for member in tuple(self.members):
                member.ping()
            self._said_at = time.monotonic()
            quiet = 0.0
        self._heartbeat = self._loop.call_later(interval - quiet, self._beat)

    def leave(self, member: Member) -> None:
        member.close()
        if member not in self.members:
            return
        self.members.discard(member)
        self._others.discard(member)
        if not self.members:
            self.close()

    def close(self) -> None:
        """Close the room and every member in it (they reconnect and resume)."""
        for member in tuple(self.members):
            member.close()
        self.members.clear()
        self._others.clear()
        for handle in self._pending:
            handle.cancel()
        self._pending.clear()
        self._heartbeat.cancel()
        self._subscription.close()
        self._rooms.forget(self)


class Rooms:
    """The rooms of one process, created on first join and removed when empty."""

    def __init__(
        self,
        bus: MemoryBus,
        backlog: int = DEFAULT_BACKLOG,
        *,
        heartbeat: float = 15.0,
        write_limit: int = DEFAULT_WRITE_LIMIT,
        fanout: SocketFanout | None = None,
    ) -> None:
        self.bus = bus
        self.backlog = backlog
        self.heartbeat = heartbeat
        self.write_limit = write_limit
        #: Who writes a frame to the rooms' sockets (without one: the loop's thread alone);
        #: the rooms own it and close it.
        self.fanout = fanout or SocketFanout(helpers=0)
        self._rooms: dict[str, Room] = {}

    def join(
        self,
        topic: str,
        delay: float = 0.0,
        *,
        public: bool = True,
        writer: FrameWriter | None = None,
        games: frozenset[int] | None = None,
        label: str = "",
    ) -> Member:
        """Join the room of ``topic`` (``delay`` seconds behind); with ``games``, the room
        of those games alone, one per ``label`` (a board range)."""
        if games is not None:
            label = label or ",".join(str(game) for game in sorted(games))
        key = _key(topic, delay, label if games is not None else "")
        room = self._rooms.get(key)
        if room is None:
            room = self._rooms[key] = Room(self, topic, delay, games, key)
        member = Member(room, self.backlog, writer)
        member.public = public
        room.members.add(member)
        room.write_by_socket(member, None)
        return member

    def forget(self, room: Room) -> None:
        if self._rooms.get(room.key) is room:
            del self._rooms[room.key]

    def drop_public(self) -> None:
        """A delay changed: every public member starts again (they reconnect and get the
        round as the new delay shows it)."""
        for room in tuple(self._rooms.values()):
            for member in tuple(room.members):
                if member.public:
                    if member.writer is not None:
                        member.writer.close(CLOSE_TRY_AGAIN, "the round's delay changed")
                    room.leave(member)

    def close(self) -> None:
        for room in tuple(self._rooms.values()):
            room.close()
        self.fanout.close()

    def __len__(self) -> int:
        return len(self._rooms)


def _key(topic: str, delay: float, label: str) -> str:
    key = topic if delay <= 0 else f"{topic}@{delay:g}"
    return f"{key}#{label}" if label else key
