"""Rate limits on public endpoints: a token bucket per client address.

Requests with a Bearer token (operators, arbiters, admins) are not limited; neither are
websocket upgrades, which are long-lived. Behind a reverse proxy, run uvicorn with
``--forwarded-allow-ips`` (``relay serve --proxy``) so the client address is the real one.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from starlette.types import ASGIApp, Receive, Scope, Send

#: Buckets kept; the least recently seen clients are forgotten first.
MAX_CLIENTS = 100_000


class RateLimit:
    """ASGI middleware: ``rate`` requests per second per client, bursts up to ``burst``."""

    def __init__(self, app: ASGIApp, *, rate: float, burst: float) -> None:
        self.app = app
        self.rate = rate
        self.burst = burst
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.rate <= 0 or _has_token(scope):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else "?"
        wait = self._take(key, time.monotonic())
        if wait > 0:
            await _too_many(send, wait)
            return
        await self.app(scope, receive, send)

    def _take(self, key: str, now: float) -> float:
        """Take a token from the client's bucket; returns seconds to wait when empty."""
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return 0.0


def _has_token(scope: Scope) -> bool:
    return any(
        name == b"authorization" and value[:7].lower() == b"bearer "
        for name, value in scope.get("headers", ())
    )


async def _too_many(send: Send, wait: float) -> None:
    body = b'{"detail":"too many requests; slow down"}'
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(max(1, round(wait))).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
