"""Running a sans-I/O endpoint on the event loop: the one place where time is read.

:class:`LinkDriver` is shared by the pseudo-terminal and TCP transports. It reads
``loop.time()``, feeds the endpoint what the host wrote, moves the endpoint's output through
the :class:`~boardsim.line.SerialLine` to whatever writer the transport attached, and sets a
timer for the endpoint's (or the line's) next deadline, so scans, clock ticks, acks and bus
replies come out on time without anything polling. While no writer is attached (a vanished
port, a TCP port with no client) the output is lost, as on a cable nobody listens to.

:class:`Seat` is one board of a link, the thing a player sits at.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from boardsim.board import VirtualBoard
from boardsim.endpoint import Endpoint
from boardsim.line import SerialLine

#: Shortest wait between two wake-ups, so a paced line is served in small batches.
_MIN_WAIT = 0.001


class LinkDriver:
    """Feeds an endpoint on the running loop and wakes it at its deadlines."""

    def __init__(self, endpoint: Endpoint, *, byte_seconds: float | None = None) -> None:
        self.endpoint = endpoint
        self.line = SerialLine(byte_seconds)
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None
        self._writer: Callable[[bytes], None] | None = None
        self._listening = [asyncio.Event() for _ in endpoint.boards]
        self._closed = False
        # The boards join the loop's clock: from here on, their "now" is loop.time().
        endpoint.advance(self._loop.time())

    def attach(self, writer: Callable[[bytes], None]) -> None:
        self._writer = writer
        self.pump()

    def detach(self) -> None:
        """The port is gone: what is in flight, or sent from now on, is lost."""
        self._writer = None
        self.line.clear()

    def feed(self, data: bytes) -> None:
        """Bytes the host wrote."""
        if self._closed:
            return
        self.endpoint.receive_data(data, self._loop.time())
        self.pump()

    def pump(self) -> None:
        """Let the endpoint catch up with the loop's clock and write what is due."""
        if self._closed:
            return
        now = self._loop.time()
        self.endpoint.advance(now)
        out = self.endpoint.data_to_send()
        if out:
            self.line.send(out, now)
        ready = self.line.receive(now)
        if ready and self._writer is not None:
            self._writer(ready)
        for board, event in zip(self.endpoint.boards, self._listening, strict=True):
            if board.host_listening:
                event.set()
            else:
                event.clear()
        self._schedule(now)

    def inject_garbage(self, data: bytes) -> None:
        self.line.inject_garbage(data, self._loop.time())
        self.pump()

    async def wait_until_listening(self, board: int = 0) -> None:
        await self._listening[board].wait()

    def close(self) -> None:
        self._closed = True
        self._writer = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _schedule(self, now: float) -> None:
        deadlines = [
            t for t in (self.endpoint.next_deadline(), self.line.next_deadline()) if t is not None
        ]
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadlines:
            self._timer = self._loop.call_at(max(min(deadlines), now + _MIN_WAIT), self.pump)


class Link(Protocol):
    """A served line, whatever carries it: what seats, faults and the CLI use."""

    @property
    def boards(self) -> Sequence[VirtualBoard]: ...

    @property
    def line(self) -> SerialLine: ...

    @property
    def address(self) -> str:
        """What a host opens: a device path or a ``socket://`` URL."""
        ...

    def flush(self) -> None: ...

    def inject_garbage(self, data: bytes) -> None: ...

    async def wait_until_updating(self, board: int = 0) -> None: ...

    def vanish(self) -> None: ...

    async def reappear(self) -> str: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Seat:
    """Board ``index`` of a link: a player moves its pieces, the link carries the news."""

    link: Link
    index: int = 0

    @property
    def board(self) -> VirtualBoard:
        return self.link.boards[self.index]

    def flush(self) -> None:
        self.link.flush()

    async def wait_until_updating(self) -> None:
        """Until a host listens to this board (update mode, or addressed on the bus)."""
        await self.link.wait_until_updating(self.index)


class ServedLine:
    """What every transport of a line offers hosts and players, whatever carries the bytes.

    Subclasses (:class:`~boardsim.pty_link.PtyLink`, :class:`~boardsim.tcp_link.TcpLink`)
    add the cable: where the line is found and how it vanishes and comes back.
    """

    def __init__(self, endpoint: Endpoint, *, byte_seconds: float | None = None) -> None:
        self.endpoint = endpoint
        self._driver = LinkDriver(endpoint, byte_seconds=byte_seconds)

    @property
    def boards(self) -> tuple[VirtualBoard, ...]:
        return tuple(self.endpoint.boards)

    @property
    def board(self) -> VirtualBoard:
        """The board, when this line carries a single one."""
        boards = self.endpoint.boards
        if len(boards) != 1:
            raise TypeError(f"this link serves {len(boards)} boards; use seat(n)")
        return boards[0]

    @property
    def line(self) -> SerialLine:
        return self._driver.line

    def seat(self, index: int = 0) -> Seat:
        return Seat(self, index)  # type: ignore[arg-type]

    async def wait_until_updating(self, board: int = 0) -> None:
        """Return once a host listens to ``board`` (update mode, or addressed on the bus)."""
        await self._driver.wait_until_listening(board)

    def flush(self) -> None:
        """Write whatever the boards have to say to the host."""
        self._driver.pump()

    def inject_garbage(self, data: bytes) -> None:
        self._driver.inject_garbage(data)
