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

#: The longest wait between two tries of a failing output, in seconds.
MAX_BACKOFF_SECONDS = 60.0


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failures in a row: 1, 2, 4, ... then 60."""
    return min(MAX_BACKOFF_SECONDS, 2.0 ** max(0, failures - 1))


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


class OutputRunner:
    """Feeds one output with the rounds ``copies`` gives, every ``interval`` seconds.

    A round is delivered when its PGN differs from what the output last took for it;
    rounds go one after another in round order, so a slow output never sends two copies at
    once. After a failure the output is left alone for :func:`backoff` seconds (or as long
    as it asked, when it said), then the newest copy is tried again: a copy that went stale
    meanwhile is never sent.
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
        self._sent: dict[int, str] = {}
        self._pending = 0
        self._line: str | None = None
        self._last_ok_at: float | None = None
        self._error: str | None = None
        self._failures = 0
        self._next_try_at: float | None = None
        self._delivered = 0

    def status(self) -> OutputStatus:
        if self._failures:
            state = "retrying"
        else:
            state = "ok" if self._last_ok_at is not None else "waiting"
        return OutputStatus(
            kind=self.output.kind,
            target=self.output.target,
            state=state,
            line=self._line,
            last_ok_at=self._last_ok_at,
            error=self._error,
            failures=self._failures,
            next_try_at=self._next_try_at,
            delivered=self._delivered,
            pending=self._pending,
        )

    async def run(self) -> None:
        """Feed the output until cancelled."""
        while True:
            await self.step()
            await asyncio.sleep(self._interval)

    async def step(self) -> None:
        """One pass: deliver every changed round, unless the output is backing off."""
        if self._next_try_at is not None and self._clock() < self._next_try_at:
            return
        try:
            copies = [copy for copy in await self._copies() if self.output.wants(copy)]
        except Exception:  # the store is down: the next pass tries again
            log.exception("output %s: the rounds could not be read", self.output.target)
            return
        changed = [copy for copy in copies if self._sent.get(copy.round_id) != copy.pgn]
        self._pending = len(changed)
        for copy in changed:
            if not await self._deliver(copy):
                return
            self._pending -= 1

    async def _deliver(self, copy: RoundCopy) -> bool:
        try:
            line = await self.output.deliver(copy)
        except OutputError as failure:
            self._failed(str(failure), failure.retry_after)
            return False
        except Exception as error:  # a bug in an output must not stop the others
            log.exception("output %s failed", self.output.target)
            self._failed(f"internal error: {error!r}", None)
            return False
        self._sent[copy.round_id] = copy.pgn
        self._line = f"round {copy.number}: {line}"
        self._last_ok_at = self._clock()
        self._error, self._failures, self._next_try_at = None, 0, None
        self._delivered += 1
        return True

    def _failed(self, reason: str, retry_after: float | None) -> None:
        self._failures += 1
        self._error = reason
        wait = backoff(self._failures) if retry_after is None else max(retry_after, 0.0)
        self._next_try_at = self._clock() + wait
        log.warning("output %s: %s (next try in %.0f s)", self.output.target, reason, wait)
