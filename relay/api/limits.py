"""How much each client may ask of the hub: requests, failed authentications, streams.

Every request is weighed before a route sees it, so neither reading nor guessing tokens
can go at full speed:

* a request without a token takes one from its client address's budget for reads
  (``rate`` a second, in bursts of ``burst``);
* a request with a token: while the client address's budget of failed authentications is
  spent, it is refused at once (429), its token unchecked. Otherwise a token seen before
  is known by its digest; a new one is looked up once. A valid staff token's request
  (an operator's, an arbiter's, an admin's: ``Identity.staff``) takes one from its user's
  budget, far larger (``staff_rate``, ``staff_burst``). A valid token that is not staff's
  reads like the public: a club key's request is a read of its address (a club's admin
  may make any number of keys), a device token's takes one from a budget of its own as
  large as an address's (``rate``, ``burst``: a tablet beside a board is not starved by
  the spectators on the venue's address). A token that is not valid counts against the
  address's failed authentications (``failures`` in any ``failure_window`` seconds, far
  fewer than reads), the spending of which is logged, and its request is a read of the
  address;
* a client address may hold ``streams`` websocket streams open at once.

The windows are counted with the ``limits`` library, in this process's memory (several
processes behind a proxy each count their own).
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

from relay.config import Settings
from relay.store.access import digest

log = logging.getLogger("relay.api")


@dataclass(frozen=True, slots=True)
class Reader:
    """A valid token that is not staff's (``Identity.staff``): its requests are reads,
    of its address (``own`` None: a club key) or of a budget of the public's size of its
    own (``own``: a device token's user)."""

    own: str | None = None


#: What a token's look-up gives: its staff user's name (the user's budget), a
#: :class:`Reader`, or None for a token that is not valid.
Known = str | Reader | None

#: Users remembered by their tokens' digests, and clients by their last logged burst.
REMEMBERED = 10_000


@dataclass(frozen=True, slots=True)
class LimitSettings:
    """The limits; ``rate`` 0 turns them all off (tests, benchmarks)."""

    rate: float = 20.0
    burst: float = 60.0
    staff_rate: float = 200.0
    staff_burst: float = 600.0
    failures: int = 10
    failure_window: float = 60.0
    streams: int = 50

    @classmethod
    def of(cls, settings: Settings) -> LimitSettings:
        return cls(
            rate=settings.rate_limit,
            burst=settings.rate_burst,
            staff_rate=settings.staff_rate_limit,
            staff_burst=settings.staff_rate_limit * settings.rate_burst / settings.rate_limit
            if settings.rate_limit > 0
            else 0.0,
            failures=settings.auth_failures,
            failure_window=settings.auth_failure_window,
            streams=settings.streams_per_client,
        )


def _window(amount: float, rate: float) -> RateLimitItem:
    """``amount`` requests in any window of ``amount / rate`` seconds (at least one)."""
    return RateLimitItemPerSecond(max(1, round(amount)), max(1, round(amount / rate)))


class Limits:
    """The budgets of every client of this process."""

    def __init__(self, settings: LimitSettings) -> None:
        self.settings = settings
        self.enabled = settings.rate > 0
        storage = MemoryStorage()
        self._windows = SlidingWindowCounterRateLimiter(storage)
        self._exact = MovingWindowRateLimiter(storage)
        if self.enabled:
            self._read = _window(settings.burst, settings.rate)
            self._staff = _window(settings.staff_burst, settings.staff_rate)
            self._failures = RateLimitItemPerSecond(
                settings.failures, max(1, round(settings.failure_window))
            )
        self._users: OrderedDict[str, str | Reader] = OrderedDict()
        self._logged: OrderedDict[str, float] = OrderedDict()
        self._streams: dict[str, int] = {}

    # Requests

    async def admit(
        self, client: str, token: str | None, identify: Callable[[str], Awaitable[Known]]
    ) -> tuple[float, Known]:
        """Take a request from its budget: the seconds to wait (0 to go on), and what its
        token is when the token is valid (a staff user's name or a :class:`Reader`).
        ``identify`` looks a new token up."""
        if not self.enabled:
            return 0.0, None
        user = None
        if token:
            if not self._exact.test(self._failures, "auth", client):
                return self._wait(self._exact, self._failures, "auth", client), None
            key = digest(token)
            user = self._users.get(key)
            if user is None:
                user = await identify(token)
                if user is None:
                    self.failed(client)
                else:
                    self._remember(key, user)
            if isinstance(user, str):
                return self._take(self._staff, "user", user), user
            if user is not None and user.own is not None:
                return self._take(self._read, "device", user.own), user
        return self._take(self._read, "client", client), user

    def _remember(self, key: str, user: str | Reader) -> None:
        self._users[key] = user
        if len(self._users) > REMEMBERED:
            self._users.popitem(last=False)

    def revoked(self, client: str, token: str) -> None:
        """A token taken for valid was refused after all (revoked since it was seen)."""
        if self.enabled and self._users.pop(digest(token), None) is not None:
            self.failed(client)

    def failed(self, client: str) -> None:
        """A token from ``client`` was refused."""
        if not self.enabled:
            return
        self._exact.hit(self._failures, "auth", client)
        if self._exact.test(self._failures, "auth", client):
            return
        now = time.monotonic()
        if now - self._logged.get(client, -math.inf) < self.settings.failure_window:
            return
        self._logged[client] = now
        self._logged.move_to_end(client)
        if len(self._logged) > REMEMBERED:
            self._logged.popitem(last=False)
        log.warning(
            "rate limit: %d failed authentications from %s within %g s; its requests with "
            "a token are refused (429) until the window moves on",
            self.settings.failures,
            client,
            self.settings.failure_window,
        )

    def _take(self, item: RateLimitItem, kind: str, key: str) -> float:
        if self._windows.hit(item, kind, key):
            return 0.0
        return self._wait(self._windows, item, kind, key)

    @staticmethod
    def _wait(
        limiter: MovingWindowRateLimiter | SlidingWindowCounterRateLimiter,
        item: RateLimitItem,
        kind: str,
        key: str,
    ) -> float:
        reset = limiter.get_window_stats(item, kind, key).reset_time
        return max(1.0, math.ceil(reset - time.time()))

    # Streams

    def open_stream(self, client: str) -> bool:
        """Count a stream of ``client``'s opening; False (nothing counted) at its limit."""
        if not self.enabled:
            return True
        held = self._streams.get(client, 0)
        if held >= self.settings.streams:
            return False
        self._streams[client] = held + 1
        return True

    def close_stream(self, client: str) -> None:
        if not self.enabled:
            return
        held = self._streams.get(client, 0) - 1
        if held > 0:
            self._streams[client] = held
        else:
            self._streams.pop(client, None)

    def streams_of(self, client: str) -> int:
        return self._streams.get(client, 0)
