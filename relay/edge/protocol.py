"""The websocket protocol of the stream paths, under uvicorn.

uvicorn hands every websocket upgrade to the protocol class it is configured with
(:func:`relay.api.server.make_server`). This class moves bytes and keeps time; the reading
is sans I/O: a :class:`~relay.edge.handshake.HandshakeReader` takes the opening handshake
in whatever pieces it arrives, a :class:`~relay.edge.frame_reader.FrameReader` the frames
after it. For a stream path (the mount says which, :data:`StreamPaths`) it answers the
handshake itself (RFC 6455 section 4.2), sends the client its history and then leaves it to
the room, which writes frames straight to the socket (or, while bytes wait, to the
transport). An idle spectator is this object, its transport and its
:class:`~relay.edge.rooms.Member`: no task, queue or ASGI scope. Every other websocket
path goes on to uvicorn's own protocol unchanged.

Clients send nothing a stream needs: pings are answered, a close is returned, data frames
are read and ignored, and anything malformed or oversized closes the connection.

The client's budgets (:mod:`relay.edge.admission`, the app's ``limits``) apply here as to
every other request, before the token is checked: an opening is a request of its client
(429 when over the budget, or while the client's failed authentications are spent), a
client holds at most so many streams at once (429), and a refused token counts as a failed
authentication.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from relay.edge.admission import Gate, client_address, proxy_of
from relay.edge.frame_reader import BadFrame, Frame, FrameReader
from relay.edge.frames import (
    CLOSE_GRACE,
    OP_CLOSE,
    OP_PING,
    OP_PONG,
    HotPath,
    close_frame,
    frame,
    text_frame,
)
from relay.edge.handshake import (
    Handshake,
    HandshakeError,
    HandshakeReader,
    refusal,
    switching_protocols,
)
from relay.edge.joining import (
    CLOSE_UNAUTHORIZED,
    StreamRefusedError,
    StreamTarget,
    join_stream,
    token_identity,
)
from relay.edge.rooms import Member

CLOSE_NORMAL = 1000
CLOSE_RESTART = 1012
_UNSENDABLE = frozenset({1004, 1005, 1006, 1015})

#: ``paths(path, query)``: the target and token of a stream URL, None for any other path;
#: ValueError (answered 400) for a stream path with a malformed query.
StreamPaths = Callable[[str, str], tuple[StreamTarget, str | None] | None]


def stream_protocols(app: Starlette, paths: StreamPaths) -> Any:
    """The ``ws`` protocol factory for uvicorn's Config, serving ``app``'s streams at
    ``paths`` with the ``hub``, ``rooms`` and ``limits`` its lifespan puts in its state."""
    proxies: dict[int, ProxyHeadersMiddleware | None] = {}

    def make(config: Config, server_state: ServerState, app_state: dict[str, Any]) -> Any:
        if id(config) not in proxies:
            proxies[id(config)] = proxy_of(config)
        return StreamProtocol(app, paths, config, server_state, app_state, proxies[id(config)])

    return make


class StreamProtocol(asyncio.Protocol):
    """One websocket connection: a stream served here, or anything else handed on.

    Its bytes go, in turn, to the handshake reader; while the client is admitted, to
    ``_early``; once answered with 101, to the frame reader."""

    __slots__ = (
        "_app",
        "_app_state",
        "_client",
        "_closing",
        "_config",
        "_early",
        "_fd",
        "_frames",
        "_handshake",
        "_inner",
        "_member",
        "_opening",
        "_paths",
        "_proxy",
        "_server_state",
        "_spilled",
        "_transport",
        "_user",
    )

    def __init__(
        self,
        app: Starlette,
        paths: StreamPaths,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        proxy: ProxyHeadersMiddleware | None = None,
    ) -> None:
        self._app = app
        self._paths = paths
        self._proxy = proxy
        #: The client address whose stream count this connection holds, once counted.
        self._client: str | None = None
        #: The user of the stream's token, when the limits found it valid.
        self._user: str | None = None
        self._config = config
        self._server_state = server_state
        self._app_state = app_state
        self._transport: asyncio.Transport | None = None
        self._inner: asyncio.Protocol | None = None
        #: Reads the handshake; None once it has been read.
        self._handshake: HandshakeReader | None = HandshakeReader()
        #: What the client sent after its handshake, until it is answered.
        self._early = b""
        #: Reads the client's frames; None until the handshake is answered with 101.
        self._frames: FrameReader | None = None
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
        elif self._closing:
            return
        elif self._handshake is not None:
            self._read_handshake(self._handshake, data)
        elif self._frames is None:
            self._early += data
        else:
            self._read_frames(self._frames, data)

    def eof_received(self) -> bool | None:
        if self._inner is not None:
            return self._inner.eof_received()
        return None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()
            return
        # With a high-water mark of 0 (see _accept): bytes wait in the transport.
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

    def _read_handshake(self, reader: HandshakeReader, data: bytes) -> None:
        try:
            handshake = reader.feed(data)
        except HandshakeError as error:
            self._refuse(error.reason, error.status)
            return
        if handshake is None:
            return
        self._handshake = None
        try:
            stream = self._paths(handshake.path, handshake.query)
        except ValueError as error:
            self._refuse(str(error))
            return
        if stream is None:
            self._hand_on(handshake.head + handshake.rest)
            return
        try:
            key = handshake.websocket_key()
        except HandshakeError as error:
            self._refuse(error.reason, error.status)
            return
        self._early = handshake.rest
        self._server_state.connections.add(self)  # type: ignore[arg-type]
        target, token = stream
        self._opening = asyncio.get_running_loop().create_task(
            self._open(target, token, key, handshake)
        )
        self._server_state.tasks.add(self._opening)
        self._opening.add_done_callback(self._server_state.tasks.discard)

    @property
    def _limits(self) -> Gate:
        limits: Gate = self._app.state.limits
        return limits

    async def _admit(self, token: str | None, handshake: Handshake) -> bool:
        """Apply the client's limits; refuse the handshake (429) when it is over one."""
        assert self._transport is not None
        client = await client_address(
            self._proxy, self._transport.get_extra_info("peername"), handshake.headers
        )
        if self._closing:
            return False
        hub = self._app.state.hub

        async def user_of(token: str) -> str | None:
            identity = await token_identity(hub, token)
            return None if identity is None else identity.user

        wait, self._user = await self._limits.admit(client, token, user_of)
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
        self._transport.write(switching_protocols(key))
        sock = self._transport.get_extra_info("socket")
        if sock is not None and self._transport.get_extra_info("sslcontext") is None:
            # Told of every byte that waits (pause_writing) and of the buffer emptying
            # (resume_writing), the room can write to the socket itself in between.
            self._transport.set_write_buffer_limits(high=0)
            self._fd = sock.fileno()
        self._frames = FrameReader()
        early, self._early = self._early, b""
        if early:
            self._read_frames(self._frames, early)

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
        self._transport.write(refusal(status, reason, wait))
        self._closing = True
        self._transport.close()

    async def _open(
        self, target: StreamTarget, token: str | None, key: str, handshake: Handshake
    ) -> None:
        if not await self._admit(token, handshake):
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

    def _read_frames(self, reader: FrameReader, data: bytes) -> None:
        for item in reader.feed(data):
            if self._closing:
                return
            if isinstance(item, BadFrame):
                self.close(item.code, item.reason)
            else:
                self._on_frame(item)

    def _on_frame(self, item: Frame) -> None:
        if item.opcode == OP_PING:
            self.write(frame(OP_PONG, item.payload))
        elif item.opcode == OP_CLOSE:
            payload = item.payload
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else CLOSE_NORMAL
            # Echo the client's code, except those that must never be sent (section 7.4.1).
            if not 1000 <= code < 5000 or code in _UNSENDABLE:
                code = CLOSE_NORMAL
            self.close(code, "")
        # Data frames and pongs: read and ignored.
