"""An asyncio transport for one DGT board over any pyserial URL, with reconnection.

``serial.serial_for_url`` means a USB port (``/dev/ttyACM0``), a pseudo-terminal
(``/dev/pts/7``), a TCP bridge (``socket://host:port``) and ``loop://`` all work unchanged.
Ports with a file descriptor are watched by the event loop; the others are read by one
thread. A lost port (USB unplugged, pty closed) is reopened with backoff and the protocol
resynchronises the board. All protocol decisions stay in
:class:`~drivers.dgt.protocol.DgtBoardProtocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncGenerator
from typing import Any

import serial

from drivers.dgt.protocol import DgtBoardProtocol, DgtOptions
from drivers.events import BoardEvent, ClockCommand, Disconnected

BAUD_RATE = 9600
_READ_SIZE = 4096
_THREAD_POLL_SECONDS = 0.05
#: Waits between attempts to reopen a lost port.
BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)

log = logging.getLogger(__name__)


class PortError(OSError):
    """The port could not be opened (no such device, no permission, busy)."""


def open_port(url: str) -> Any:
    try:
        return serial.serial_for_url(url, baudrate=BAUD_RATE, timeout=0)
    except (serial.SerialException, OSError, ValueError) as error:
        raise PortError(f"cannot open board port {url}: {error}") from None


class DgtSerialConnection:
    """A connected board: an async stream of :data:`~drivers.events.BoardEvent`.

    The stream ends with a :class:`Disconnected` event when the host closes the connection,
    or when the port is lost and reconnection is off; while reconnecting it carries
    ``Disconnected(reconnecting=True)`` and goes on after the board is back.
    """

    def __init__(self, url: str, protocol: DgtBoardProtocol, *, reconnect: bool = True) -> None:
        self.url = url
        self._protocol = protocol
        self._reconnect = reconnect
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._port: Any = None
        self._closed = False
        self._reader_fd: int | None = None
        self._thread: threading.Thread | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._reopening: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls, url: str, options: DgtOptions | None = None, *, reconnect: bool = True
    ) -> DgtSerialConnection:
        """Open ``url``, take over the board and start reading."""
        connection = cls(url, DgtBoardProtocol(options), reconnect=reconnect)
        connection._attach(open_port(url))
        connection._protocol.start(connection._loop.time())
        connection._pump()
        return connection

    @property
    def protocol(self) -> DgtBoardProtocol:
        return self._protocol

    async def events(self) -> AsyncGenerator[BoardEvent, None]:
        """Board events in arrival order, until the connection ends for good."""
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, Disconnected) and not event.reconnecting:
                return

    def send(self, command: ClockCommand) -> None:
        """Send a clock command (one at a time; the rest wait for acknowledgements)."""
        self._protocol.send(command, self._loop.time())
        self._pump()

    def close(self, reason: str = "closed by the host") -> None:
        """Release the port; the event stream ends with a :class:`Disconnected` event."""
        if self._closed:
            return
        self._closed = True
        if self._reopening is not None:
            self._reopening.cancel()
        self._detach()
        self._protocol.lost(reason)
        self._deliver()
        self._queue.put_nowait(Disconnected(reason))

    # -- port handling ----------------------------------------------------------------

    def _attach(self, port: Any) -> None:
        self._port = port
        try:
            fd = port.fileno()
        except (AttributeError, NotImplementedError, serial.SerialException, OSError):
            fd = None
        if isinstance(fd, int):
            self._reader_fd = fd
            self._loop.add_reader(fd, self._on_readable)
        else:
            self._thread = threading.Thread(target=self._read_in_thread, args=(port,), daemon=True)
            self._thread.start()

    def _detach(self) -> None:
        port, self._port = self._port, None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._reader_fd is not None:
            self._loop.remove_reader(self._reader_fd)
            self._reader_fd = None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _on_readable(self) -> None:
        try:
            data = self._port.read(_READ_SIZE)
        except (serial.SerialException, OSError) as error:
            self._lost(str(error))
            return
        if data:
            self._feed(data)

    def _read_in_thread(self, port: Any) -> None:
        port.timeout = _THREAD_POLL_SECONDS
        while self._port is port:
            try:
                data = port.read(_READ_SIZE)
            except (serial.SerialException, OSError) as error:
                if self._port is port:
                    self._loop.call_soon_threadsafe(self._lost, str(error))
                return
            if data:
                self._loop.call_soon_threadsafe(self._feed, data)

    def _feed(self, data: bytes) -> None:
        if self._port is None:
            return  # scheduled by the reader thread just before the port went away
        self._protocol.receive_data(data, self._loop.time())
        self._pump()

    def _advance(self) -> None:
        self._timer = None
        self._protocol.advance(self._loop.time())
        self._pump()

    def _pump(self) -> None:
        """Deliver events, write what the protocol wants sent, and arm its next deadline."""
        self._deliver()
        data = self._protocol.data_to_send()
        if data and self._port is not None:
            try:
                self._port.write(data)
            except (serial.SerialException, OSError) as error:
                self._lost(str(error))
                return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self._protocol.deadline
        if deadline is not None and self._port is not None:
            self._timer = self._loop.call_at(deadline, self._advance)

    def _deliver(self) -> None:
        for event in self._protocol.events_received():
            self._queue.put_nowait(event)

    def _lost(self, reason: str) -> None:
        if self._closed or self._port is None:
            return
        self._detach()
        if not self._reconnect:
            self.close(reason)
            return
        self._protocol.lost(reason)
        self._deliver()
        self._queue.put_nowait(Disconnected(reason, reconnecting=True))
        log.warning("board at %s lost (%s); reopening", self.url, reason)
        self._reopening = self._loop.create_task(self._reopen())

    async def _reopen(self) -> None:
        attempt = 0
        while not self._closed:
            await asyncio.sleep(BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)])
            attempt += 1
            try:
                port = open_port(self.url)
            except PortError:
                continue
            self._attach(port)
            self._protocol.resync(self._loop.time())
            self._pump()
            log.info("board at %s is back after %d attempts", self.url, attempt)
            return
