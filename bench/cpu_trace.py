"""A process's CPU time, sampled as it goes, so a benchmark can ask what it had used at a
moment it learns of only afterwards (the last spectator's arrival, stamped by the kernel):
``at(moment)`` answers with the first sample read at or after it, ``before(moment)`` with
the last read at or before it, so a window from ``before(start)`` to ``at(end)`` misses
nothing used between the two.

The samples are user plus system time from ``/proc/PID/stat`` (the kernel counts in ticks,
usually 10 ms), each with the wall-clock time it was read.
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from pathlib import Path

__all__ = ["CpuTrace", "cpu_seconds"]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuTrace:
    """Samples ``pid``'s CPU time every ``period`` seconds on a thread of its own, from
    construction until :meth:`stop`, and once more then."""

    def __init__(self, pid: int, period: float = 0.01) -> None:
        self._pid = pid
        self._period = period
        self._times: list[float] = []
        self._cpu: list[float] = []
        self._stopped = threading.Event()
        self._sample()
        self._thread = threading.Thread(target=self._run, name="cpu-trace", daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        self._cpu.append(cpu_seconds(self._pid))
        self._times.append(time.time())

    def _run(self) -> None:
        while not self._stopped.wait(self._period):
            self._sample()

    def stop(self) -> None:
        """Stop sampling, with one last sample read now."""
        if not self._stopped.is_set():
            self._stopped.set()
            self._thread.join()
            self._sample()

    @property
    def samples(self) -> list[tuple[float, float]]:
        """Each sample as (Unix seconds when read, CPU seconds used), in order."""
        return list(zip(self._times, self._cpu, strict=True))

    def before(self, moment: float) -> float:
        """The CPU time of the last sample read at or before ``moment`` (Unix seconds), so
        that nothing used after it is missed."""
        index = bisect.bisect_right(self._times, moment)
        if index == 0:
            raise ValueError(f"no sample at or before {moment}: the trace started after it")
        return self._cpu[index - 1]

    def at(self, moment: float) -> float:
        """The CPU time of the first sample read at or after ``moment`` (Unix seconds), so
        that nothing used before it is missed."""
        index = bisect.bisect_left(self._times, moment)
        if index == len(self._times):
            raise ValueError(f"no sample at or after {moment}: the trace stopped before it")
        return self._cpu[index]
