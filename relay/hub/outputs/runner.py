"""One pushed output kept fed: copy each round it takes when the public's view of it
changed, retry with backoff when the output fails, and say how it stands for the console."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from relay.hub.outputs.round_copy import Output, OutputError, RoundCopy

log = logging.getLogger(__name__)

#: The longest wait between two tries of a failing round, in seconds.
MAX_BACKOFF_SECONDS = 60.0
#: The longest a platform may make the output wait (its Retry-After), in seconds.
MAX_PAUSE_SECONDS = 3600.0


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failures in a row: 1, 2, 4, ... then 60."""
    return min(MAX_BACKOFF_SECONDS, 2.0 ** min(max(0, failures - 1), 6))


@dataclass(frozen=True, slots=True)
class OutputStatus:
    """How one output stands, for the console's status line."""

    kind: str
    target: str
    #: ``waiting`` (nothing sent yet), ``ok`` or ``retrying``.
    state: str
    #: The output's own words about its last success (``pushed 6 games``).
    line: str | None
    #: Unix time of the last success.
    last_ok_at: float | None
    #: Why the last try failed, while it is failing.
    error: str | None
    #: Failures in a row (0 while it works).
    failures: int
    #: Unix time of the next try, while it is failing.
    next_try_at: float | None
    #: Copies delivered since the hub started.
    delivered: int
    #: Rounds whose newest copy has not been delivered yet.
    pending: int


@dataclass
class _Round:
    """One round as the output has it: what it last took, and while it fails, how often in
    a row, why and when to try again."""

    sent: str | None = None
    failures: int = 0
    error: str | None = None
    next_try_at: float | None = None


class OutputRunner:
    """Feeds one output with the rounds ``copies`` gives, every ``interval`` seconds.

    A round is delivered when its PGN differs from what the output last took for it, in
    round order, one at a time. A round that fails is left alone for :func:`backoff`
    seconds, counted for that round, while the others go on (a mistyped lichess round id
    holds up no other round); the next try sends the newest copy, never a stale one. When
    the platform says how long to wait (too many requests), the whole output waits, at
    most an hour.
    """

    def __init__(
        self,
        output: Output,
        copies: Callable[[], Awaitable[Sequence[RoundCopy]]],
        *,
        interval: float = 2.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.output = output
        self._copies = copies
        self._interval = interval
        self._clock = clock
        self._rounds: dict[int, _Round] = {}
        self._paused_until: float | None = None
        self._pending = 0
        self._line: str | None = None
        self._last_ok_at: float | None = None
        self._last_error: str | None = None
        self._delivered = 0

    def status(self) -> OutputStatus:
        failing = [state for state in self._rounds.values() if state.failures]
        waits = [state.next_try_at for state in failing if state.next_try_at is not None]
        if self._paused_until is not None:
            waits.append(self._paused_until)
        done = "ok" if self._last_ok_at is not None else "waiting"
        shown = "retrying" if failing else done
        return OutputStatus(
            kind=self.output.kind,
            target=self.output.target,
            state=shown,
            line=self._line,
            last_ok_at=self._last_ok_at,
            error=self._last_error if failing else None,
            failures=max((state.failures for state in failing), default=0),
            next_try_at=min(waits) if failing and waits else None,
            delivered=self._delivered,
            pending=self._pending,
        )

    async def run(self) -> None:
        """Feed the output until cancelled; nothing an output does ends the loop."""
        while True:
            try:
                await self.step()
            except Exception:
                log.exception("output %s: a pass failed", self.output.target)
            await asyncio.sleep(self._interval)

    async def step(self) -> None:
        """One pass: deliver every changed round that is not waiting after a failure."""
        now = self._clock()
        if self._paused_until is not None and now < self._paused_until:
            return
        self._paused_until = None
        try:
            copies = [copy for copy in await self._copies() if self.output.wants(copy)]
        except Exception:  # the store is down: the next pass tries again
            log.exception("output %s: the rounds could not be read", self.output.target)
            return
        changed = [
            copy
            for copy in copies
            if self._rounds.setdefault(copy.round_id, _Round()).sent != copy.pgn
        ]
        self._pending = len(changed)
        for copy in changed:
            state = self._rounds[copy.round_id]
            if state.next_try_at is not None and now < state.next_try_at:
                continue
            if await self._deliver(copy, state):
                self._pending -= 1
            elif self._paused_until is not None:
                return

    async def _deliver(self, copy: RoundCopy, state: _Round) -> bool:
        try:
            line = await self.output.deliver(copy)
        except OutputError as failure:
            self._failed(copy, state, str(failure), failure.retry_after)
            return False
        except Exception as error:  # a bug in an output must not stop the others
            log.exception("output %s failed", self.output.target)
            self._failed(copy, state, f"internal error: {error!r}", None)
            return False
        state.sent = copy.pgn
        state.failures, state.error, state.next_try_at = 0, None, None
        self._line = f"round {copy.number}: {line}"
        self._last_ok_at = self._clock()
        self._delivered += 1
        return True

    def _failed(
        self, copy: RoundCopy, state: _Round, reason: str, retry_after: float | None
    ) -> None:
        now = self._clock()
        state.failures += 1
        state.error = reason
        self._last_error = f"round {copy.number}: {reason}"
        if retry_after is None:
            wait = backoff(state.failures)
        else:
            wait = min(max(retry_after, 0.0), MAX_PAUSE_SECONDS)
            self._paused_until = now + wait
        state.next_try_at = now + wait
        log.warning("output %s: %s (next try in %.0f s)", self.output.target, reason, wait)
