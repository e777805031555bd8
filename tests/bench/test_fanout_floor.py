"""The floor server of ``bench.fanout`` speaks enough websocket for the load generator: the
upgrade with the right accept key, the hello frame, then each published move to every
spectator as one text frame."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from bench.fanout import message
from bench.fanout_floor import serve_floor

KEY = base64.b64encode(b"sixteen byte key").decode()


@pytest.fixture
def floor() -> Iterator[int]:
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    thread = threading.Thread(target=serve_floor, args=(listener, message, stop))
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=10)


class Spectator:
    """A websocket client reading the floor's answer and frames off a real socket."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(
            f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self._data = b""
        while b"\r\n\r\n" not in self._data:
            self._receive()
        self.head, _, self._data = self._data.partition(b"\r\n\r\n")

    def _receive(self) -> None:
        chunk = self.sock.recv(65536)
        assert chunk, "the floor closed the connection"
        self._data += chunk

    def frames(self, count: int) -> list[Any]:
        """The next ``count`` text frames, decoded from JSON."""
        frames: list[Any] = []
        while len(frames) < count:
            data = self._data
            if len(data) >= 4 and data[0] == 0x81:
                size, start = data[1], 2
                if size == 126:
                    size, start = int.from_bytes(data[2:4], "big"), 4
                if len(data) >= start + size:
                    frames.append(json.loads(data[start : start + size]))
                    self._data = data[start + size :]
                    continue
            self._receive()
        return frames


def test_the_upgrade_is_answered_with_the_accept_key_and_a_hello(floor: int) -> None:
    spectator = Spectator(floor)
    try:
        hello = spectator.frames(1)
    finally:
        spectator.sock.close()
    expected = base64.b64encode(
        hashlib.sha1(KEY.encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
    )
    assert spectator.head.startswith(b"HTTP/1.1 101 ")
    assert b"sec-websocket-accept: " + expected in spectator.head
    assert hello == [{"type": "hello"}]


def test_each_published_move_reaches_every_spectator(floor: int) -> None:
    spectators = [Spectator(floor) for _ in range(3)]
    try:
        for spectator in spectators:
            spectator.frames(1)
        url = f"http://127.0.0.1:{floor}/bench/publish?count=3&rate=100"
        with urllib.request.urlopen(urllib.request.Request(url, method="POST")) as reply:
            assert json.load(reply) == {"status": "publishing"}
        for spectator in spectators:
            moves = spectator.frames(3)
            assert [move["v"] for move in moves] == [1, 2, 3]
            assert [move["data"]["ply"] for move in moves] == [1, 2, 3]
            assert {move["kind"] for move in moves} == {"move"}
    finally:
        for spectator in spectators:
            spectator.sock.close()
    deadline = time.monotonic() + 10
    published: dict[str, float] = {}
    while len(published) < 3 and time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{floor}/bench/published") as reply:
            published = json.load(reply)
    assert sorted(published) == ["1", "2", "3"]


def test_an_unknown_route_is_not_found(floor: int) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://127.0.0.1:{floor}/elsewhere")
    refused.value.close()
    assert refused.value.code == 404
