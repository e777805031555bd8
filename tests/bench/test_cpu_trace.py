"""The benchmarks' CPU trace: it answers for a moment known only afterwards with the first
sample at or after it, so nothing the process used before that moment is left out."""

from __future__ import annotations

import itertools
import os
import threading
import time

import pytest

from bench import cpu_trace
from bench.cpu_trace import CpuTrace, cpu_seconds


def burn(seconds: float) -> None:
    """Use about ``seconds`` of this process's CPU."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def test_the_cpu_used_between_two_moments_is_counted() -> None:
    trace = CpuTrace(os.getpid(), period=0.005)
    try:
        before = time.time()  # after the first sample, read as the trace was made
        burn(0.3)
        after = time.time()
    finally:
        trace.stop()
    # The kernel counts in ticks (usually 10 ms), and the sample at or after ``after`` may
    # add a little of the sampler's own time.
    assert 0.25 <= trace.at(after) - trace.at(before) <= 0.45
    # A window opened at the last sample before the work holds all of it.
    assert 0.25 <= trace.at(after) - trace.before(before) <= 0.45


def test_a_moment_is_answered_by_the_samples_either_side_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = itertools.count(1)
    enough = threading.Event()

    def reading(pid: int) -> float:
        """1, 2, 3...: neighbouring samples always differ."""
        value = next(readings)
        if value >= 5:
            enough.set()
        return float(value)

    monkeypatch.setattr(cpu_trace, "cpu_seconds", reading)
    trace = CpuTrace(os.getpid(), period=0.002)
    assert enough.wait(10), "the trace took too few samples"
    trace.stop()
    samples = trace.samples
    assert [cpu for _, cpu in samples] == [float(n) for n in range(1, len(samples) + 1)]
    assert len(samples) >= 4
    times = [at for at, _ in samples]
    assert times == sorted(times)
    for (earlier, cpu_earlier), (later, cpu_later) in itertools.pairwise(samples[:-1]):
        between = (earlier + later) / 2
        assert trace.before(between) == cpu_earlier
        assert trace.at(between) == cpu_later
        # A sample read at the very moment answers both ways.
        assert trace.before(later) == trace.at(later) == cpu_later
    assert trace.before(times[-1] + 60) == samples[-1][1]
    assert trace.at(times[0] - 60) == samples[0][1]


def test_a_moment_after_the_trace_stopped_is_refused() -> None:
    trace = CpuTrace(os.getpid())
    trace.stop()
    with pytest.raises(ValueError, match="stopped before it"):
        trace.at(time.time() + 60)


def test_cpu_seconds_grow_with_work() -> None:
    first = cpu_seconds(os.getpid())
    burn(0.05)
    assert cpu_seconds(os.getpid()) > first


def test_a_moment_before_the_trace_started_is_refused() -> None:
    started = time.time()
    trace = CpuTrace(os.getpid())
    trace.stop()
    with pytest.raises(ValueError, match="started after it"):
        trace.before(started - 60)
