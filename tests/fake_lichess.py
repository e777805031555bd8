"""Lichess' broadcast push endpoint (``POST /api/broadcast/round/{id}/push``) played by a
local server with real sockets, as its API documents it: the bearer token, the round ids it
knows, the PGN read game by game (python-chess), the answer lichess gives."""

from __future__ import annotations

import contextlib
import io
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import chess
import chess.pgn

TOKEN = "lip_organiserSecret0123456789"
ROUND_1 = "AbCd1234"
ROUND_2 = "EfGh5678"


@dataclass
class Push:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


Reply = tuple[int, dict[str, str], bytes]


@dataclass
class FakeLichess:
    """Lichess' push endpoint as its API documents it: the bearer token, the round ids it
    knows, the PGN read game by game and answered ``{"games": [{"tags", "moves"|"error"}]}``.
    ``reply`` replaces the answer when a test wants another one."""

    url: str = ""
    rounds: set[str] = field(default_factory=lambda: {ROUND_1, ROUND_2})
    pushes: list[Push] = field(default_factory=list)
    reply: Callable[[Push], Reply | None] | None = None
    release: threading.Event = field(default_factory=threading.Event)

    def answer(self, push: Push) -> Reply | None:
        if self.reply is not None:
            return self.reply(push)
        if push.headers.get("authorization") != f"Bearer {TOKEN}":
            return json_reply(401, {"error": "No such token"})
        found = re.fullmatch(r"/api/broadcast/round/([A-Za-z0-9]{8})/push", push.path)
        if push.method != "POST" or found is None or found[1] not in self.rounds:
            return json_reply(404, {"error": "Not found"})
        return json_reply(200, {"games": [read_pushed(pgn) for pgn in split_games(push.body)]})


def split_games(body: bytes) -> list[str]:
    """The body cut into games the way lichess cuts it (``MultiPgn.split``: a blank line
    before a tag), at most 100."""
    text = body.decode("utf-8").replace("\r", "")
    return [part for part in re.split(r"\n\n(?=\[)", text) if part.strip()][:100]


def parsed_game(pgn: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    return game


def read_pushed(pgn: str) -> dict[str, object]:
    game = parsed_game(pgn)
    tags = dict(game.headers)
    if game.errors:
        return {"tags": tags, "error": str(game.errors[0])}
    return {"tags": tags, "moves": len(list(game.mainline_moves()))}


def json_reply(status: int, data: object, headers: dict[str, str] | None = None) -> Reply:
    return (
        status,
        {"Content-Type": "application/json", **(headers or {})},
        json.dumps(data).encode(),
    )


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        push = Push(
            self.command,
            self.path,
            {name.lower(): value for name, value in self.headers.items()},
            self.rfile.read(length),
        )
        lichess = self.server.lichess
        lichess.pushes.append(push)
        reply = lichess.answer(push)
        if reply is None:  # a server that does not answer
            lichess.release.wait(10)
            self.close_connection = True
            return
        status, headers, body = reply
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, lichess: FakeLichess) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.lichess = lichess

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up (the timeout test) is not the server's error


@contextlib.contextmanager
def fake_lichess() -> Iterator[FakeLichess]:
    """The server on a free port of 127.0.0.1 (``url`` says where), until the block ends."""
    fake = FakeLichess()
    server = _Server(fake)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
