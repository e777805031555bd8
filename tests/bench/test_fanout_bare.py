"""The bare server of ``bench.fanout`` speaks enough websocket for the load generator, and
loses no frame: the upgrade with the right accept key and a hello, each published move to
every spectator as one text frame, a spectator whose socket is full written through asyncio
from then on, a spectator gone left out, and anything else refused."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bench.fanout import message
from bench.fanout_bare import BareServer, Message, serve_bare

KEY = base64.b64encode(b"sixteen byte key").decode()


@dataclass
class Bare:
    port: int
    server: BareServer


def start(message: Message) -> Iterator[Bare]:
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    servers: list[BareServer] = []
    ready = threading.Event()

    def started(server: BareServer) -> None:
        servers.append(server)
        ready.set()

    thread = threading.Thread(
        target=serve_bare, args=(listener, message, stop, started), daemon=True
    )
    thread.start()
    assert ready.wait(10), "the bare server did not start"
    try:
        yield Bare(listener.getsockname()[1], servers[0])
    finally:
        stop.set()
        thread.join(timeout=10)
        assert not thread.is_alive(), "the bare server did not stop"


@pytest.fixture
def bare() -> Iterator[Bare]:
    yield from start(message)


def padded(number: int, now: float) -> dict[str, object]:
    """A cheap move of about 250 bytes framed, for runs of thousands."""
    return {"ply": number, "at": now, "pad": "x" * 200}


@pytest.fixture
def bare_padded() -> Iterator[Bare]:
    yield from start(padded)


class Spectator:
    """A websocket client reading the server's answer and frames off a real socket."""

    def __init__(self, port: int, path: str = "/ws", receive_buffer: int = 0) -> None:
        self.sock = socket.socket()
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self._data = b""
        while b"\r\n\r\n" not in self._data:
            self._receive()
        self.head, _, self._data = self._data.partition(b"\r\n\r\n")

    def _receive(self) -> None:
        chunk = self.sock.recv(65536)
        assert chunk, "the server closed the connection"
        self._data += chunk

    def frames(self, count: int) -> list[Any]:
        """The next ``count`` frames, each a final text frame, decoded from JSON."""
        frames: list[Any] = []
        while len(frames) < count:
            data = self._data
            if len(data) >= 4:
                assert data[0] == 0x81, f"not a final text frame: {data[:8]!r}"
                size, start = data[1], 2
                if size == 126:
                    size, start = int.from_bytes(data[2:4], "big"), 4
                if len(data) >= start + size:
                    frames.append(json.loads(data[start : start + size]))
                    self._data = data[start + size :]
                    continue
            self._receive()
        return frames

    def close(self) -> None:
        self.sock.close()


def publish(port: int, count: int, rate: float) -> None:
    url = f"http://127.0.0.1:{port}/bench/publish?count={count}&rate={rate!r}"
    with urllib.request.urlopen(urllib.request.Request(url, method="POST")) as reply:
        assert json.load(reply) == {"status": "publishing"}


def published(port: int) -> dict[str, float]:
    """The server's publish times so far, by move number."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/published") as reply:
        times: dict[str, float] = json.load(reply)
    return times


def test_the_upgrade_is_answered_with_the_accept_key_and_a_hello(bare: Bare) -> None:
    spectator = Spectator(bare.port)
    try:
        hello = spectator.frames(1)
    finally:
        spectator.close()
    expected = base64.b64encode(
        hashlib.sha1(KEY.encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
    )
    assert spectator.head.startswith(b"HTTP/1.1 101 ")
    assert b"sec-websocket-accept: " + expected in spectator.head
    assert hello == [{"type": "hello"}]


def test_each_published_move_reaches_every_spectator(bare: Bare) -> None:
    spectators = [Spectator(bare.port) for _ in range(3)]
    try:
        for spectator in spectators:
            spectator.frames(1)
        publish(bare.port, 3, 100)
        for spectator in spectators:
            moves = spectator.frames(3)
            assert [move["v"] for move in moves] == [1, 2, 3]
            assert [move["data"]["ply"] for move in moves] == [1, 2, 3]
            assert {move["kind"] for move in moves} == {"move"}
    finally:
        for spectator in spectators:
            spectator.close()
    assert sorted(published(bare.port)) == ["1", "2", "3"]  # each stamped before it went


def test_a_full_socket_gets_every_frame_whole_and_in_order(bare_padded: Bare) -> None:
    count = 2000  # about 500 KB, far more than the slow spectator's socket holds
    slow = Spectator(bare_padded.port, receive_buffer=4096)
    quick = Spectator(bare_padded.port)
    try:
        slow.frames(1)
        quick.frames(1)
        # The server's end of the slow spectator's socket gets a small send buffer too (the
        # kernel would let it grow to several MB).
        (slow_transport,) = [
            transport
            for transport in bare_padded.server.direct.values()
            if transport.get_extra_info("peername")[1] == slow.sock.getsockname()[1]
        ]
        server_end: socket.socket = slow_transport.get_extra_info("socket")
        server_end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        publish(bare_padded.port, count, 1e6)
        assert [move["v"] for move in quick.frames(count)] == list(range(1, count + 1))
        assert len(published(bare_padded.port)) == count
        # The slow spectator has read nothing since its hello: its socket took part of a
        # frame at most, and the server has written the rest through asyncio since.
        assert slow_transport in bare_padded.server.buffered
        moves = slow.frames(count)
        assert [move["v"] for move in moves] == list(range(1, count + 1))
        assert all(move["data"]["pad"] == "x" * 200 for move in moves)
    finally:
        slow.close()
        quick.close()


def test_a_spectator_gone_is_left_out(bare: Bare, monkeypatch: pytest.MonkeyPatch) -> None:
    left = threading.Event()
    closed = bare.server.closed

    def closed_and_told(transport: asyncio.Transport, fd: int | None) -> None:
        closed(transport, fd)
        left.set()

    monkeypatch.setattr(bare.server, "closed", closed_and_told)
    gone = Spectator(bare.port)
    staying = Spectator(bare.port)
    try:
        gone.frames(1)
        staying.frames(1)
        # A spectator is one before its answer can reach it.
        assert len(bare.server.direct) == 2
        gone.close()
        assert left.wait(10), "the server never saw the spectator go"
        assert len(bare.server.direct) == 1
        publish(bare.port, 2, 100)
        assert [move["v"] for move in staying.frames(2)] == [1, 2]
    finally:
        staying.close()


@pytest.mark.parametrize(
    ("request_head", "status"),
    [
        (b"GET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /bench/publish HTTP/1.1\r\nHost: x\r\n\r\n", 404),  # a POST only
        (b"GET /other HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", 404),  # spectators on /ws
        (b"NONSENSE\r\n\r\n", 400),
        (b"POST /bench/publish?count=x&rate=1 HTTP/1.1\r\n\r\n", 400),
        (b"POST /bench/publish?rate=1 HTTP/1.1\r\n\r\n", 400),
        (b"POST /bench/publish?count=3&rate=0 HTTP/1.1\r\n\r\n", 400),
        (b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", 400),  # no key
        (b"GET /ws HTTP/1.1\r\nX: " + b"y" * 20_000, 400),  # a head that never ends
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
    ],
)
def test_anything_else_is_refused(bare: Bare, request_head: bytes, status: int) -> None:
    with socket.create_connection(("127.0.0.1", bare.port), timeout=10) as sock:
        sock.sendall(request_head)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(f"HTTP/1.1 {status} ".encode())
    assert not bare.server.direct
