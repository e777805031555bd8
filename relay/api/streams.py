"""Websocket streams of a game's or a round's events.

Every message is JSON with a ``type``:

* ``event``: one event of a game's log, with the game's version ``v``;
* ``snapshot``: the round's board summaries (first message of a round stream);
* ``reload``: the client's version is ahead of the log (it saw a database that has since
  been replaced); the whole log follows from the start;
* ``ping``: a heartbeat after ``heartbeat_seconds`` of silence in the room, so clients and
  proxies can tell a quiet round from a dead connection.

A game stream first replays the events after ``?since=V`` and then sends new ones live, so
a client that reconnects gets exactly what it missed. Public clients of a round with a
transmission delay see everything ``delay`` seconds late; a client with an operator,
arbiter or admin token (``?token=``; browsers cannot set headers on websockets) sees live.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from relay.api.deps import token_identity
from relay.api.rooms import CLOSE_TRY_AGAIN, Member, Rooms, encode_event
from relay.api.transport import DirectWriter
from relay.bus.messages import Published, game_topic, round_topic
from relay.hub.game_views import GameView
from relay.hub.hub import Hub
from relay.store.access import Identity
from relay.store.models import Round
from relay.store.tournaments import NotFoundError, get_round

router = APIRouter(prefix="/api")

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORIZED = 4401


@router.websocket("/games/{game_id}/stream")
async def game_stream(
    websocket: WebSocket, game_id: int, since: int = 0, token: str | None = None
) -> None:
    hub: Hub = websocket.app.state.hub

    async def start(member: Member, view: GameView, cut: float | None) -> None:
        newest = view.version_at(cut)
        after = since
        if after > newest:
            await websocket.send_text(json.dumps({"type": "reload"}))
            after = 0
        member.sent[game_id] = after
        for item in view.events[after:newest]:
            message = Published(
                view.pairing.game.round_id,
                item.game_id,
                item.seq,
                item.kind,
                item.data,
                item.recorded_at,
            )
            await websocket.send_text(encode_event(message))
            member.sent[game_id] = item.seq

    async def open_view() -> tuple[GameView, Round]:
        view = await hub.views.game(game_id)
        return view, await _round(hub, view.pairing.game.round_id)

    await _serve(websocket, game_topic(game_id), open_view, start, f"no game {game_id}", token)


@router.websocket("/rounds/{round_id}/stream")
async def round_stream(websocket: WebSocket, round_id: int, token: str | None = None) -> None:
    hub: Hub = websocket.app.state.hub

    async def start(member: Member, views: list[GameView], cut: float | None) -> None:
        boards = []
        for view in views:
            version = view.version_at(cut)
            member.sent[view.game_id] = version
            boards.append(view.summary(version))
        await websocket.send_text(json.dumps({"type": "snapshot", "games": boards}))

    async def open_views() -> tuple[list[GameView], Round]:
        round_ = await _round(hub, round_id)
        return await hub.views.round(round_id), round_

    await _serve(websocket, round_topic(round_id), open_views, start, f"no round {round_id}", token)


async def _round(hub: Hub, round_id: int) -> Round:
    return await hub.recorder.run(lambda session: get_round(session, round_id=round_id))


async def _serve(
    websocket: WebSocket,
    topic: str,
    open_: Callable[[], Coroutine[Any, Any, tuple[Any, Round]]],
    start: Callable[[Member, Any, float | None], Coroutine[Any, Any, None]],
    missing: str,
    token: str | None,
) -> None:
    """Join the topic's room, send what is stored, then what is published, until the end.

    The client joins before the log is read, so nothing committed in between is missed;
    what arrives both ways is sent once, by version.
    """
    hub: Hub = websocket.app.state.hub
    rooms: Rooms = websocket.app.state.rooms
    await websocket.accept()
    identity: Identity | None = None
    if token:
        identity = await asyncio.to_thread(token_identity, hub, token)
        if identity is None:
            await websocket.close(CLOSE_UNAUTHORIZED, "the token is not valid")
            return
    try:
        _, round_ = await open_()
    except NotFoundError:
        await websocket.close(CLOSE_NOT_FOUND, missing)
        return
    if identity is None and not round_.published:
        await websocket.close(CLOSE_NOT_FOUND, missing)
        return
    delay = 0 if identity is not None else round_.delay_seconds
    writer = DirectWriter.of(websocket.scope)
    member = rooms.join(topic, delay, public=identity is None, writer=writer)
    try:
        # Read again after joining: what was committed meanwhile is in one or the other.
        views, _ = await open_()
        cut = time.time() - delay if delay > 0 else None
        await start(member, views, cut)
        member.go_live()
        if member.writer is not None:
            await _until_disconnected(websocket)
        else:
            await _pump(websocket, member)
    except WebSocketDisconnect:
        pass  # the client left; nothing to tell anyone
    finally:
        member.room.leave(member)


async def _until_disconnected(websocket: WebSocket) -> None:
    """Direct members: the room writes to the client; this only waits for the end (the
    client leaving, or the room closing a client that fell behind)."""
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


async def _pump(websocket: WebSocket, member: Member) -> None:
    """Backlog members: send the member's messages until the client leaves or falls too far
    behind."""
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
