"""Serving a board, or a bus chain of boards, on a TCP port: ``socket://127.0.0.1:PORT``.

pyserial's ``serial_for_url("socket://127.0.0.1:PORT")`` talks to it as it would to a
serial-to-network adapter. One client at a time: a new connection replaces the old one, as
such adapters do. While no client is connected the boards' output is lost.

:meth:`TcpLink.vanish` closes the listener and drops the client (the host sees its
connection end and reconnects fail); :meth:`TcpLink.reappear` listens on the same port again.
"""

from __future__ import annotations

import asyncio

from boardsim.endpoint import Endpoint
from boardsim.link import ServedLine


class _Connection(asyncio.Protocol):
    def __init__(self, link: TcpLink) -> None:
        self._link = link
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._link._connected(self)

    def data_received(self, data: bytes) -> None:
        if self._link._client is self:
            self._link._driver.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._link._lost(self)


class TcpLink(ServedLine):
    """One serial line served on one TCP port. Create it with :meth:`open`."""

    def __init__(self, endpoint: Endpoint, *, host: str, byte_seconds: float | None = None) -> None:
        super().__init__(endpoint, byte_seconds=byte_seconds)
        self.host = host
        self.port = 0
        self._server: asyncio.Server | None = None
        self._client: _Connection | None = None
        self._closed = False

    @classmethod
    async def open(
        cls,
        endpoint: Endpoint,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        byte_seconds: float | None = None,
    ) -> TcpLink:
        """Listen on ``host:port`` (0 picks a free port) for a host to connect."""
        link = cls(endpoint, host=host, byte_seconds=byte_seconds)
        link.port = port
        await link._listen()
        return link

    # -- what hosts and players see ---------------------------------------------------------

    @property
    def url(self) -> str:
        return f"socket://{self.host}:{self.port}"

    @property
    def address(self) -> str:
        return self.url

    @property
    def present(self) -> bool:
        return self._server is not None

    @property
    def client_connected(self) -> bool:
        return self._client is not None

    # -- the cable --------------------------------------------------------------------------

    def vanish(self) -> None:
        """Stop listening and drop the client until :meth:`reappear`."""
        if self._server is not None:
            self._server.close()
            self._server = None
        self._drop_client()

    async def reappear(self) -> str:
        """Listen on the same port again."""
        if self._closed:
            raise RuntimeError("the link is closed")
        if self._server is None:
            await self._listen()
        return self.url

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.vanish()
        self._driver.close()

    async def aclose(self) -> None:
        """Close, and wait until the listening socket is gone."""
        server = self._server
        self.close()
        if server is not None:
            await server.wait_closed()

    # -- internals --------------------------------------------------------------------------

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Connection(self), self.host, self.port, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]

    def _connected(self, connection: _Connection) -> None:
        if self._server is None or self._closed:
            assert connection.transport is not None
            connection.transport.abort()
            return
        self._drop_client()
        self._client = connection
        self._driver.attach(self._write)

    def _lost(self, connection: _Connection) -> None:
        if self._client is connection:
            self._client = None
            self._driver.detach()

    def _drop_client(self) -> None:
        client, self._client = self._client, None
        self._driver.detach()
        if client is not None and client.transport is not None:
            client.transport.abort()

    def _write(self, data: bytes) -> None:
        if self._client is not None and self._client.transport is not None:
            self._client.transport.write(data)
