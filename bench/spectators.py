"""Many websocket spectators in one process, as light as a client can be.

Plain sockets read by one ``epoll`` loop: the upgrade request, then unmasked server frames
cut out of the byte stream and handed to ``on_payload(payload, now)`` with the arrival time.
No websocket library, no event loop, no object per connection beyond its socket and a
buffer: the benchmarks measure the server, so the clients must cost the machine as little
as possible (real spectators are on machines of their own).

The arrival time of a frame is the kernel's: every socket asks for ``SO_TIMESTAMPNS``, so a
read comes with the time its newest bytes reached the socket, not the time this process got
round to reading them. That keeps the load generator's own scheduling out of the figures,
and lets it read in batches (``pause`` seconds between polls) to leave the shared cores to
the server it measures. The stamps err late, never early: when two frames reach a socket
before it is read, the kernel merges them and the merged bytes carry the newer stamp, so the
older frame is counted as arriving with the newer one (at 5 ms between polls, the last
spectator's p99 came out 10-35 ms above the moment the server had written the frame to
every socket). Where the kernel gives no stamp, the time of the read is used.
``bench.e2e_latency``, where that error matters most, uses the C load generator of
:mod:`bench.spectator_load` instead.
"""

from __future__ import annotations

import base64
import os
import select
import socket
import struct
import time
from collections.abc import Callable

#: Connections opened before their answers are read (the server's listen backlog must hold
#: them).
BATCH = 250
READ_SIZE = 1 << 18
#: ``SO_TIMESTAMPNS`` (asm-generic/socket.h); its control message has the same type.
SO_TIMESTAMPNS = 35
_STAMP = struct.Struct("@qq")  # struct timespec
_ANCILLARY = socket.CMSG_SPACE(_STAMP.size)

OnPayload = Callable[[bytes, float], None]


class Spectators:
    """``count`` websocket clients of ``path``; :meth:`follow` reads them all."""

    def __init__(self, port: int, path: str, count: int) -> None:
        self._sockets: dict[int, socket.socket] = {}
        self._buffers: dict[int, bytes] = {}
        #: The sockets a frame has come from (the server has served their joins).
        self.heard: set[int] = set()
        for start in range(0, count, BATCH):
            batch = [_open(port, path) for _ in range(min(BATCH, count - start))]
            for sock in batch:
                rest = _read_upgrade(sock)
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                sock.setblocking(False)
                self._sockets[sock.fileno()] = sock
                self._buffers[sock.fileno()] = rest

    def __len__(self) -> int:
        return len(self._sockets)

    def follow(
        self,
        on_payload: OnPayload,
        *,
        until: float,
        done: Callable[[], bool],
        pause: float = 0.0,
    ) -> None:
        """Hand every frame to ``on_payload`` until ``done()`` or the time ``until``, with
        the kernel's arrival time; ``pause`` seconds between two polls batch the reads."""
        poller = select.epoll()
        for fd in self._sockets:
            poller.register(fd, select.EPOLLIN)
        buffers = self._buffers
        for fd, pending in buffers.items():
            if pending:
                buffers[fd] = self._frames(fd, pending, on_payload, time.time())
        sockets = self._sockets
        try:
            while not done() and (left := until - time.time()) > 0:
                for fd, _ in poller.poll(min(left, 1.0)):
                    data, ancillary, _, _ = sockets[fd].recvmsg(READ_SIZE, _ANCILLARY)
                    if not data:
                        poller.unregister(fd)
                        continue
                    now = _arrival(ancillary)
                    buffers[fd] = self._frames(fd, buffers[fd] + data, on_payload, now)
                if pause:
                    time.sleep(pause)
        finally:
            poller.close()

    def _frames(self, fd: int, data: bytes, on_payload: OnPayload, now: float) -> bytes:
        """Hand on the whole frames in ``data``; return what is left of it."""
        while len(data) >= 2:
            size, start = data[1] & 0x7F, 2
            if size == 126:
                if len(data) < 4:
                    break
                size, start = struct.unpack_from("!H", data, 2)[0], 4
            elif size == 127:
                if len(data) < 10:
                    break
                size, start = struct.unpack_from("!Q", data, 2)[0], 10
            if len(data) < start + size:
                break
            payload = data[start : start + size]
            self.heard.add(fd)
            if data[0] & 0x0F == 0x9:  # a keepalive ping: answer, or the server hangs up
                self._sockets[fd].send(pong(payload))
            else:
                on_payload(payload, now)
            data = data[start + size :]
        return data

    def until_served(self, seconds: float = 120.0) -> None:
        """Read until every spectator has had a frame (a stream's first message is its
        snapshot): the server's work for the joins is over, and measuring can begin."""
        self.follow(
            lambda payload, now: None,
            until=time.time() + seconds,
            done=lambda: len(self.heard) == len(self._sockets),
        )
        if len(self.heard) < len(self._sockets):
            raise SystemExit(f"{len(self._sockets) - len(self.heard)} spectators never served")

    def close(self) -> None:
        for sock in self._sockets.values():
            sock.close()


def _arrival(ancillary: list[tuple[int, int, bytes]]) -> float:
    """The kernel's stamp on a read: when its newest bytes reached the socket."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds, nanoseconds = _STAMP.unpack_from(data)
            return float(seconds + nanoseconds / 1e9)
    return time.time()


def _open(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Key: {key}\r\n\r\n"
    )
    sock.sendall(request.encode())
    return sock


def _read_upgrade(sock: socket.socket) -> bytes:
    """Read the server's answer; what came after it. Raises SystemExit if it refused."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed a connection during the handshake")
        answer += chunk
    head, _, rest = answer.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        status = head.partition(b"\r\n")[0].decode()
        raise SystemExit(f"refused: {status}")
    return rest


def pong(payload: bytes) -> bytes:
    """A client's pong frame (clients mask what they send: RFC 6455 section 5.3)."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return struct.pack("!BB", 0x8A, 0x80 | len(payload)) + mask + masked


def number_after(payload: bytes, key: bytes, end: bytes = b",") -> str:
    """The text after ``"key":`` up to ``end``: cheaper than decoding the whole message."""
    return payload.partition(b'"' + key + b'":')[2].partition(end)[0].decode()
