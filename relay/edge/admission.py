"""Who a stream's client is, and the budgets it is held to.

The client is the connection's peer or, behind a trusted reverse proxy, the address the
proxy names, read by uvicorn's own proxy-headers middleware as for every other request. Its
budgets are the app's (:class:`Gate`, kept by ``relay.api.limits.Limits``): an opening is a
request of its client, a client holds at most so many streams at once, and a refused token
counts as a failed authentication.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


class StreamBudget(Protocol):
    @property
    def streams(self) -> int:
        """How many streams a client may hold open at once."""
        ...


class Gate(Protocol):
    """The budgets of every client of this process."""

    @property
    def settings(self) -> StreamBudget: ...

    async def admit(
        self, client: str, token: str | None, identify: Callable[[str], Awaitable[str | None]]
    ) -> tuple[float, str | None]:
        """Take a request from its budget: the seconds to wait (0 to go on) and the user of
        its token when the token is valid."""
        ...

    def revoked(self, client: str, token: str) -> None: ...
    def open_stream(self, client: str) -> bool: ...
    def close_stream(self, client: str) -> None: ...


def proxy_of(config: Config) -> ProxyHeadersMiddleware | None:
    """The reader of a trusted proxy's headers, when the server is told to trust one."""
    if not config.proxy_headers:
        return None
    return ProxyHeadersMiddleware(_client_only, config.forwarded_allow_ips)


async def _client_only(scope: Any, receive: Any, send: Any) -> None:
    """The app behind the proxy-headers middleware here: it only wants ``scope["client"]``."""


async def client_address(
    proxy: ProxyHeadersMiddleware | None, peer: Any, headers: tuple[tuple[bytes, bytes], ...]
) -> str:
    """The client's address: the connection's peer, or the one a trusted proxy names."""
    scope: dict[str, Any] = {"type": "websocket", "client": peer, "headers": list(headers)}
    if proxy is not None:
        await proxy(scope, _client_only, _client_only)  # type: ignore[arg-type]
    client = scope["client"]
    return str(client[0]) if client else "?"
