"""An asyncio transport for one DGT board over any pyserial URL.

``serial.serial_for_url`` means a USB port (``/dev/ttyACM0``), a pseudo-terminal
(``/dev/pts/7``), a TCP bridge (``socket://host:port``) and ``loop://`` all work unchanged.
Ports with a file descriptor are watched by the event loop; the others are read by one
thread. All protocol decisions stay in :class:`~drivers.dgt.protocol.DgtBoardProtocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncGenerator
from typing import Any

import serial

from drivers.dgt.protocol import DgtBoardProtocol
from drivers.events import BoardEvent, Disconnected

BAUD_RATE = 9600
_READ_SIZE = 4096
_THREAD_POLL_SECONDS = 0.05


class PortError(OSError):
    """The port could not be opened (no such device, no permission, busy)."""


class DgtSerialConnection:
    """A connected board: an async stream of :data:`~drivers.events.BoardEvent`."""

    def __init__(self, port: Any, protocol: DgtBoardProtocol) -> None:
        self._port = port
        self._protocol = protocol
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._closed = False
        self._reader_fd: int | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    async def open(cls, url: str) -> DgtSerialConnection:
        """Open ``url``, take over the board and start reading."""
        try:
            port = serial.serial_for_url(url, baudrate=BAUD_RATE, timeout=0)
        except (serial.SerialException, OSError, ValueError) as error:
            raise PortError(f"cannot open board port {url}: {error}") from None
        connection = cls(port, DgtBoardProtocol())
        connection._start_reading()
        connection._protocol.start()
        connection._flush()
        return connection

    @property
    def protocol(self) -> DgtBoardProtocol:
        return self._protocol

    async def events(self) -> AsyncGenerator[BoardEvent, None]:
        """Board events in arrival order; ends after a :class:`Disconnected` event."""
        while True:
            event = await self._queue.get()
            yield event
            if isinstance(event, Disconnected):
                return

    def close(self, reason: str = "closed by the host") -> None:
        """Release the port; the event stream ends with a :class:`Disconnected` event."""
        if self._closed:
            return
        self._closed = True
        self._queue.put_nowait(Disconnected(reason))
        if self._reader_fd is not None:
            self._loop.remove_reader(self._reader_fd)
        with contextlib.suppress(serial.SerialException, OSError):
            self._port.close()
        if self._thread is not None:
            self._thread.join()

    def _start_reading(self) -> None:
        try:
            fd = self._port.fileno()
        except (AttributeError, NotImplementedError, serial.SerialException, OSError):
            fd = None
        if isinstance(fd, int):
            self._reader_fd = fd
            self._loop.add_reader(fd, self._on_readable)
        else:
            self._thread = threading.Thread(target=self._read_in_thread, daemon=True)
            self._thread.start()

    def _on_readable(self) -> None:
        try:
            data = self._port.read(_READ_SIZE)
        except (serial.SerialException, OSError) as error:
            self._lost(str(error))
            return
        if data:
            self._feed(data)

    def _read_in_thread(self) -> None:
        self._port.timeout = _THREAD_POLL_SECONDS
        while not self._closed:
            try:
                data = self._port.read(_READ_SIZE)
            except (serial.SerialException, OSError) as error:
                if not self._closed:
                    self._loop.call_soon_threadsafe(self._lost, str(error))
                return
            if data:
                self._loop.call_soon_threadsafe(self._feed, data)

    def _feed(self, data: bytes) -> None:
        if self._closed:
            return  # scheduled by the reader thread just before the port was closed
        self._protocol.receive_data(data)
        for event in self._protocol.events_received():
            self._queue.put_nowait(event)
        self._flush()

    def _flush(self) -> None:
        data = self._protocol.data_to_send()
        if not data:
            return
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as error:
            self._lost(str(error))

    def _lost(self, reason: str) -> None:
        self.close(reason)
