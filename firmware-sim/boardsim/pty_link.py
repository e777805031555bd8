"""Serving a board, or a bus chain of boards, on a pseudo-terminal.

The host opens :attr:`PtyLink.path` (``/dev/pts/N``) like any serial port, with pyserial or
anything else. The link keeps its own handle on that end open, so a host that closes the port
and opens it again finds the board still there, as with a real USB board.

:meth:`PtyLink.vanish` pulls the cable: both ends are closed, the device node disappears and
a host holding it open reads end-of-file or EIO. :meth:`PtyLink.reappear` plugs it back in
and tries hard to come back under the same path: Linux hands out the lowest free pts number,
so the link opens pseudo-terminals (holding any lower numbers it is given) until it gets its
old one. That number is free only once every handle on the old terminal is closed, so if the
host still holds its stale handle the link keeps trying for ``patience`` seconds and then
takes a new number; :attr:`PtyLink.path` always says where the board is now.
"""

from __future__ import annotations

import asyncio
import os
import tty

from boardsim.endpoint import Endpoint
from boardsim.link import ServedLine

_READ_SIZE = 1024
#: Pseudo-terminals opened at most while looking for a given number.
_MAX_TRIES = 256


class PtyLink(ServedLine):
    """One serial line on one pseudo-terminal, driven by the running event loop."""

    def __init__(self, endpoint: Endpoint, *, byte_seconds: float | None = None) -> None:
        super().__init__(endpoint, byte_seconds=byte_seconds)
        self._loop = asyncio.get_running_loop()
        self._pending = bytearray()
        self._writer_active = False
        self._closed = False
        self._master = self._slave = -1
        self.path = ""
        self._plug_in(_open_pty())

    # -- what hosts and players see ---------------------------------------------------------

    @property
    def address(self) -> str:
        return self.path

    @property
    def present(self) -> bool:
        return self._master >= 0

    # -- the cable --------------------------------------------------------------------------

    def vanish(self) -> None:
        """Pull the cable: the device node goes away until :meth:`reappear`."""
        if not self.present:
            return
        self._driver.detach()
        self._unplug()

    async def reappear(self, patience: float = 5.0) -> str:
        """Plug the cable back in, under the old path if it frees up within ``patience``."""
        if self._closed:
            raise RuntimeError("the link is closed")
        if self.present:
            return self.path
        deadline = self._loop.time() + patience
        while True:
            opened = _open_pty(self.path)
            if opened is not None or self._loop.time() >= deadline:
                break
            # Nothing signals that the host let go of the old number: look again shortly.
            await asyncio.sleep(0.05)
        self._plug_in(opened or _open_pty())
        return self.path

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._driver.close()
        self._unplug()

    # -- internals --------------------------------------------------------------------------

    def _plug_in(self, opened: tuple[int, int, str] | None) -> None:
        if opened is None:
            raise OSError("no pseudo-terminal available")
        self._master, self._slave, self.path = opened
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self._loop.add_reader(self._master, self._on_readable)
        self._driver.attach(self._write)

    def _unplug(self) -> None:
        if not self.present:
            return
        self._loop.remove_reader(self._master)
        if self._writer_active:
            self._loop.remove_writer(self._master)
            self._writer_active = False
        self._pending.clear()
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = -1

    def _on_readable(self) -> None:
        try:
            data = os.read(self._master, _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # no reader on the other side yet; we hold the slave, so this is rare
        self._driver.feed(data)

    def _write(self, data: bytes) -> None:
        self._pending += data
        self._write_pending()

    def _write_pending(self) -> None:
        while self._pending and self.present:
            try:
                written = os.write(self._master, self._pending)
            except BlockingIOError:
                break
            del self._pending[:written]
        if self._pending and not self._writer_active:
            self._loop.add_writer(self._master, self._write_pending)
            self._writer_active = True
        elif not self._pending and self._writer_active:
            self._loop.remove_writer(self._master)
            self._writer_active = False


def _pts_number(path: str) -> int:
    tail = path.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else -1


def _open_pty(wanted: str | None = None) -> tuple[int, int, str] | None:
    """A new pseudo-terminal (master, slave, path); with ``wanted``, that one or None."""
    held: list[int] = []
    try:
        for _ in range(_MAX_TRIES):
            master, slave = os.openpty()
            path = os.ttyname(slave)
            if wanted is None or path == wanted:
                return master, slave, path
            held += (master, slave)
            if _pts_number(path) > _pts_number(wanted):
                return None  # the wanted number is not free
        return None
    finally:
        for fd in held:
            os.close(fd)
