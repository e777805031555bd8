"""Frames from a client (RFC 6455 section 5.2), read sans I/O.

:class:`FrameReader` takes the bytes a client sends in whatever pieces they arrive and gives
the frames they complete: the same frames for any split of the same bytes. Input a stream
cannot accept ends the reading with a :class:`BadFrame`, the close code and reason to answer
with; the frames before it come first, nothing after it.

A stream needs nothing from its clients, so the reader is strict and small: every client
frame is masked and at most ``max_size`` bytes long, no extension was agreed (the RSV bits
are 0), and a control frame is whole and at most 125 bytes (section 5.5).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from relay.edge.frames import OP_BINARY, OP_CLOSE, OP_CONTINUATION, OP_PING, OP_PONG, OP_TEXT

#: The largest frame a client may send: control frames carry at most 125 bytes.
MAX_CLIENT_FRAME = 4096
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_TOO_BIG = 1009

_OPCODES = frozenset({OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG})
_FIN, _RSV, _OPCODE, _MASKED, _SIZE = 0x80, 0x70, 0x0F, 0x80, 0x7F


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame from the client: its opcode, its payload unmasked, and whether it is the
    last frame of its message."""

    opcode: int
    payload: bytes
    fin: bool = True


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Input that ends the connection: the close code to send (1002, 1009) and why."""

    code: int
    reason: str


def unmask(payload: bytes, mask: bytes) -> bytes:
    """``payload`` XORed with the repeating 4-byte ``mask`` (section 5.3), both ways."""
    size = len(payload)
    if not size:
        return b""
    key = int.from_bytes((mask * (size // 4 + 1))[:size], "big")
    return (int.from_bytes(payload, "big") ^ key).to_bytes(size, "big")


class FrameReader:
    """The frames of one client connection, from its bytes."""

    __slots__ = ("_buffer", "_failed", "_max_size")

    def __init__(self, max_size: int = MAX_CLIENT_FRAME) -> None:
        self._max_size = max_size
        self._buffer = bytearray()
        self._failed = False

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        """The frames ``data`` completes, in order; a :class:`BadFrame` last when the input
        is bad, after which nothing more is read."""
        if self._failed:
            return []
        self._buffer += data
        found: list[Frame | BadFrame] = []
        at = 0
        while (parsed := self._frame_at(at)) is not None:
            item, at = parsed
            found.append(item)
            if isinstance(item, BadFrame):
                self._failed = True
                self._buffer.clear()
                return found
        del self._buffer[:at]
        return found

    def _frame_at(self, at: int) -> tuple[Frame | BadFrame, int] | None:
        """The frame that starts at ``at`` and where it ends; None until it is all here."""
        buffer = self._buffer
        if len(buffer) < at + 2:
            return None
        first, second = buffer[at], buffer[at + 1]
        if not second & _MASKED:
            return BadFrame(CLOSE_PROTOCOL_ERROR, "client frames must be masked"), at
        if first & _RSV:
            return BadFrame(CLOSE_PROTOCOL_ERROR, "no extension was agreed: RSV bits set"), at
        size, start = second & _SIZE, at + 2
        if size == 126:
            if len(buffer) < at + 4:
                return None
            size, start = struct.unpack_from("!H", buffer, at + 2)[0], at + 4
        elif size == 127:
            if len(buffer) < at + 10:
                return None
            size, start = struct.unpack_from("!Q", buffer, at + 2)[0], at + 10
        if size > self._max_size:
            return BadFrame(CLOSE_TOO_BIG, "streams take no messages"), at
        opcode, fin = first & _OPCODE, bool(first & _FIN)
        if opcode not in _OPCODES:
            return BadFrame(CLOSE_PROTOCOL_ERROR, f"unknown opcode {opcode}"), at
        if opcode & 0x8 and (size > 125 or not fin):
            return BadFrame(
                CLOSE_PROTOCOL_ERROR, "a control frame is whole and at most 125 bytes"
            ), at
        end = start + 4 + size
        if len(buffer) < end:
            return None
        payload = unmask(bytes(buffer[start + 4 : end]), bytes(buffer[start : start + 4]))
        return Frame(opcode, payload, fin), end
