"""Websocket frames as the server writes them (RFC 6455 section 5.2), and what the fan-out
writes them to.

A server frame is just bytes (server frames are not masked), so the fan-out frames each
message once and writes the same bytes to every client. Under uvicorn the stream paths are
served by :mod:`relay.edge.protocol`, whose connections are :class:`FrameWriter`s;
elsewhere (a test client, another ASGI server) members keep a backlog that
:mod:`relay.edge.asgi` sends. Frames from clients are read by :mod:`relay.edge.frame_reader`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Protocol

#: Seconds a closed connection may take to flush before it is aborted.
CLOSE_GRACE = 5.0

OP_CONTINUATION = 0x0
OP_TEXT = 0x1
OP_BINARY = 0x2
OP_CLOSE = 0x8
OP_PING = 0x9
OP_PONG = 0xA


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
    return frame(OP_TEXT, text.encode())


def close_frame(code: int, reason: str) -> bytes:
    return frame(OP_CLOSE, struct.pack("!H", code) + reason.encode()[:120])


#: ``push(frames, limit)``: write ``frames`` unless more than ``limit`` bytes already wait to
#: be sent; False (nothing written) when they do.
HotPath = Callable[[bytes, int], bool]


class FrameWriter(Protocol):
    """Where a member's frames go."""

    def buffered(self) -> int: ...
    def write(self, data: bytes) -> bool: ...
    def close(self, code: int, reason: str) -> None: ...

    def hot_path(self) -> HotPath:
        """The bare write function, for the fan-out's inner loop."""
        ...

    def socket_fd(self) -> int | None:
        """The socket the room may write to with ``os.write`` itself, while nothing waits in
        this writer's buffer; None when it may not (TLS, nothing sent yet, or a buffer that
        holds bytes). A writer that offers one calls its member's ``spilled`` when bytes
        start to wait and ``drained`` when none are left."""
        ...
