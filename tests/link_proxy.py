"""A TCP proxy for fault tests: it forwards a link and can cut it, blackhole it or delay it,
as a venue's internet does. It runs its own event loop on a thread.

    with LinkProxy(target_port) as proxy:
        agent connects to proxy.port
        proxy.cut()        # every connection closed, new ones refused, until restore()
        proxy.blackhole()  # connections stay open and nothing passes, until restore()
        proxy.delay(0.5)   # each chunk arrives this much later, each way
        proxy.restore()
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from types import TracebackType
from typing import Any

__all__ = ["LinkProxy"]


class LinkProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self._target = (target_host, target_port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._connections: set[asyncio.Task[None]] = set()
        self._mode = "open"
        self._delay = 0.0
        self._passing = asyncio.Event()
        self._server: asyncio.Server | None = None
        #: Connections accepted so far.
        self.accepted = 0
        self._accepting = threading.Condition()
        self.port = 0

    def __enter__(self) -> LinkProxy:
        self._thread.start()
        self.port = self._call(self._start())
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._call(self._stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def _call(self, work: Coroutine[Any, Any, int]) -> int:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=30)

    async def _start(self) -> int:
        self._passing.set()
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _stop(self) -> int:
        if self._server is not None:
            self._server.close()
        await self._drop_all()
        return 0

    async def _drop_all(self) -> None:
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)

    def cut(self) -> None:
        """Close every connection; refuse new ones until :meth:`restore`."""
        self._mode = "cut"
        self._call(self._set(cut=True))

    def blackhole(self) -> None:
        """Keep connections open but let nothing through, either way."""
        self._mode = "blackhole"
        self._call(self._set(hold=True))

    def wait_accepted(self, count: int, timeout: float) -> None:
        """Wait until ``count`` connections have been accepted in all; TimeoutError after
        ``timeout`` seconds."""
        with self._accepting:
            if not self._accepting.wait_for(lambda: self.accepted >= count, timeout):
                raise TimeoutError(f"{self.accepted} connections, not {count}, in {timeout:g} s")

    def retarget(self, port: int, host: str = "127.0.0.1") -> None:
        """Forward new connections to ``port`` (a hub started again elsewhere)."""
        self._target = (host, port)

    def delay(self, seconds: float) -> None:
        """Deliver what comes from now on ``seconds`` later, each way (until :meth:`restore`):
        a longer line, not a slower one."""
        self._delay = seconds

    def restore(self) -> None:
        self._mode = "open"
        self._delay = 0.0
        self._call(self._set())

    async def _set(self, *, cut: bool = False, hold: bool = False) -> int:
        if cut:
            await self._drop_all()
        if hold:
            self._passing.clear()
        else:
            self._passing.set()
        return 0

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._mode == "cut":
            writer.close()
            return
        with self._accepting:
            self.accepted += 1
            self._accepting.notify_all()
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._target)
        except OSError:
            writer.close()
            self._connections.discard(task)
            return
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for end in (writer, up_writer):
                with contextlib.suppress(Exception):
                    end.transport.abort()
            self._connections.discard(task)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Carry ``source`` to ``sink`` as a line does: each chunk leaves the delay in force
        when it came after it came, in order, and nothing leaves while the link is held."""
        loop = asyncio.get_running_loop()
        line: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        carrier = asyncio.ensure_future(self._carry(line, sink))
        try:
            while chunk := await source.read(65536):
                line.put_nowait((loop.time() + self._delay, chunk))
            line.put_nowait((loop.time() + self._delay, b""))  # the end, after the rest
            await carrier
        finally:
            carrier.cancel()

    async def _carry(
        self, line: asyncio.Queue[tuple[float, bytes]], sink: asyncio.StreamWriter
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due, chunk = await line.get()
            if (wait := due - loop.time()) > 0:
                await asyncio.sleep(wait)
            await self._passing.wait()
            if not chunk:
                sink.close()
                return
            sink.write(chunk)
            await sink.drain()
