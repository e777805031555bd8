"""Serving the app with uvicorn inside an event loop that the caller owns."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI

from relay.api.stream_routes import parse_stream_request
from relay.config import Settings
from relay.domain.errors import RelayError
from relay.edge.protocol import stream_protocols


class ServeError(OSError, RelayError):
    """The server cannot listen where it was asked to."""


class RelayServer(uvicorn.Server):
    """uvicorn without its own signal handling: whoever runs the loop decides when to stop."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def make_server(app: FastAPI, settings: Settings | None = None) -> RelayServer:
    """uvicorn for ``app``: HTTPS when the settings name a certificate, and client addresses
    taken from X-Forwarded-For when they name a trusted reverse proxy."""
    tls: dict[str, Any] = {}
    if settings is not None and settings.certfile and settings.keyfile:
        tls = {"ssl_certfile": str(settings.certfile), "ssl_keyfile": str(settings.keyfile)}
    proxy = settings.forwarded_allow_ips if settings is not None else None
    # The stream paths are served by our own websocket protocol, which frames once for
    # everyone and keeps nothing per idle spectator; other websockets go on to uvicorn's.
    # permessage-deflate costs twice the CPU and three times the memory per spectator.
    config = uvicorn.Config(
        app,
        ws=stream_protocols(app, parse_stream_request),
        ws_per_message_deflate=False,
        log_level="warning",
        # An access log would keep stream URLs, and a stream's token is in its URL.
        access_log=False,
        lifespan="on",
        proxy_headers=proxy is not None,
        forwarded_allow_ips=proxy,
        **tls,
    )
    return RelayServer(config)


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening socket; port 0 picks a free port (read it with ``getsockname``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.listen(128)
    return sock


def url_of(sock: socket.socket, *, tls: bool = False) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"{'https' if tls else 'http'}://{shown}:{port}/"
