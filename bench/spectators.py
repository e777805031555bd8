"""Many websocket spectators in one process, as light as a client can be.

A raw asyncio protocol per connection: the upgrade request, then unmasked server frames
cut out of the byte stream and handed to ``on_payload(payload, now)`` with the arrival time.
No websocket library, no task per connection: the benchmarks measure the server, so the
clients must cost the machine as little as possible.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

#: Connections opened at once (the server's listen backlog must hold them).
BATCH = 250


class Spectator(asyncio.Protocol):
    def __init__(self, host: str, path: str, on_payload: Callable[[bytes, float], None]) -> None:
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n\r\n"
        ).encode()
        self._buffer = b""
        self._upgraded = False
        self._on_payload = on_payload
        self.connected: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: Any) -> None:
        self._transport = transport
        transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self._buffer += data
        if not self._upgraded:
            head, separator, rest = self._buffer.partition(b"\r\n\r\n")
            if not separator:
                return
            self._upgraded = head.startswith(b"HTTP/1.1 101")
            if not self._upgraded:
                print(head.split(b"\r\n")[0].decode(), file=sys.stderr)
            self._buffer = rest
            if not self.connected.done():
                self.connected.set_result(self._upgraded)
        while len(self._buffer) >= 2:
            size, start = self._buffer[1] & 0x7F, 2
            if size == 126:
                if len(self._buffer) < 4:
                    return
                size, start = struct.unpack("!H", self._buffer[2:4])[0], 4
            elif size == 127:
                if len(self._buffer) < 10:
                    return
                size, start = struct.unpack("!Q", self._buffer[2:10])[0], 10
            if len(self._buffer) < start + size:
                return
            opcode = self._buffer[0] & 0x0F
            payload, self._buffer = self._buffer[start : start + size], self._buffer[start + size :]
            if opcode == 0x9:  # the server's keepalive ping: answer, or it hangs up
                self._transport.write(pong(payload))
            else:
                self._on_payload(payload, now)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.connected.done():
            self.connected.set_result(False)


def pong(payload: bytes) -> bytes:
    """A client's pong frame (clients mask what they send: RFC 6455 section 5.3)."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return struct.pack("!BB", 0x8A, 0x80 | len(payload)) + mask + masked


async def connect_all(
    port: int, path: str, count: int, on_payload: Callable[[bytes, float], None]
) -> list[Spectator]:
    """Open ``count`` spectators on ``path``; raises SystemExit if any is refused."""
    loop = asyncio.get_running_loop()
    spectators: list[Spectator] = []
    for start in range(0, count, BATCH):
        batch = []
        for _ in range(min(BATCH, count - start)):
            _, spectator = await loop.create_connection(
                lambda: Spectator("127.0.0.1", path, on_payload), "127.0.0.1", port
            )
            batch.append(spectator)
        results = await asyncio.gather(*(s.connected for s in batch))
        if not all(results):
            raise SystemExit(f"{results.count(False)} connections refused")
        spectators += batch
    return spectators


def number_after(payload: bytes, key: bytes, end: bytes = b",") -> str:
    """The text after ``"key":`` up to ``end``: cheaper than decoding the whole message."""
    return payload.partition(b'"' + key + b'":')[2].partition(end)[0].decode()
