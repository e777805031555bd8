"""Websocket streams of a game's or a round's events.

Every message is JSON with a ``type``. A game stream first replays the stored events after
``?since=V`` and then sends new ones live; a round stream first sends a ``snapshot`` of every
board and then the events of all its games. Events carry their game's version ``v``, so a
client that reconnects asks for what it missed. A client whose ``since`` is ahead of the
log (it saw a database that has since been replaced) gets ``{"type": "reload"}`` and the
whole log from the start.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from relay.api.rooms import Member, Rooms, encode_event
from relay.api.summaries import game_summary
from relay.bus.messages import Published, game_topic, round_topic
from relay.hub.hub import Hub
from relay.store.games import NotFoundError, StoredEvent, get_game, get_round, list_games
from relay.store.games import read_events as read_log

router = APIRouter(prefix="/api")

T = TypeVar("T")

#: Close code for "try again later": the client fell too far behind.
CLOSE_TRY_AGAIN = 1013
CLOSE_NOT_FOUND = 4404


@router.websocket("/games/{game_id}/stream")
async def game_stream(websocket: WebSocket, game_id: int, since: int = 0) -> None:
    def load(session: Session) -> list[StoredEvent]:
        get_game(session, game_id=game_id)
        return read_log(session, game_id=game_id)

    async def start(member: Member, stored: list[StoredEvent]) -> None:
        after = since
        newest = stored[-1].seq if stored else 0
        if after > newest:
            await websocket.send_text(json.dumps({"type": "reload"}))
            after = 0
        member.sent[game_id] = after
        for item in stored:
            if item.seq > after:
                message = Published(0, item.game_id, item.seq, item.kind, item.data)
                await websocket.send_text(encode_event(message))
                member.sent[game_id] = item.seq

    await _serve(websocket, game_topic(game_id), load, start, f"no game {game_id}")


@router.websocket("/rounds/{round_id}/stream")
async def round_stream(websocket: WebSocket, round_id: int) -> None:
    def load(session: Session) -> list[dict[str, Any]]:
        get_round(session, round_id=round_id)
        return [
            game_summary(game, read_log(session, game_id=game.id or 0))
            for game in list_games(session, round_id=round_id)
        ]

    async def start(member: Member, boards: list[dict[str, Any]]) -> None:
        for board in boards:
            member.sent[board["id"]] = board["v"]
        await websocket.send_text(json.dumps({"type": "snapshot", "games": boards}))

    await _serve(websocket, round_topic(round_id), load, start, f"no round {round_id}")


async def _serve(
    websocket: WebSocket,
    topic: str,
    load: Callable[[Session], T],
    start: Callable[[Member, T], Any],
    missing: str,
) -> None:
    """Join the topic's room, send what is stored, then what is published, until the end.

    The client joins before the store is read, so nothing committed in between is missed;
    what arrives both ways is sent once, by version.
    """
    hub: Hub = websocket.app.state.hub
    rooms: Rooms = websocket.app.state.rooms
    await websocket.accept()
    member = rooms.join(topic)
    try:
        try:
            stored = await run_in_threadpool(_read, hub, load)
        except NotFoundError:
            await websocket.close(CLOSE_NOT_FOUND, missing)
            return
        await start(member, stored)
        await _pump(websocket, member)
    except WebSocketDisconnect:
        pass  # the client left; nothing to tell anyone
    finally:
        member.room.leave(member)


def _read(hub: Hub, work: Callable[[Session], T]) -> T:
    with Session(hub.engine) as session:
        return work(session)


async def _pump(websocket: WebSocket, member: Member) -> None:
    """Send the member's messages until the client leaves or falls too far behind."""
    listener = asyncio.create_task(_wait_for_close(websocket, member))
    try:
        while (item := await member.next()) is not None:
            await websocket.send_text(item.text)
        if member.overflowed:
            await websocket.close(CLOSE_TRY_AGAIN, "too far behind; resume from your version")
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
