"""Running a sans-I/O protocol on a pyserial port: reading, writing, deadlines, reopening.

``serial.serial_for_url`` means a USB port (``/dev/ttyACM0``), a pseudo-terminal
(``/dev/pts/7``), a TCP bridge (``socket://host:port``) and ``loop://`` all work unchanged.
Ports with a file descriptor are watched by the event loop; the others are read by one
thread. A lost port (USB unplugged, pty closed) is reopened with backoff, and the protocol
is told to resynchronise. The protocol makes every decision; this class only moves bytes
and keeps time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Callable
from typing import Any, Protocol

import serial

BAUD_RATE = 9600
_READ_SIZE = 4096
_THREAD_POLL_SECONDS = 0.05
#: Waits between attempts to reopen a lost port.
BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)

log = logging.getLogger(__name__)


class PortError(OSError):
    """The port could not be opened (no such device, no permission, busy)."""


class SansIoProtocol(Protocol):
    """What a protocol offers the port: bytes both ways, a deadline, and link changes."""

    @property
    def deadline(self) -> float | None: ...

    def start(self, now: float) -> None: ...

    def resync(self, now: float) -> None: ...

    def lost(self, reason: str) -> None: ...

    def receive_data(self, data: bytes, now: float) -> None: ...

    def advance(self, now: float) -> None: ...

    def data_to_send(self) -> bytes: ...


def open_port(url: str) -> Any:
    try:
        return serial.serial_for_url(url, baudrate=BAUD_RATE, timeout=0)
    except (serial.SerialException, OSError, ValueError) as error:
        raise PortError(f"cannot open board port {url}: {error}") from None


class PortDriver:
    """Feeds one protocol from one port. ``after_io`` runs after every step so the owner can
    collect the protocol's events; ``on_lost(reason, reconnecting)`` reports a lost port."""

    def __init__(
        self,
        url: str,
        protocol: SansIoProtocol,
        *,
        after_io: Callable[[], None],
        on_lost: Callable[[str, bool], None],
        reconnect: bool = True,
    ) -> None:
        self.url = url
        self.protocol = protocol
        self._after_io = after_io
        self._on_lost = on_lost
        self._reconnect = reconnect
        self._loop = asyncio.get_running_loop()
        self._port: Any = None
        self._closed = False
        self._reader_fd: int | None = None
        self._thread: threading.Thread | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._reopening: asyncio.Task[None] | None = None
        self._unsent = bytearray()  # waiting for a port that cannot take more yet
        self._writing = False
        self._attempt = 0  # reopening attempts since data last flowed

    def open(self) -> None:
        """Open the port (raising :class:`PortError`) and start the protocol."""
        self._attach(open_port(self.url))
        self.protocol.start(self._loop.time())
        self.pump()

    @property
    def now(self) -> float:
        return self._loop.time()

    @property
    def connected(self) -> bool:
        return self._port is not None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._reopening is not None:
            self._reopening.cancel()
        self._detach()

    def pump(self) -> None:
        """Let the owner collect events, write what the protocol wants sent, arm its timer."""
        self._after_io()
        data = self.protocol.data_to_send()
        if data and self._port is not None:
            self._unsent += data
            self._write()
            if self._port is None:
                return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.protocol.deadline
        if deadline is not None and self._port is not None:
            self._timer = self._loop.call_at(deadline, self._advance)

    def _write(self) -> None:
        """Write without blocking the loop: what the port cannot take now waits for it."""
        if self._reader_fd is None:
            try:  # ports without a descriptor (socket://, loop://) take small writes at once
                self._port.write(bytes(self._unsent))
                self._unsent.clear()
            except (serial.SerialException, OSError) as error:
                self._lost(str(error))
            return
        try:
            written = os.write(self._reader_fd, self._unsent)
        except BlockingIOError:
            written = 0
        except OSError as error:
            self._lost(str(error))
            return
        del self._unsent[:written]
        if self._unsent and not self._writing:
            self._loop.add_writer(self._reader_fd, self._write)
            self._writing = True
        elif not self._unsent and self._writing:
            self._loop.remove_writer(self._reader_fd)
            self._writing = False

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
            if self._writing:
                self._loop.remove_writer(self._reader_fd)
                self._writing = False
            self._reader_fd = None
        self._unsent.clear()
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _on_readable(self) -> None:
        # Read the descriptor directly: pyserial's read() calls select(), which cannot take
        # a descriptor above 1023, and a hub with a few hundred boards has such descriptors.
        assert self._reader_fd is not None
        try:
            data = os.read(self._reader_fd, _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return  # woken for nothing
        except OSError as error:
            self._lost(str(error))
            return
        if not data:
            self._lost("the port is readable but returned no data: device disconnected")
            return
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
                self._loop.call_soon_threadsafe(self._feed, data, port)

    def _feed(self, data: bytes, port: Any = None) -> None:
        if self._port is None or (port is not None and port is not self._port):
            return  # read from a port that has gone since
        self._attempt = 0
        self.protocol.receive_data(data, self._loop.time())
        self.pump()

    def _advance(self) -> None:
        self._timer = None
        self.protocol.advance(self._loop.time())
        self.pump()

    def _lost(self, reason: str) -> None:
        if self._closed or self._port is None:
            return
        self._detach()
        self.protocol.lost(reason)
        reconnecting = self._reconnect
        if reconnecting:
            log.warning("port %s lost (%s); reopening", self.url, reason)
            self._reopening = self._loop.create_task(self._reopen())
        else:
            self._closed = True
        self._on_lost(reason, reconnecting)

    async def _reopen(self) -> None:
        # The backoff only starts again from the shortest wait once data has flowed, so a
        # port that opens and dies at once is retried ever more slowly.
        while not self._closed:
            wait = BACKOFF_SECONDS[min(self._attempt, len(BACKOFF_SECONDS) - 1)]
            await asyncio.sleep(wait)
            self._attempt += 1
            try:
                # Opening may block (a TCP connect): keep it off the event loop.
                port = await asyncio.to_thread(open_port, self.url)
            except PortError:
                continue
            if self._closed:
                port.close()
                return
            self._attach(port)
            self.protocol.resync(self._loop.time())
            self.pump()
            log.info("port %s is back", self.url)
            return
