"""Websocket streams of a game's or a round's events.

Every message is JSON with a ``type``:

* ``event``: one event of a game's log, with the game's version ``v``;
* ``snapshot``: the round's board summaries (first message of a round stream), and under
  ``boards`` the numbers of all the round's boards;
* ``reload``: the client's version is ahead of the log (it saw a database that has since
  been replaced); the whole log follows from the start;
* ``ping``: a heartbeat after ``heartbeat_seconds`` of silence in the room, so clients and
  proxies can tell a quiet round from a dead connection.

A game stream first replays the events after ``?since=V`` and then sends new ones live, so
a client that reconnects gets exactly what it missed. A round stream with ``?boards=25-48``
carries those boards only (a page of a big round). Public clients of a round with a
transmission delay see everything ``delay`` seconds late; a client with an operator,
arbiter or admin token (``?token=``; browsers cannot set headers on websockets) sees live.

How a client joins is the same on every server (:func:`join_stream`). Under uvicorn the
stream paths never reach the routes below: :mod:`relay.api.stream_protocol` serves them
without ASGI. The routes serve them everywhere else (the test client, another server).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from relay.api.board_range import BoardRange, parse_board_range
from relay.api.deps import token_identity
from relay.api.ids import MAX_STORED, GameId, RoundId, stored_id
from relay.api.limits import Limits
from relay.api.rooms import CLOSE_TRY_AGAIN, Member, Rooms, encode_event
from relay.api.transport import FrameWriter
from relay.bus.messages import Published, game_topic, round_topic
from relay.domain.errors import RefusedError
from relay.hub.game_views import GameView
from relay.hub.hub import Hub
from relay.store.access import Identity
from relay.store.models import Round
from relay.store.tournaments import NotFoundError, get_round

router = APIRouter(prefix="/api")

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORIZED = 4401
#: Policy violation (RFC 6455): the request asked for something malformed.
CLOSE_BAD_REQUEST = 1008

_PATH = re.compile(r"/api/(games|rounds)/([0-9]+)/stream")
#: A version has at most this many digits (a game's log is nowhere near a billion events).
MAX_SINCE_DIGITS = 18


class StreamRefusedError(RefusedError):
    """The stream cannot be served; the connection closes with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class StreamTarget:
    """What a stream follows: one game (from version ``since``) or one round (its boards
    in ``boards``, or all of them)."""

    kind: Literal["games", "rounds"]
    ident: int
    since: int = 0
    boards: BoardRange | None = None

    @property
    def topic(self) -> str:
        return game_topic(self.ident) if self.kind == "games" else round_topic(self.ident)

    @property
    def missing(self) -> str:
        return f"no {self.kind[:-1]} {self.ident}"


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


async def join_stream(
    hub: Hub, rooms: Rooms, target: StreamTarget, token: str | None, writer: FrameWriter | None
) -> tuple[Member, list[str]]:
    """Check the client may follow ``target``, join its room, and read what is stored.

    Returns the member, still catching up, and the messages to send before it goes live
    (:meth:`Member.go_live`). The client joins before the log is read, so nothing
    committed in between is missed; what arrives both ways is sent once, by version.
    """
    identity: Identity | None = None
    if token:
        identity = await asyncio.to_thread(token_identity, hub, token)
        if identity is None:
            raise StreamRefusedError(CLOSE_UNAUTHORIZED, "the token is not valid")
    try:
        round_ = await _round_of(hub, target)
    except NotFoundError:
        raise StreamRefusedError(CLOSE_NOT_FOUND, target.missing) from None
    if identity is None and not round_.published:
        raise StreamRefusedError(CLOSE_NOT_FOUND, target.missing)
    delay = 0 if identity is not None else round_.delay_seconds
    games: frozenset[int] | None = None
    if target.boards is not None:
        views = await hub.views.round(target.ident)
        games = frozenset(view.game_id for view in views if view.board in target.boards)
    member = rooms.join(
        target.topic,
        delay,
        public=identity is None,
        writer=writer,
        games=games,
        label=str(target.boards or ""),
    )
    try:
        # Read after joining: what was committed meanwhile is in one or the other.
        cut = time.time() - delay if delay > 0 else None
        if target.kind == "games":
            history = _game_history(member, await hub.views.game(target.ident), target, cut)
        else:
            views = await hub.views.round(target.ident)
            history = _round_snapshot(member, views, target.boards, cut)
    except BaseException:
        member.room.leave(member)
        raise
    return member, history


async def _round_of(hub: Hub, target: StreamTarget) -> Round:
    if target.kind == "games":
        round_id = (await hub.views.game(target.ident)).pairing.game.round_id
    else:
        round_id = target.ident
    return await hub.recorder.read(lambda session: get_round(session, round_id=round_id))


def _game_history(
    member: Member, view: GameView, target: StreamTarget, cut: float | None
) -> list[str]:
    newest = view.version_at(cut)
    after = target.since
    texts = []
    if after > newest:
        texts.append(json.dumps({"type": "reload"}))
        after = 0
    for item in view.events[after:newest]:
        message = Published(
            view.pairing.game.round_id,
            item.game_id,
            item.seq,
            item.kind,
            item.data,
            item.recorded_at,
        )
        texts.append(encode_event(message))
    member.sent[target.ident] = newest
    return texts


def _round_snapshot(
    member: Member, views: list[GameView], boards: BoardRange | None, cut: float | None
) -> list[str]:
    summaries: list[dict[str, Any]] = []
    for view in views:
        if boards is not None and view.board not in boards:
            continue
        version = view.version_at(cut)
        member.sent[view.game_id] = version
        summaries.append(view.summary(version))
    numbers = [view.board for view in views]
    return [json.dumps({"type": "snapshot", "games": summaries, "boards": numbers})]


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
    """Through ASGI: send the history, then the member's backlog, until the end. (The
    rate limit middleware has let the client in; the streams it holds are counted here.)"""
    limits: Limits = websocket.app.state.limits
    client = websocket.client.host if websocket.client else "?"
    await websocket.accept()
    if not limits.open_stream(client):
        await websocket.close(CLOSE_TRY_AGAIN, "too many streams open from your address")
        return
    try:
        await _follow(websocket, target, token)
    finally:
        limits.close_stream(client)


async def _follow(websocket: WebSocket, target: StreamTarget, token: str | None) -> None:
    try:
        member, history = await join_stream(
            websocket.app.state.hub, websocket.app.state.rooms, target, token, None
        )
    except StreamRefusedError as refused:
        await websocket.close(refused.code, refused.reason)
        return
    try:
        for text in history:
            await websocket.send_text(text)
        member.go_live()
        await _pump(websocket, member)
    except WebSocketDisconnect:
        pass  # the client left; nothing to tell anyone
    finally:
        member.room.leave(member)


async def _pump(websocket: WebSocket, member: Member) -> None:
    """Send the member's messages until the client leaves or falls too far behind."""
    listener = asyncio.create_task(_wait_for_close(websocket, member))
    try:
        while (item := await member.next()) is not None:
            await websocket.send_text(item.text)
        if member.overflowed:
            await websocket.close(CLOSE_TRY_AGAIN, "too far behind; resume from your version")
        elif not listener.done():
            # The room let the client go (a delay changed, the server stops): come back.
            await websocket.close(CLOSE_TRY_AGAIN, "reconnect and resume from your version")
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)


async def _wait_for_close(websocket: WebSocket, member: Member) -> None:
    """Clients send nothing we need; reading only tells us when they have gone."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    finally:
        member.close()
