"""Writing websocket frames straight to a connection's transport.

Sending through ASGI costs an ``await`` and a trip through the server's protocol object per
message and per client; for thousands of spectators that is most of the work. A server
frame is just bytes (RFC 6455 section 5.2; server frames are not masked), so the fan-out
frames each message once and writes the same bytes to every client's transport.

This needs the transport, which ASGI does not expose. :class:`CaptureSend` (outermost
middleware) keeps the server's own ``send`` in the scope; with uvicorn's sans-I/O websocket
protocol (the one :mod:`relay.api.server` configures) that is a method of the connection's
protocol, which holds the transport. With any other server :meth:`DirectWriter.of` returns
None and the fan-out sends through ASGI instead.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any, Protocol

from starlette.types import ASGIApp, Receive, Scope, Send

SEND_KEY = "relay.send"
#: Seconds a closed connection may take to flush before it is aborted.
CLOSE_GRACE = 5.0


def frame(opcode: int, payload: bytes) -> bytes:
    """One unfragmented, unmasked frame."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 127, size)
    return header + payload


def text_frame(text: str) -> bytes:
    return frame(0x1, text.encode())


def close_frame(code: int, reason: str) -> bytes:
    return frame(0x8, struct.pack("!H", code) + reason.encode()[:120])


HotPath = tuple[Callable[[bytes], object], Callable[[], int]]


class FrameWriter(Protocol):
    """Where a member's frames go."""

    def buffered(self) -> int: ...
    def write(self, data: bytes) -> bool: ...
    def close(self, code: int, reason: str) -> None: ...

    def hot_path(self) -> HotPath:
        """The bare write and buffer-size functions, for the fan-out's inner loop."""
        ...


class DirectWriter:
    """Writes frames to one uvicorn websocket connection's transport."""

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._transport = protocol.transport

    @classmethod
    def of(cls, scope: Scope) -> DirectWriter | None:
        send = scope.get(SEND_KEY)
        protocol = getattr(send, "__self__", None)
        transport = getattr(protocol, "transport", None)
        if (
            transport is None
            or not hasattr(protocol, "close_sent")
            or not hasattr(transport, "get_write_buffer_size")
        ):
            return None
        return cls(protocol)

    @property
    def open(self) -> bool:
        return not self._protocol.close_sent and not self._transport.is_closing()

    def buffered(self) -> int:
        size: int = self._transport.get_write_buffer_size()
        return size

    def hot_path(self) -> HotPath:
        # A transport closed under us ignores writes until the handler sees the disconnect.
        return self._transport.write, self._transport.get_write_buffer_size

    def write(self, data: bytes) -> bool:
        """Write ``data``; False when the connection is closing (nothing written)."""
        if not self.open:
            return False
        self._transport.write(data)
        return True

    def close(self, code: int, reason: str) -> None:
        """Send a close frame and close the connection; the server then reports the
        disconnection to the connection's handler as usual. A client that reads nothing
        would keep the connection open until its buffer drained: after ``CLOSE_GRACE``
        seconds it is cut off."""
        if self.open:
            self._transport.write(close_frame(code, reason))
            self._protocol.close_sent = True
            self._transport.close()
            asyncio.get_running_loop().call_later(CLOSE_GRACE, self._transport.abort)


class CaptureSend:
    """ASGI middleware: keeps the server's ``send`` of each websocket in its scope."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)
