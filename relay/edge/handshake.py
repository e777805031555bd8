"""The opening handshake of a stream (RFC 6455 section 4), read sans I/O, and the answers.

:class:`HandshakeReader` takes the bytes of a client's upgrade request in whatever pieces
they arrive (all at once, byte by byte, with the client's first frames behind it) and gives
the request once its head is complete: the same :class:`Handshake` for any split of the same
bytes. A head it cannot read, or one longer than ``MAX_HEAD`` bytes, raises
:class:`HandshakeError` with the HTTP status to answer with.

Whether a request is for a stream is for the caller to say, from its path; whether it opens
a websocket is :meth:`Handshake.websocket_key`. The answers are bytes:
:func:`switching_protocols` (101) and :func:`refusal` (an HTTP error, its reason as JSON).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass

from relay.domain.errors import InvalidInputError

#: The longest head a client may send (uvicorn's own HTTP reader allows as much).
MAX_HEAD = 16 * 1024
NOT_WEBSOCKET = "not a websocket handshake (RFC 6455 version 13)"

_ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_END = b"\r\n\r\n"
#: A header's name (RFC 9110 section 5.1: a token).
_NAME = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_REASONS = {400: b"Bad Request", 429: b"Too Many Requests", 431: b"Request Header Fields Too Large"}


class HandshakeError(ValueError, InvalidInputError):
    """A handshake that is not served: answered with HTTP ``status``, ``reason`` its detail."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass(frozen=True, slots=True)
class Handshake:
    """A client's upgrade request: method, path and query; its headers as sent, names in
    lower case and values stripped; the bytes of its head, and the bytes that came after it
    (the client's first frames)."""

    method: str
    path: str
    query: str
    headers: tuple[tuple[bytes, bytes], ...]
    head: bytes
    rest: bytes

    def header(self, name: bytes) -> str:
        """The value of header ``name`` (in lower case), its last if sent twice; "" if none."""
        value = b""
        for found, text in self.headers:
            if found == name:
                value = text
        return value.decode("latin-1")

    def websocket_key(self) -> str:
        """The client's Sec-WebSocket-Key (section 4.2.1); HandshakeError (400) unless the
        request opens a websocket of version 13."""
        key = self.header(b"sec-websocket-key")
        if (
            self.method != "GET"
            or self.header(b"upgrade").lower() != "websocket"
            or self.header(b"sec-websocket-version") != "13"
            or len(_decoded(key)) != 16
        ):
            raise HandshakeError(NOT_WEBSOCKET)
        return key


class HandshakeReader:
    """The upgrade request of one connection, from its first bytes. Once it has given the
    :class:`Handshake`, it is done: what follows goes to a frame reader."""

    __slots__ = ("_data", "_limit")

    def __init__(self, limit: int = MAX_HEAD) -> None:
        self._limit = limit
        self._data = bytearray()

    def feed(self, data: bytes) -> Handshake | None:
        """The request, once ``data`` completes its head; None while more is to come."""
        searched = max(0, len(self._data) - len(_END) + 1)
        self._data += data
        end = self._data.find(_END, searched)
        if end < 0:
            # A head not ended yet is longer than what has come of it.
            if len(self._data) >= self._limit:
                raise self._too_long()
            return None
        end += len(_END)
        if end > self._limit:
            raise self._too_long()
        return _parsed(bytes(self._data[:end]), bytes(self._data[end:]))

    def _too_long(self) -> HandshakeError:
        return HandshakeError(f"the handshake is longer than {self._limit} bytes", 431)


def _parsed(head: bytes, rest: bytes) -> Handshake:
    request, *lines = head[: -len(_END)].split(b"\r\n")
    parts = request.split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        raise HandshakeError(f"not an HTTP request line: {_shown(request)}")
    headers = []
    for line in lines:
        name, colon, value = line.partition(b":")
        if not colon or not _NAME.fullmatch(name):
            raise HandshakeError(f"not a header line: {_shown(line)}")
        headers.append((name.lower(), value.strip()))
    path, _, query = parts[1].decode("latin-1").partition("?")
    return Handshake(parts[0].decode("latin-1"), path, query, tuple(headers), head, rest)


def _shown(line: bytes) -> str:
    return repr(line[:40].decode("latin-1"))


def _decoded(key: str) -> bytes:
    try:
        return base64.b64decode(key, validate=True)
    except ValueError:  # not base64, or not ASCII
        return b""


def accept_key(key: bytes) -> bytes:
    """The Sec-WebSocket-Accept answer to a client's Sec-WebSocket-Key (section 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key + _ACCEPT_GUID).digest())


def switching_protocols(key: str) -> bytes:
    """The 101 answer to a websocket opening with ``key``: from now on, frames."""
    return (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept_key(key.encode()) + b"\r\n\r\n"
    )


def refusal(status: int, reason: str, wait: float = 0.0) -> bytes:
    """An HTTP error answer that closes the connection, ``reason`` as JSON ``detail`` and,
    with ``wait``, a Retry-After in whole seconds."""
    body = json.dumps({"detail": reason}).encode()
    head = b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\n" % (status, _REASONS[status])
    if wait > 0:
        head += b"retry-after: %d\r\n" % max(1, round(wait))
    return head + b"connection: close\r\ncontent-length: %d\r\n\r\n" % len(body) + body
