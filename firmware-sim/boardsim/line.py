"""The serial line between a board's firmware and its port: speed and damage, sans I/O.

The firmware hands bytes to :meth:`SerialLine.send` when it writes them; the transport takes
them with :meth:`SerialLine.receive` once they have crossed the wire. At 9600 baud with 8N1
framing a byte takes 10 bits, about 1.04 ms, so a 67-byte board dump arrives some 70 ms after
it was sent; with ``byte_seconds=None`` (the default) bytes cross at once. Only the board's
direction is paced: the host's commands are a few bytes and the port hands them over at once.

Two faults live here because they happen on the wire: :meth:`inject_garbage` puts bytes on
the line that no firmware sent, and :meth:`drop` loses the next bytes the firmware sends.
"""

from __future__ import annotations

import math
from collections import deque

#: Seconds per byte at 9600 baud, 8 data bits, no parity, 1 stop bit.
BYTE_SECONDS_9600 = 10 / 9600


class SerialLine:
    """Bytes in flight from the board to the host."""

    def __init__(self, byte_seconds: float | None = None) -> None:
        if byte_seconds is not None and byte_seconds <= 0:
            raise ValueError(f"{byte_seconds} seconds per byte")
        self.byte_seconds = byte_seconds
        self._in_flight: deque[tuple[float, bytes]] = deque()
        self._busy_until = -math.inf
        self._to_drop = 0
        self.dropped = 0

    def send(self, data: bytes, now: float) -> None:
        """The firmware writes ``data`` at ``now``."""
        if self._to_drop:
            lost = min(self._to_drop, len(data))
            self._to_drop -= lost
            self.dropped += lost
            data = data[lost:]
        if data:
            self._queue(data, now)

    def inject_garbage(self, data: bytes, now: float) -> None:
        """Bytes no firmware sent (a glitch, a half-plugged cable) join the line now."""
        self._queue(data, now)

    def drop(self, count: int) -> None:
        """The next ``count`` bytes the firmware sends never arrive."""
        if count < 0:
            raise ValueError("cannot drop a negative number of bytes")
        self._to_drop += count

    def receive(self, now: float) -> bytes:
        """Bytes that have fully crossed the line by ``now``."""
        out = bytearray()
        seconds = self.byte_seconds
        while self._in_flight:
            start, data = self._in_flight[0]
            done = len(data) if seconds is None else math.floor((now - start) / seconds + 1e-9)
            if done <= 0:
                break
            if done >= len(data):
                out += data
                self._in_flight.popleft()
                continue
            out += data[:done]
            assert seconds is not None
            self._in_flight[0] = (start + done * seconds, data[done:])
            break
        return bytes(out)

    def next_deadline(self) -> float | None:
        """When the next byte finishes crossing, if any are in flight."""
        if not self._in_flight:
            return None
        start, _ = self._in_flight[0]
        return start + (self.byte_seconds or 0.0)

    def clear(self) -> None:
        """The line goes dead: bytes in flight are lost."""
        self._in_flight.clear()
        self._busy_until = -math.inf

    def _queue(self, data: bytes, now: float) -> None:
        if self.byte_seconds is None:
            self._in_flight.append((now, data))
            return
        start = max(now, self._busy_until)
        self._in_flight.append((start, data))
        self._busy_until = start + len(data) * self.byte_seconds
