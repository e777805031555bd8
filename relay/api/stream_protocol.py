"""The websocket protocol of the stream paths, under uvicorn.

uvicorn hands every websocket upgrade to the protocol class it is configured with
(:func:`relay.api.server.make_server`). For the stream paths this class answers the
handshake itself (RFC 6455 section 4.2), sends the client its history and then leaves it to
the room, which writes frames straight to the socket (or, while bytes wait, to the
transport). An idle spectator is this object, its transport and its
:class:`~relay.api.rooms.Member`: no task, queue or ASGI scope.
Every other websocket path goes on to uvicorn's own protocol unchanged.

Clients send nothing a stream needs: pings are answered, a close is returned, data frames
are read and ignored, and anything malformed or oversized closes the connection.

The limits of :mod:`relay.api.limits` apply here as to every other request, before the
token is checked: an opening is a request of its client (429 when over the budget, or
while the client's failed authentications are spent), a client holds at most so many
streams at once (429), and a refused token counts as a failed authentication. Behind a
trusted reverse proxy the client is the address the proxy names, read by uvicorn's own
proxy-headers middleware as for every other request.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import struct
from typing import Any

from fastapi import FastAPI
from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from relay.api.limits import Limits
from relay.api.rate_limit import user_of
from relay.api.rooms import Member
from relay.api.streams import (
    CLOSE_UNAUTHORIZED,
    StreamRefusedError,
    StreamTarget,
    join_stream,
    parse_stream_request,
)
from relay.api.transport import (
    CLOSE_GRACE,
    OP_BINARY,
    OP_CLOSE,
    OP_CONTINUATION,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    HotPath,
    close_frame,
    frame,
    text_frame,
)

_ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#: The largest frame a client may send: control frames carry at most 125 bytes.
MAX_CLIENT_FRAME = 4096
CLOSE_NORMAL = 1000
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_TOO_BIG = 1009
CLOSE_RESTART = 1012
_UNSENDABLE = frozenset({1004, 1005, 1006, 1015})
_REASONS = {400: b"Bad Request", 429: b"Too Many Requests"}


def accept_key(key: bytes) -> bytes:
    """The Sec-WebSocket-Accept answer to a client's Sec-WebSocket-Key."""
    return base64.b64encode(hashlib.sha1(key + _ACCEPT_GUID).digest())


