"""A lease held by this hub process (:mod:`relay.store.leases`): work that one process at
a time may do among all that share the store, such as the correspondence sweep.

The holder names this process (:func:`process_holder`: host, process id and a random part).
A lease lapses ``seconds`` after it was last taken or renewed, so the work of a process that
died is taken up by another after that long; the holder renews it as it goes. Its clock is
the system's, whatever the hub's ``now`` says, because it is shared with other processes.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import Callable

from sqlmodel import Session

from relay.hub.recorder import GameRecorder
from relay.store.leases import give_back_lease, take_lease

__all__ = ["Lease", "process_holder"]

#: A held lease lapses this long after it was last renewed (a third of it goes by before the
#: holder renews it).
LEASE_SECONDS = 120.0
#: How often a waiting taker tries again.
RETRY_SECONDS = 0.2


def process_holder() -> str:
    """A holder's name for this process, unlike any other process's."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Lease:
    """The lease ``name`` in the store, as this process takes, renews and gives it back."""

    def __init__(
        self,
        recorder: GameRecorder,
        name: str,
        *,
        holder: str | None = None,
        seconds: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._recorder = recorder
        self.name = name
        self.holder = holder or process_holder()
        self._seconds = seconds
        self._clock = clock
        #: When this process last took or renewed it, by the lease's clock.
        self._taken_at = -float("inf")

    async def take(self, wait: float = 0.0) -> bool:
        """Take the lease (or renew it), trying for up to ``wait`` seconds; whether this
        process holds it now."""
        deadline = time.monotonic() + wait
        while not await self._recorder.run(self._take):
            if time.monotonic() + RETRY_SECONDS > deadline:
                return False
            await asyncio.sleep(RETRY_SECONDS)
        self._taken_at = self._clock()
        return True

    async def renew(self) -> bool:
        """Keep the lease while working: taken again once a third of its time has gone
        (a write to the store), else nothing to do; whether this process still holds it."""
        if self._clock() - self._taken_at < self._seconds / 3:
            return True
        return await self.take()

    def _take(self, session: Session) -> bool:
        return take_lease(
            session, name=self.name, holder=self.holder, now=self._clock(), seconds=self._seconds
        )

    async def give_back(self) -> None:
        self._taken_at = -float("inf")
        await self._recorder.run(
            lambda session: give_back_lease(session, name=self.name, holder=self.holder)
        )
