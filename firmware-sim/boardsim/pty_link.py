"""Serving a :class:`~boardsim.board.VirtualBoard` on a pseudo-terminal.

The host opens :attr:`PtyLink.path` (``/dev/pts/N``) like any serial port. The link keeps
its own handle on that end open, so a host that closes the port and opens it again finds
the board still there, as with a real USB board.
"""

from __future__ import annotations

import asyncio
import os
import tty

from boardsim.board import UpdateMode, VirtualBoard

_READ_SIZE = 1024


class PtyLink:
    """One board on one pseudo-terminal, driven by the running event loop."""

    def __init__(self, board: VirtualBoard) -> None:
        self.board = board
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._pending = bytearray()
        self._loop = asyncio.get_running_loop()
        self._updating = asyncio.Event()
        self._writer_active = False
        self._closed = False
        self._loop.add_reader(self._master, self._on_readable)

    async def wait_until_updating(self) -> None:
        """Return once the host has switched the board into an update mode."""
        await self._updating.wait()

    def flush(self) -> None:
        """Write whatever the board has to say to the host."""
        if self._closed:
            return
        self._pending += self.board.data_to_send()
        self._write_pending()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._master)
        if self._writer_active:
            self._loop.remove_writer(self._master)
        os.close(self._master)
        os.close(self._slave)

    def _on_readable(self) -> None:
        try:
            data = os.read(self._master, _READ_SIZE)
        except BlockingIOError:
            return
        self.board.receive_data(data)
        if self.board.mode is UpdateMode.IDLE:
            self._updating.clear()
        else:
            self._updating.set()
        self.flush()

    def _write_pending(self) -> None:
        while self._pending:
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