def unmask(payload: bytes, mask: bytes) -> bytes:
    size = len(payload)
    if not size:
        return b""
    key = int.from_bytes((mask * (size // 4 + 1))[:size], "big")
    return (int.from_bytes(payload, "big") ^ key).to_bytes(size, "big")


def stream_protocols(app: FastAPI) -> Any:
    """The ``ws`` protocol factory for uvicorn's Config, serving ``app``'s streams."""
    proxies: dict[int, ProxyHeadersMiddleware | None] = {}

    def make(config: Config, server_state: ServerState, app_state: dict[str, Any]) -> Any:
        if id(config) not in proxies:
            proxies[id(config)] = (
                ProxyHeadersMiddleware(_client_only, config.forwarded_allow_ips)
                if config.proxy_headers
                else None
            )
        return StreamProtocol(app, config, server_state, app_state, proxies[id(config)])

    return make


async def _client_only(scope: Any, receive: Any, send: Any) -> None:
    """The app behind the proxy-headers middleware here: it only wants ``scope["client"]``."""


async def client_address(
    proxy: ProxyHeadersMiddleware | None, peer: Any, headers: list[tuple[bytes, bytes]]
) -> str:
    """The client's address: the connection's peer, or the one a trusted proxy names."""
    scope: dict[str, Any] = {"type": "websocket", "client": peer, "headers": headers}
    if proxy is not None:
        await proxy(scope, _client_only, _client_only)  # type: ignore[arg-type]
    client = scope["client"]
    return str(client[0]) if client else "?"


class StreamProtocol(asyncio.Protocol):
    """One websocket connection: a stream served here, or anything else handed on."""

    __slots__ = (
        "_answered",
        "_app",
        "_app_state",
        "_buffer",
        "_client",
        "_closing",
        "_config",
        "_fd",
        "_inner",
        "_member",
        "_opening",
        "_proxy",
        "_server_state",
        "_spilled",
        "_transport",
        "_user",
    )

    def __init__(
        self,
        app: FastAPI,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        proxy: ProxyHeadersMiddleware | None = None,
    ) -> None:
        self._app = app
        self._proxy = proxy
        #: The client address whose stream count this connection holds, once counted.
        self._client: str | None = None
        #: The handshake has been answered with 101.
        self._answered = False
        #: The user of the stream's token, when the limits found it valid.
        self._user: str | None = None
        self._config = config
        self._server_state = server_state
        self._app_state = app_state
        self._transport: asyncio.Transport | None = None
        self._inner: asyncio.Protocol | None = None
        #: None until the handshake has been read.
        self._buffer: bytearray | None = None
        self._opening: asyncio.Task[None] | None = None
        self._member: Member | None = None
        self._closing = False
        #: The plain TCP socket's descriptor, for the room's writes; None under TLS.
        self._fd: int | None = None
        #: Bytes wait in the transport's buffer.
        self._spilled = False

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)
        elif self._buffer is None:
            self._handshake(data)
        elif not self._closing:
            self._buffer += data
            if self._answered:
                self._read_frames()

    def eof_received(self) -> bool | None:
        if self._inner is not None:
            return self._inner.eof_received()
        return None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()
            return
        # With a high-water mark of 0 (see _handshake): bytes wait in the transport.
        self._spilled = True
        if self._member is not None:
            self._member.spilled()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()
            return
        self._spilled = False
        if self._member is not None:
            self._member.drained()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is not None:
            self._inner.connection_lost(exc)
            return
        self._closing = True
        self._server_state.connections.discard(self)
        if self._opening is not None:
            self._opening.cancel()
        if self._member is not None:
            self._member.room.leave(self._member)
            self._member = None
        if self._client is not None:
            self._limits.close_stream(self._client)
            self._client = None

    # uvicorn's server

    def shutdown(self) -> None:
        """The server stops: clients reconnect (to another process, or after the restart)."""
        self.close(CLOSE_RESTART, "the server is restarting; reconnect and resume")

    # FrameWriter, for the room

    def buffered(self) -> int:
        assert self._transport is not None
        return self._transport.get_write_buffer_size()

    def write(self, data: bytes) -> bool:
        if self._closing or self._transport is None:
            return False
        self._transport.write(data)
        return True

    def hot_path(self) -> HotPath:
        transport = self._transport
        assert transport is not None
        write = transport.write
        queued = transport.get_write_buffer_size

        def push(data: bytes, limit: int) -> bool:
            if queued() > limit:
                return False
            write(data)
            return True

        return push

    def socket_fd(self) -> int | None:
        if self._fd is None or self._spilled or self._closing:
            return None
        return self._fd

    def close(self, code: int, reason: str) -> None:
        """Send a close frame and close the connection. A client that reads nothing would
        keep it open until its buffer drained: after ``CLOSE_GRACE`` seconds it is cut off."""
        transport = self._transport
        if self._closing or transport is None:
            return
        self._closing = True
        if self._member is not None:
            # Out of the room at once: a closing transport is no place for more frames.
            self._member.room.leave(self._member)
            self._member = None
        transport.write(close_frame(code, reason))
        transport.close()
        asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)

    # The handshake

    def _handshake(self, data: bytes) -> None:
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, _, target = lines[0].partition(" ")
        target = target.rpartition(" ")[0]
        path, _, query = target.partition("?")
        try:
            stream = parse_stream_request(path, query)
        except ValueError as error:
            self._refuse(str(error))
            return
        if stream is None:
            self._hand_on(data)
            return
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        key = headers.get("sec-websocket-key", "")
        if (
            method != "GET"
            or headers.get("upgrade", "").lower() != "websocket"
            or headers.get("sec-websocket-version") != "13"
            or len(_decoded(key)) != 16
        ):
            self._refuse("not a websocket handshake (RFC 6455 version 13)")
            return
        self._buffer = bytearray(rest)
        self._server_state.connections.add(self)  # type: ignore[arg-type]
        target_, token = stream
        raw_headers = [
            (name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
            for name, _, value in (line.partition(":") for line in lines[1:])
        ]
        self._opening = asyncio.get_running_loop().create_task(
            self._open(target_, token, key, raw_headers)
        )
        self._server_state.tasks.add(self._opening)
        self._opening.add_done_callback(self._server_state.tasks.discard)

    @property
    def _limits(self) -> Limits:
        limits: Limits = self._app.state.limits
        return limits

    async def _admit(self, token: str | None, headers: list[tuple[bytes, bytes]]) -> bool:
        """Apply the client's limits; refuse the handshake (429) when it is over one."""
        assert self._transport is not None
        client = await client_address(
            self._proxy, self._transport.get_extra_info("peername"), headers
        )
        if self._closing:
            return False
        hub = self._app.state.hub
        wait, self._user = await self._limits.admit(client, token, lambda t: user_of(hub, t))
        if self._closing:
            return False
        if wait > 0:
            self._refuse("too many requests; slow down", 429, wait)
            return False
        if not self._limits.open_stream(client):
            self._refuse(
                f"too many streams open from {client} "
                f"(at most {self._limits.settings.streams}); close one first",
                429,
                1.0,
            )
            return False
        self._client = client
        return True

    def _accept(self, key: str) -> None:
        """Answer the handshake: from now on this is a websocket."""
        assert self._transport is not None
        self._transport.write(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Accept: "
            + accept_key(key.encode())
            + b"\r\n\r\n"
        )
        self._answered = True
        sock = self._transport.get_extra_info("socket")
        if sock is not None and self._transport.get_extra_info("sslcontext") is None:
            # Told of every byte that waits (pause_writing) and of the buffer emptying
            # (resume_writing), the room can write to the socket itself in between.
            self._transport.set_write_buffer_limits(high=0)
            self._fd = sock.fileno()
        if self._buffer:
            self._read_frames()

    def _hand_on(self, data: bytes) -> None:
        """Not a stream: uvicorn's own websocket protocol serves it through the app."""
        assert self._transport is not None
        inner = WebSocketsSansIOProtocol(self._config, self._server_state, self._app_state)
        self._inner = inner
        inner.connection_made(self._transport)
        inner.data_received(data)

    def _refuse(self, reason: str, status: int = 400, wait: float = 0.0) -> None:
        """Answer the handshake with an HTTP error, its reason as JSON ``detail``."""
        assert self._transport is not None
        body = json.dumps({"detail": reason}).encode()
        retry = b"retry-after: %d\r\n" % max(1, round(wait)) if wait > 0 else b""
        self._transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\n%s"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
            % (status, _REASONS[status], retry, len(body), body)
        )
        self._closing = True
        self._transport.close()

    async def _open(
        self, target: StreamTarget, token: str | None, key: str, headers: list[tuple[bytes, bytes]]
    ) -> None:
        if not await self._admit(token, headers):
            return
        self._accept(key)
        state = self._app.state
        try:
            member, history = await join_stream(state.hub, state.rooms, target, token, self)
        except StreamRefusedError as refused:
            if refused.code == CLOSE_UNAUTHORIZED and token and self._user is not None:
                self._limits.revoked(self._client or "?", token)
            self.close(refused.code, refused.reason)
            return
        if self._closing:
            member.room.leave(member)
            return
        self._member = member
        if history:
            self.write(b"".join(text_frame(text) for text in history))
        member.go_live()

    # Frames from the client

    def _read_frames(self) -> None:
        buffer = self._buffer
        assert buffer is not None
        while len(buffer) >= 2 and not self._closing:
            first, second = buffer[0], buffer[1]
            size, start = second & 0x7F, 2
            if size == 126:
                if len(buffer) < 4:
                    return
                size, start = struct.unpack_from("!H", buffer, 2)[0], 4
            elif size == 127:
                if len(buffer) < 10:
                    return
                size, start = struct.unpack_from("!Q", buffer, 2)[0], 10
            if not second & 0x80:
                self.close(CLOSE_PROTOCOL_ERROR, "client frames must be masked")
                return
            if size > MAX_CLIENT_FRAME:
                self.close(CLOSE_TOO_BIG, "streams take no messages")
                return
            end = start + 4 + size
            if len(buffer) < end:
                return
            payload = unmask(bytes(buffer[start + 4 : end]), bytes(buffer[start : start + 4]))
            del buffer[:end]
            self._on_frame(first & 0x0F, payload)

    def _on_frame(self, opcode: int, payload: bytes) -> None:
        if opcode == OP_PING:
            self.write(frame(OP_PONG, payload))
        elif opcode == OP_CLOSE:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else CLOSE_NORMAL
            # Echo the client's code, except those that must never be sent (section 7.4.1).
            if not 1000 <= code < 5000 or code in _UNSENDABLE:
                code = CLOSE_NORMAL
            self.close(code, "")
        elif opcode not in (OP_PONG, OP_TEXT, OP_BINARY, OP_CONTINUATION):
            self.close(CLOSE_PROTOCOL_ERROR, f"unknown opcode {opcode}")


def _decoded(key: str) -> bytes:
    try:
        return base64.b64decode(key, validate=True)
    except ValueError:
        return b""
