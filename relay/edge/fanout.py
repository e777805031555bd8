"""One buffer written to many sockets, the system calls spread over the machine's cores.

Writing a websocket frame to a local socket is almost all kernel work (the copy, the TCP
stack, waking the reader), and ``os.write`` lets go of the GIL while the kernel does it. So
threads do overlap here: with a second core free, a thousand writes take about half the
time, and the last spectator of a move gets it that much sooner.

The caller's thread writes a share itself and waits for the helpers' shares, so nothing
else of the event loop runs meanwhile: no transport is touched by two threads at once. Short
writes (a full socket buffer, a closed peer) come back to the caller, which hands the rest
to the connection's own writer on the loop's thread. Small lists are written inline, where
waking a thread would cost more than it saves.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from queue import SimpleQueue

__all__ = ["SocketFanout", "default_helpers"]

#: Below this many sockets, one thread writes them all. Each ``os.write`` lets go of the GIL
#: and takes it back, so two threads writing take turns at it, and that costs CPU for every
#: socket: measured with ``bench.fanout`` (2026-11-26), a room of 1,000 written by one
#: thread used a fifth less CPU at the same latency (p50 6 ms either way); at 5,000 the
#: helpers' share of the writes shortens the wait for the last spectator on a machine with
#: a core to spare.
PARALLEL_FROM = 2048

#: What a helper is handed: sockets and the bytes, or None to stop.
_Job = tuple[Sequence[int], bytes] | None
#: Sockets that did not take the whole buffer, with what they took.
Short = list[tuple[int, int]]


def default_helpers() -> int:
    """One helper thread per further core, at most three."""
    return max(0, min(os.cpu_count() or 1, 4) - 1)


def write_each(fds: Sequence[int], data: bytes) -> Short:
    """Write ``data`` to each socket; the ones that took less than all of it."""
    write = os.write
    size = len(data)
    short: Short = []
    for fd in fds:
        try:
            sent = write(fd, data)
        except OSError:
            sent = 0  # full or broken: the connection's writer finds out which
        if sent != size:
            short.append((fd, sent))
    return short


class SocketFanout:
    """A caller thread plus ``helpers`` threads that write one buffer to many sockets."""

    def __init__(self, helpers: int | None = None, parallel_from: int = PARALLEL_FROM) -> None:
        count = default_helpers() if helpers is None else helpers
        self._parallel_from = parallel_from
        self._jobs: list[SimpleQueue[_Job]] = [SimpleQueue() for _ in range(count)]
        self._done: SimpleQueue[Short] = SimpleQueue()
        self._threads = [
            threading.Thread(target=self._help, args=(jobs,), name=f"fanout-{n}", daemon=True)
            for n, jobs in enumerate(self._jobs)
        ]
        for thread in self._threads:
            thread.start()

    @property
    def helpers(self) -> int:
        return len(self._threads)

    def write(self, fds: Sequence[int], data: bytes) -> Short:
        """Write ``data`` to every socket in ``fds``; return the short writes."""
        shares = len(self._jobs) + 1
        if shares == 1 or len(fds) < self._parallel_from:
            return write_each(fds, data)
        for n, jobs in enumerate(self._jobs, start=1):
            jobs.put((fds[n::shares], data))
        short = write_each(fds[::shares], data)
        for _ in self._jobs:
            short += self._done.get()
        return short

    def _help(self, jobs: SimpleQueue[_Job]) -> None:
        while (job := jobs.get()) is not None:
            fds, data = job
            try:
                short = write_each(fds, data)
            except BaseException:
                short = [(fd, 0) for fd in fds]  # the caller's writers take the lot
            self._done.put(short)

    def close(self) -> None:
        for jobs in self._jobs:
            jobs.put(None)
        for thread in self._threads:
            thread.join()
        self._threads.clear()
        self._jobs.clear()
