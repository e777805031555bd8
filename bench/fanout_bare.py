"""The bare server of ``bench.fanout``: a websocket fan-out with nothing but the writes.

No framework, no bus, no rooms, one thread: asyncio accepts the connections and answers the
websocket upgrade, and publishing builds each frame once and writes it to every socket with
the loop ours uses (``relay.edge.fanout.write_each``: ``os.write`` per socket). A socket that
takes less than the whole frame (its buffer full) is written through its asyncio transport
from then on, so no frame is cut or lost: the same rule as ours, where the room hands the
rest to the connection's writer. What it spends per delivery is the kernel's part (the
write, the TCP stack and, on loopback, the spectator's receive path, which runs in the
sender's context) plus a few hundred nanoseconds of Python: about as little as a server that
writes each spectator's frame itself can spend. It is a reference, not a bound: ours, which
writes rooms of 2,048 or more with helper threads, has used less CPU per delivery than it in
some runs.

It speaks just enough HTTP for the bench: the upgrade on ``/ws`` (with the right
``Sec-WebSocket-Accept``), ``POST /bench/publish?count=N&rate=R`` and
``GET /bench/published``, as the other two servers serve them; anything else gets 404, and
a request it cannot read 400. The frame and the accept key are ours (``relay.edge``): pure
functions, paid once per message and once per connection.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from relay.edge.fanout import write_each
from relay.edge.frames import text_frame
from relay.edge.handshake import accept_key

__all__ = ["BareServer", "serve_bare"]

#: What ``message(n, now)`` gives: the fields of move ``n`` (``bench.fanout.message``).
Message = Callable[[int, float], dict[str, object]]

#: The longest request head it reads.
MAX_HEAD = 16_384

_NOT_FOUND = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_BAD_REQUEST = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


class BareServer:
    """The spectators and the two bench routes."""

    def __init__(self, message: Message) -> None:
        self._message = message
        #: Spectators written with ``os.write``, by socket; their transports hold nothing.
        self.direct: dict[int, asyncio.Transport] = {}
        #: Spectators whose socket once took less than a frame: written through asyncio.
        self.buffered: set[asyncio.Transport] = set()
        self.published: dict[int, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: set[asyncio.Transport] = set()

    def protocol(self) -> asyncio.Protocol:
        return _Connection(self)

    def opened(self, transport: asyncio.Transport) -> None:
        self._connections.add(transport)

    def closed(self, transport: asyncio.Transport, fd: int | None) -> None:
        self._connections.discard(transport)
        self.buffered.discard(transport)
        if fd is not None and self.direct.get(fd) is transport:
            del self.direct[fd]

    def close(self) -> None:
        """Stop publishing and drop every connection, with whatever it had not yet sent."""
        for task in tuple(self._tasks):
            task.cancel()
        for transport in tuple(self._connections):
            transport.abort()

    def answer(self, method: str, target: str) -> bytes:
        """The response to a request that is not the upgrade."""
        url = urlsplit(target)
        if method == "POST" and url.path == "/bench/publish":
            query = {name: values[0] for name, values in parse_qs(url.query).items()}
            count, rate = int(query["count"]), float(query["rate"])
            if count < 0 or not rate > 0:
                raise ValueError(f"count {count} and rate {rate}: a count and a rate above 0")
            for number in range(1, count + 1):
                self._message(number, 0.0)  # the moves worked out before, as the others do
            task = asyncio.ensure_future(self.publish(count, rate))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return _json_response({"status": "publishing"})
        if method == "GET" and url.path == "/bench/published":
            return _json_response(self.published)
        return _NOT_FOUND

    def join(self, transport: asyncio.Transport, answer: bytes) -> None:
        """A spectator whose upgrade is answered with ``answer``: it is one of the spectators
        before a byte of the answer can reach it."""
        sock: socket.socket = transport.get_extra_info("socket")
        self.direct[sock.fileno()] = transport
        self._write_direct((sock.fileno(),), answer)

    async def publish(self, count: int, rate: float) -> None:
        for seq in range(1, count + 1):
            now = self.published[seq] = time.time()
            event = {"type": "event", "game": 1, "v": seq, "kind": "move"}
            text = json.dumps({**event, "data": self._message(seq, now)}, separators=(",", ":"))
            self.send(text_frame(text))
            await asyncio.sleep(1 / rate)

    def send(self, frame: bytes) -> None:
        """``frame`` to every spectator."""
        for transport in tuple(self.buffered):
            transport.write(frame)
        self._write_direct(tuple(self.direct), frame)

    def _write_direct(self, fds: tuple[int, ...], data: bytes) -> None:
        """``data`` to sockets of ``direct``, by the loop ours uses; a socket that takes less
        gets the rest, and every later frame, through its transport."""
        for fd, sent in write_each(fds, data):
            transport = self.direct.pop(fd)
            transport.write(data[sent:])
            self.buffered.add(transport)


def _json_response(body: object) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + data


class _Connection(asyncio.Protocol):
    """One connection: a request, then (after an upgrade) a spectator whose frames are not
    read."""

    def __init__(self, server: BareServer) -> None:
        self._server = server
        self._head = b""
        self._transport: asyncio.Transport | None = None
        self._fd: int | None = None
        self._upgraded = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._fd = transport.get_extra_info("socket").fileno()
        self._server.opened(transport)

    def data_received(self, data: bytes) -> None:
        if self._upgraded or self._transport is None:
            return  # a spectator's frames (a close, a pong) are not read
        self._head += data
        head, found, _ = self._head.partition(b"\r\n\r\n")
        if not found:
            if len(self._head) > MAX_HEAD:
                self._last(_BAD_REQUEST)
            return
        try:
            method, target, headers = _request(head)
        except ValueError:
            self._last(_BAD_REQUEST)
            return
        upgrade = headers.get(b"upgrade", b"").lower() == b"websocket"
        if upgrade and (method != "GET" or urlsplit(target).path != "/ws"):
            self._last(_NOT_FOUND)
        elif not upgrade:
            try:
                self._last(self._server.answer(method, target))
            except (KeyError, ValueError):  # a publish without a count or rate it can use
                self._last(_BAD_REQUEST)
        elif not (key := headers.get(b"sec-websocket-key")):
            self._last(_BAD_REQUEST)
        else:
            self._upgraded = True
            self._server.join(
                self._transport,
                b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n"
                b"connection: Upgrade\r\nsec-websocket-accept: " + accept_key(key)
                + b"\r\n\r\n" + text_frame('{"type":"hello"}'),  # the load generator waits for it
            )  # fmt: skip

    def _last(self, response: bytes) -> None:
        """Answer with ``response`` and close."""
        assert self._transport is not None
        self._transport.write(response)
        self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._server.closed(self._transport, self._fd)


def _request(head: bytes) -> tuple[str, str, dict[bytes, bytes]]:
    """A request head's method, target and headers (names lower-cased); ValueError when it
    is not one."""
    request, *lines = head.split(b"\r\n")
    method, target, version = request.decode("latin-1").split(" ")
    if not version.startswith("HTTP/"):
        raise ValueError(f"not an HTTP request: {request!r}")
    headers: dict[bytes, bytes] = {}
    for line in lines:
        name, colon, value = line.partition(b":")
        if not colon:
            raise ValueError(f"not a header: {line!r}")
        headers[name.strip().lower()] = value.strip()
    return method, target, headers


def serve_bare(
    sock: socket.socket,
    message: Message,
    stop: threading.Event | None = None,
    started: Callable[[BareServer], None] | None = None,
) -> None:
    """Serve on the listening ``sock`` until ``stop`` is set (without one, until killed);
    then close every connection. ``started`` is handed the server once it listens."""

    async def main() -> None:
        server = BareServer(message)
        listener = await asyncio.get_running_loop().create_server(server.protocol, sock=sock)
        if started is not None:
            started(server)
        async with listener:
            if stop is None:
                await asyncio.get_running_loop().create_future()  # until killed
            else:
                await asyncio.to_thread(stop.wait)
            server.close()  # inside: from Python 3.12 the listener waits for connections
            await asyncio.sleep(0)

    asyncio.run(main())
