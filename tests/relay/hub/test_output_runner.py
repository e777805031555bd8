"""The runner that keeps one output fed: what it sends, when it sends it again, and how it
backs off and recovers, on a clock of the test's own."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from relay.hub.outputs.round_copy import OutputError, RoundCopy
from relay.hub.outputs.runner import MAX_BACKOFF_SECONDS, OutputRunner, backoff

pytestmark = pytest.mark.anyio


def copy(round_id: int, pgn: str) -> RoundCopy:
    return RoundCopy(
        tournament_id=1,
        tournament="Test Open",
        round_id=round_id,
        number=round_id,
        cut=None,
        pgn=pgn,
        games=(),
    )


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """An output that keeps what it was given and fails while told to."""

    kind = "test"
    target = "a list in memory"

    def __init__(self, takes: set[int] | None = None) -> None:
        self.takes = takes
        self.delivered: list[tuple[int, str]] = []
        self.failing: Exception | None = None

    def wants(self, copy: RoundCopy) -> bool:
        return self.takes is None or copy.number in self.takes

    async def deliver(self, copy: RoundCopy) -> str:
        if self.failing is not None:
            raise self.failing
        self.delivered.append((copy.round_id, copy.pgn))
        return f"took {len(copy.pgn)} characters"


class Rounds:
    def __init__(self, *copies: RoundCopy) -> None:
        self.copies = list(copies)

    async def __call__(self) -> Sequence[RoundCopy]:
        return self.copies


def test_the_backoff_doubles_up_to_a_minute():
    assert [backoff(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert MAX_BACKOFF_SECONDS == 60
    assert backoff(5000) == 60  # a day of failures is still a minute, not an overflow


async def test_each_changed_round_is_sent_once_in_order():
    output, clock = Recorder(), Clock()
    rounds = Rounds(copy(1, "one"), copy(2, "two"))
    runner = OutputRunner(output, rounds, clock=clock)
    assert runner.status().state == "waiting"
    await runner.step()
    await runner.step()
    assert output.delivered == [(1, "one"), (2, "two")]
    rounds.copies[1] = copy(2, "two, a move later")
    await runner.step()
    assert output.delivered[2:] == [(2, "two, a move later")]
    status = runner.status()
    assert (status.state, status.delivered, status.pending, status.failures) == ("ok", 3, 0, 0)
    assert status.line == "round 2: took 17 characters"
    assert status.last_ok_at == clock.now


async def test_rounds_the_output_does_not_take_are_never_sent():
    output = Recorder(takes={2})
    runner = OutputRunner(output, Rounds(copy(1, "one"), copy(2, "two")), clock=Clock())
    await runner.step()
    assert output.delivered == [(2, "two")]


async def test_a_failing_output_backs_off_then_sends_the_newest_copy():
    output, clock = Recorder(), Clock()
    rounds = Rounds(copy(1, "first"))
    runner = OutputRunner(output, rounds, clock=clock)
    output.failing = OutputError("the server said 502")
    await runner.step()
    status = runner.status()
    assert (status.state, status.failures) == ("retrying", 1)
    assert status.error == "round 1: the server said 502"
    assert status.next_try_at == clock.now + 1
    assert status.pending == 1
    # Within the wait nothing is tried; each later failure waits twice as long.
    clock.now += 0.5
    await runner.step()
    assert runner.status().failures == 1
    clock.now += 0.5
    await runner.step()
    assert runner.status().next_try_at == clock.now + 2
    clock.now += 2
    rounds.copies = [copy(1, "second")]
    output.failing = None
    await runner.step()
    # The copy that went stale while the output failed is never sent.
    assert output.delivered == [(1, "second")]
    status = runner.status()
    assert (status.state, status.failures, status.error, status.next_try_at) == (
        "ok",
        0,
        None,
        None,
    )


async def test_a_platform_that_says_how_long_to_wait_is_obeyed():
    output, clock = Recorder(), Clock()
    runner = OutputRunner(output, Rounds(copy(1, "one")), clock=clock)
    output.failing = OutputError("too many requests", retry_after=90)
    await runner.step()
    assert runner.status().next_try_at == clock.now + 90
    output.failing = OutputError("too many requests", retry_after=10**9)
    clock.now += 90
    await runner.step()
    assert runner.status().next_try_at == clock.now + 3600  # an hour at most


async def test_a_bug_in_an_output_is_a_failure_not_the_end_of_the_runner():
    output, clock = Recorder(), Clock()
    runner = OutputRunner(output, Rounds(copy(1, "one"), copy(2, "two")), clock=clock)
    output.failing = KeyError("board")
    await runner.step()
    assert runner.status().error == "round 2: internal error: KeyError('board')"
    output.failing = None
    clock.now += 1
    await runner.step()
    assert output.delivered == [(1, "one"), (2, "two")]


async def test_a_round_that_keeps_failing_holds_up_no_other_round():
    """A mistyped broadcast round: round 1 fails every time; round 2 changes on every pass
    and goes every time, while round 1 waits longer and longer."""

    class OneBad(Recorder):
        async def deliver(self, copy: RoundCopy) -> str:
            if copy.number == 1:
                raise OutputError("lichess has no broadcast round AbCd1234 (404)")
            return await super().deliver(copy)

    output, clock = OneBad(), Clock()
    rounds = Rounds(copy(1, "one"), copy(2, "two, move 0"))
    runner = OutputRunner(output, rounds, clock=clock)
    tries_of_round_1 = []
    for move in range(1, 40):
        await runner.step()
        tries_of_round_1.append(runner.status().failures)
        rounds.copies[1] = copy(2, f"two, move {move}")
        clock.now += 1
    assert [pgn for _, pgn in output.delivered] == [f"two, move {n}" for n in range(39)]
    # Round 1 was tried at 0, 1, 3, 7, 15 and 31 s: its wait grew although round 2 worked.
    assert tries_of_round_1[-1] == 6
    status = runner.status()
    assert status.state == "retrying"
    assert status.error == "round 1: lichess has no broadcast round AbCd1234 (404)"
    assert status.line == "round 2: took 12 characters"  # "two, move 38"


async def test_rounds_that_cannot_be_read_are_tried_again_on_the_next_pass():
    output = Recorder()
    calls = 0

    async def flaky() -> list[RoundCopy]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("database is locked")
        return [copy(1, "one")]

    runner = OutputRunner(output, flaky, clock=Clock())
    await runner.step()
    assert output.delivered == []
    assert runner.status().failures == 0
    await runner.step()
    assert output.delivered == [(1, "one")]
