"""Splitting the board-to-host byte stream into messages.

A DGT message starts with its id, the only byte with bit 7 set; bytes 1 and 2 carry the total
length (header included) as two 7-bit halves. Everything after the header has bit 7 clear.
That gives two rules for staying in step with a noisy line:

* a byte with bit 7 set inside a message means the message was cut short: drop what was
  collected and start again at that byte;
* a header with an impossible length, or bytes that are not a message start, are dropped
  until the next byte with bit 7 set.

The decoder never raises on input: what it drops is reported as :class:`Discarded`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADER_LENGTH = 3

#: Longest message a board sends: an EE_MOVES dump of the whole ~8 KB log plus its header.
MAX_MESSAGE_LENGTH = 8 * 1024 + HEADER_LENGTH


@dataclass(frozen=True, slots=True)
class Frame:
    """One complete message: its id and the data after the 3-byte header."""

    message_id: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class Discarded:
    """Bytes that could not be part of a message, and why."""

    data: bytes
    reason: str


def encode_frame(message_id: int, payload: bytes) -> bytes:
    """The wire form of a message; used by tests and by simulators of the board side."""
    if not message_id & 0x80:
        raise ValueError(f"message id {message_id:#04x} lacks bit 7")
    if any(b & 0x80 for b in payload):
        raise ValueError("payload bytes must have bit 7 clear")
    length = len(payload) + HEADER_LENGTH
    if length > MAX_MESSAGE_LENGTH:
        raise ValueError(f"message of {length} bytes exceeds {MAX_MESSAGE_LENGTH}")
    return bytes((message_id, (length >> 7) & 0x7F, length & 0x7F)) + payload


class FrameDecoder:
    """Incremental decoder: feed bytes as they arrive, get frames and discards back."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        # Bytes 1.._scanned of the buffer are known to have bit 7 clear, so a long message
        # arriving in small pieces is scanned once, not once per piece.
        self._scanned = 1

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a message."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Frame | Discarded]:
        self._buffer += data
        out: list[Frame | Discarded] = []
        while self._buffer:
            item = self._next()
            if item is None:
                break
            out.append(item)
        return out

    def _next(self) -> Frame | Discarded | None:
        buf = self._buffer
        if not buf[0] & 0x80:
            return self._drop(_next_start(buf, 1), "no message start")
        # Inside the header or the body, a byte with bit 7 set starts a new message.
        cut = _next_start(buf, self._scanned)
        self._scanned = cut
        if len(buf) < HEADER_LENGTH:
            return None if cut == len(buf) else self._drop(cut, "truncated header")
        length = (buf[1] << 7) | buf[2]
        if cut < HEADER_LENGTH:
            return self._drop(cut, "truncated header")
        if length < HEADER_LENGTH or length > MAX_MESSAGE_LENGTH:
            return self._drop(cut, f"impossible length {length}")
        if cut < min(length, len(buf)):
            return self._drop(cut, "truncated message")
        if len(buf) < length:
            return None
        frame = Frame(buf[0], bytes(buf[HEADER_LENGTH:length]))
        self._consume(length)
        return frame

    def _drop(self, count: int, reason: str) -> Discarded:
        data = bytes(self._buffer[:count])
        self._consume(count)
        return Discarded(data, reason)

    def _consume(self, count: int) -> None:
        del self._buffer[:count]
        self._scanned = 1


_MESSAGE_START = re.compile(rb"[\x80-\xff]")


def _next_start(buf: bytearray, start: int) -> int:
    """Index of the first byte at or after ``start`` with bit 7 set, or ``len(buf)``."""
    found = _MESSAGE_START.search(buf, start)
    return len(buf) if found is None else found.start()
