"""The floor of ``bench.fanout``: a server that does nothing but the writes.

No framework, no bus, no rooms: asyncio accepts the connections, answers the websocket
upgrade, and publishing is one frame built once and ``os.write`` to each socket in a
Python loop. What this server spends per delivery is the least any server can spend that
writes each spectator's frame itself on this machine: the kernel's part (the write, the
TCP stack and, on loopback, the spectator's receive path, which runs in the sender's
context) plus a few hundred nanoseconds of Python. Measured in the same run as ours and the
plain loop, ``floor / plain`` is the most any server could reach against the plain loop
there, and ``ours / floor`` how near ours comes to it.

It speaks just enough HTTP for the bench: the upgrade (with the right
``Sec-WebSocket-Accept``), ``POST /bench/publish?count=N&rate=R`` and
``GET /bench/published``, as the other two servers serve them. The frame and the accept key
are ours (``relay.edge``): pure functions, paid once per message and once per connection.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from relay.edge.frames import text_frame
from relay.edge.handshake import accept_key


class FloorServer:
    """The spectators' sockets and the two bench routes; ``message(n, now)`` gives the
    fields of move ``n`` (``bench.fanout.message``)."""

    def __init__(self, message: Callable[[int, float], dict[str, object]]) -> None:
        self._message = message
        self.spectators: set[int] = set()
        self.published: dict[int, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: set[asyncio.Transport] = set()

    def protocol(self) -> asyncio.Protocol:
        return _Connection(self)

    def opened(self, transport: asyncio.Transport) -> None:
        self._connections.add(transport)

    def closed(self, transport: asyncio.Transport) -> None:
        self._connections.discard(transport)

    def close(self) -> None:
        """Close every connection and stop publishing."""
        for task in tuple(self._tasks):
            task.cancel()
        for transport in tuple(self._connections):
            transport.close()

    def answer(self, method: str, target: str, headers: dict[bytes, bytes]) -> bytes | None:
        """The response to one request; None for a websocket upgrade (answered by the
        connection, which then joins the spectators)."""
        url = urlsplit(target)
        if headers.get(b"upgrade", b"").lower() == b"websocket":
            return None
        if method == "POST" and url.path == "/bench/publish":
            query = {name: values[0] for name, values in parse_qs(url.query).items()}
            for number in range(1, int(query["count"]) + 1):
                self._message(number, 0.0)  # the moves worked out before, as the others do
            task = asyncio.ensure_future(self.publish(int(query["count"]), float(query["rate"])))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return _json_response({"status": "publishing"})
        if method == "GET" and url.path == "/bench/published":
            return _json_response(self.published)
        return b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"

    async def publish(self, count: int, rate: float) -> None:
        for seq in range(1, count + 1):
            now = self.published[seq] = time.time()
            event = {"type": "event", "game": 1, "v": seq, "kind": "move"}
            frame = text_frame(
                json.dumps({**event, "data": self._message(seq, now)}, separators=(",", ":"))
            )
            write = os.write
            for fd in tuple(self.spectators):
                try:
                    write(fd, frame)
                except OSError:
                    self.spectators.discard(fd)
            await asyncio.sleep(1 / rate)


def _json_response(body: object) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + data


class _Connection(asyncio.Protocol):
    def __init__(self, server: FloorServer) -> None:
        self._server = server
        self._buffer = b""
        self._transport: asyncio.Transport | None = None
        self._fd: int | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._server.opened(transport)

    def data_received(self, data: bytes) -> None:
        if self._fd is not None:
            return  # a spectator's frames (a close, a pong) are not read
        self._buffer += data
        head, found, _ = self._buffer.partition(b"\r\n\r\n")
        if not found:
            return
        request, *lines = head.split(b"\r\n")
        method, target, _version = request.decode("latin-1").split(" ", 2)
        headers = {}
        for line in lines:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        assert self._transport is not None
        response = self._server.answer(method, target, headers)
        if response is not None:
            self._transport.write(response)
            self._transport.close()
            return
        self._transport.write(
            b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
            b"sec-websocket-accept: " + accept_key(headers.get(b"sec-websocket-key", b"").strip())
            + b"\r\n\r\n" + text_frame('{"type":"hello"}')  # the load generator waits for it
        )  # fmt: skip
        sock: socket.socket = self._transport.get_extra_info("socket")
        self._fd = sock.fileno()
        self._server.spectators.add(self._fd)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._server.closed(self._transport)
        if self._fd is not None:
            self._server.spectators.discard(self._fd)


def serve_floor(
    sock: socket.socket,
    message: Callable[[int, float], dict[str, object]],
    stop: threading.Event | None = None,
) -> None:
    """Serve on the listening ``sock`` until ``stop`` is set (without one, until killed);
    then close every connection."""

    async def main(stop: threading.Event) -> None:
        server = FloorServer(message)
        listener = await asyncio.get_running_loop().create_server(server.protocol, sock=sock)
        async with listener:
            await asyncio.to_thread(stop.wait)
        server.close()
        await asyncio.sleep(0)  # the transports close on the loop's next turn

    asyncio.run(main(stop or threading.Event()))
