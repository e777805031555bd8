"""Where the streams of :mod:`relay.edge` are mounted: ``/api/games/{id}/stream`` and
``/api/rounds/{id}/stream`` (the messages are described in :mod:`relay.edge.joining`).

Under uvicorn the edge's own protocol serves these paths before any route sees them; it
asks :func:`parse_stream_request` which paths they are. The routes below serve them on
every other server (the test client, another ASGI server), through :mod:`relay.edge.asgi`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, WebSocket

from relay.api.ids import MAX_STORED, GameId, RoundId, stored_id
from relay.api.limits import Limits
from relay.edge.asgi import follow
from relay.edge.board_range import BoardRange, parse_board_range
from relay.edge.joining import StreamTarget
from relay.edge.rooms import CLOSE_TRY_AGAIN

router = APIRouter(prefix="/api")

#: Policy violation (RFC 6455): the request asked for something malformed.
CLOSE_BAD_REQUEST = 1008

_PATH = re.compile(r"/api/(games|rounds)/([0-9]+)/stream")
#: A version has at most this many digits (a game's log is nowhere near a billion events).
MAX_SINCE_DIGITS = 18


def parse_stream_request(path: str, query: str) -> tuple[StreamTarget, str | None] | None:
    """The target and token of a stream URL; None when ``path`` is not a stream path.

    Raises ValueError for a stream path with a malformed query."""
    found = _PATH.fullmatch(path)
    if found is None:
        return None
    kind: Literal["games", "rounds"] = "games" if found[1] == "games" else "rounds"
    ident = stored_id(found[2])
    if ident is None:
        raise ValueError(f"{found[2][:24]!r} is not a {kind[:-1]} id (1 to {MAX_STORED})")
    fields = parse_qs(query, keep_blank_values=True)
    since_text = fields.get("since", ["0"])[-1]
    if not (since_text.isascii() and since_text.isdigit() and len(since_text) <= MAX_SINCE_DIGITS):
        raise ValueError(f"since must be a version number, not {since_text[:24]!r}")
    token = fields.get("token", [""])[-1] or None
    return StreamTarget(kind, ident, int(since_text), _boards(kind, fields)), token


def _boards(kind: str, fields: dict[str, list[str]]) -> BoardRange | None:
    if "boards" not in fields:
        return None
    if kind != "rounds":
        raise ValueError("boards is for round streams; a game stream follows one game")
    return parse_board_range(fields["boards"][-1])


@router.websocket("/games/{game_id}/stream")
async def game_stream(
    websocket: WebSocket,
    game_id: GameId,
    since: Annotated[int, Query(ge=0, lt=10**MAX_SINCE_DIGITS)] = 0,
    token: str | None = None,
) -> None:
    await _serve(websocket, StreamTarget("games", game_id, since), token)


@router.websocket("/rounds/{round_id}/stream")
async def round_stream(
    websocket: WebSocket, round_id: RoundId, token: str | None = None, boards: str | None = None
) -> None:
    try:
        board_range = None if boards is None else parse_board_range(boards)
    except ValueError as error:
        await websocket.accept()
        await websocket.close(CLOSE_BAD_REQUEST, str(error))
        return
    await _serve(websocket, StreamTarget("rounds", round_id, boards=board_range), token)


async def _serve(websocket: WebSocket, target: StreamTarget, token: str | None) -> None:
    """Accept, count the client's streams, and serve. (The rate limit middleware has let
    the client in; the streams it holds are counted here.)"""
    limits: Limits = websocket.app.state.limits
    client = websocket.client.host if websocket.client else "?"
    await websocket.accept()
    if not limits.open_stream(client):
        await websocket.close(CLOSE_TRY_AGAIN, "too many streams open from your address")
        return
    try:
        await follow(websocket, target, token)
    finally:
        limits.close_stream(client)
