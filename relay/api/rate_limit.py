"""Rate limits on every request, before any route looks at it (see :mod:`relay.api.limits`
for the budgets).

A request over its budget is answered 429 with ``Retry-After``; a websocket over it is
closed before it is accepted (HTTP 403 on most servers). The client is the connection's
address; behind a reverse proxy, run uvicorn with ``--forwarded-allow-ips``
(``relay serve --proxy``) so it is the address the trusted proxy names, and only that proxy.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from relay.api.deps import token_identity
from relay.api.limits import Known, Limits, Reader
from relay.edge.joining import CLOSE_UNAUTHORIZED
from relay.hub.hub import Hub


class RateLimit:
    """ASGI middleware applying ``limits`` to every HTTP request and websocket: a
    refusal (429) comes before any route, and so before any token is checked by one."""

    def __init__(self, app: ASGIApp, *, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.limits.enabled:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        token = token_of(scope)
        hub = scope["app"].state.hub
        wait, user = await self.limits.admit(client, token, lambda t: user_of(hub, t))
        if wait > 0:
            if scope["type"] == "http":
                await too_many(send, wait)
            else:
                await send({"type": "websocket.close", "code": 1013, "reason": "slow down"})
            return
        refused = False

        async def watched(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start":
                refused = message["status"] == 401
            elif message["type"] == "websocket.close":
                refused = message.get("code") == CLOSE_UNAUTHORIZED
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if refused and token and user is not None:
                self.limits.revoked(client, token)


async def user_of(hub: Hub, token: str) -> Known:
    """What a token is for its budget: a staff user's name, a :class:`Reader` for a club
    key (its address's reads) or a device token or correspondence player's key (reads of
    its own); None for a token that is not valid."""
    identity = await asyncio.to_thread(token_identity, hub, token)
    if identity is None:
        return None
    if identity.staff:
        return identity.user
    own = identity.game_id is not None or identity.player_id is not None
    return Reader(identity.user if own else None)


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def token_of(scope: Scope) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, or a stream's ``?token=``."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            text: str = value.decode("latin-1")
            scheme, _, credentials = text.partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
            return None
    if scope["type"] == "websocket" and b"token=" in scope.get("query_string", b""):
        query: bytes = scope["query_string"]
        found = parse_qs(query.decode("latin-1")).get("token")
        return found[-1] if found else None
    return None


async def too_many(send: Send, wait: float) -> None:
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
