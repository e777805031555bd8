"""Asyncio connections to DGT boards: one board on its own port, or a bus line of many.

Both give the hub :class:`~drivers.link.BoardLink` objects: an async stream of board events
and clock commands the other way. The bytes are moved by :class:`~drivers.dgt.port.PortDriver`;
the decisions are the sans-I/O protocols'.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from drivers.dgt.bus import BusOptions, DgtBusProtocol
from drivers.dgt.port import PortDriver, PortError
from drivers.dgt.protocol import DgtBoardProtocol, DgtOptions
from drivers.events import (
    BoardEvent,
    ClockCommand,
    ClockCommandFailed,
    Disconnected,
)

__all__ = ["DgtBusBoard", "DgtBusLine", "DgtSerialConnection", "PortError"]


async def _stream(queue: asyncio.Queue[BoardEvent]) -> AsyncGenerator[BoardEvent, None]:
    while True:
        event = await queue.get()
        yield event
        if isinstance(event, Disconnected) and not event.reconnecting:
            return


class DgtSerialConnection:
    """One DGT board on its own port (USB, Bluetooth, pty, TCP bridge).

    The stream ends with a :class:`Disconnected` event when the host closes the connection,
    or when the port is lost and reconnection is off; while reconnecting it carries
    ``Disconnected(reconnecting=True)`` and goes on after the board is back.
    """

    def __init__(self, url: str, options: DgtOptions | None, reconnect: bool) -> None:
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self.protocol = DgtBoardProtocol(options)
        self._port = PortDriver(
            url, self.protocol, after_io=self._deliver, on_lost=self._lost, reconnect=reconnect
        )
        self._closed = False

    @classmethod
    async def open(
        cls, url: str, options: DgtOptions | None = None, *, reconnect: bool = True
    ) -> DgtSerialConnection:
        """Open ``url`` (raising :class:`PortError`), take over the board, start reading."""
        connection = cls(url, options, reconnect)
        connection._port.open()
        return connection

    @property
    def url(self) -> str:
        return self._port.url

    def events(self) -> AsyncGenerator[BoardEvent, None]:
        return _stream(self._queue)

    def send(self, command: ClockCommand) -> None:
        """Send a clock command (one at a time; the rest wait for acknowledgements).

        While the board is away the command fails at once rather than wait for it."""
        if not self._port.connected:
            self._queue.put_nowait(ClockCommandFailed(command, "the board is disconnected"))
            return
        self.protocol.send(command, self._port.now)
        self._port.pump()

    def close(self, reason: str = "closed by the host") -> None:
        if self._closed:
            return
        self._closed = True
        self._port.close()
        self.protocol.lost(reason)
        self._deliver()
        self._queue.put_nowait(Disconnected(reason))

    def _deliver(self) -> None:
        for event in self.protocol.events_received():
            self._queue.put_nowait(event)

    def _lost(self, reason: str, reconnecting: bool) -> None:
        self._deliver()
        self._queue.put_nowait(Disconnected(reason, reconnecting=reconnecting))
        if not reconnecting:
            self._closed = True


class DgtBusBoard:
    """One board of a bus line, as a board link of its own."""

    def __init__(self, line: DgtBusLine, address: int) -> None:
        self.line = line
        self.address = address
        self.queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self.closed = False

    def events(self) -> AsyncGenerator[BoardEvent, None]:
        return _stream(self.queue)

    def send(self, command: ClockCommand) -> None:
        # The bus protocol has no clock commands: a bus board's clock is read, not set.
        self.queue.put_nowait(ClockCommandFailed(command, "bus boards take no clock commands"))

    def close(self, reason: str = "closed by the host") -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(Disconnected(reason))


class DgtBusLine:
    """A line of DGT boards in bus mode on one port."""

    def __init__(self, url: str, options: BusOptions | None, reconnect: bool) -> None:
        self.protocol = DgtBusProtocol(options)
        self.boards: dict[int, DgtBusBoard] = {}
        self._discovered = asyncio.Event()
        self._port = PortDriver(
            url, self.protocol, after_io=self._deliver, on_lost=self._lost, reconnect=reconnect
        )

    @classmethod
    async def open(
        cls, url: str, options: BusOptions | None = None, *, reconnect: bool = True
    ) -> DgtBusLine:
        """Open the line and start discovering its boards."""
        line = cls(url, options, reconnect)
        line._port.open()
        return line

    async def discovered(self) -> dict[int, DgtBusBoard]:
        """The boards on the line, once discovery has finished."""
        await self._discovered.wait()
        return self.boards

    def board(self, address: int) -> DgtBusBoard:
        """The link to one board; a fresh one if an earlier link was closed."""
        if address not in self.protocol.boards:
            raise KeyError(f"no board {address} on the line")
        board = self.boards.get(address)
        if board is None or board.closed:
            board = self.boards[address] = DgtBusBoard(self, address)
        return board

    def mark_game_start(self, address: int) -> None:
        """A new game begins on this board: its log gets a start tag (see SEND_FROM_START)."""
        self.protocol.mark_game_start(address)
        self._port.pump()

    def close(self, reason: str = "closed by the host") -> None:
        self._port.close()
        for board in self.boards.values():
            board.close(reason)

    def _deliver(self) -> None:
        for address in self.protocol.boards:
            if address not in self.boards:
                self.boards[address] = DgtBusBoard(self, address)
        for item in self.protocol.events_received():
            board = self.boards.get(item.address)
            if board is not None and not board.closed:
                board.queue.put_nowait(item.event)
        if not self.protocol.discovering:
            self._discovered.set()

    def _lost(self, reason: str, reconnecting: bool) -> None:
        self._deliver()
        for board in self.boards.values():
            if not board.closed:
                board.queue.put_nowait(Disconnected(reason, reconnecting=reconnecting))
