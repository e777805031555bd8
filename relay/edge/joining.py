"""What a stream follows and how a client joins it: the same on every server.

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

Under uvicorn :mod:`relay.edge.protocol` serves the stream paths; on any other server
:mod:`relay.edge.asgi` does. Both join here (:func:`join_stream`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from relay.bus.messages import Published, game_topic, round_topic
from relay.domain.errors import RefusedError
from relay.edge.board_range import BoardRange
from relay.edge.frames import FrameWriter
from relay.edge.rooms import Member, Rooms, encode_event
from relay.hub.game_views import GameView
from relay.hub.hub import Hub
from relay.store.access import Identity, identify
from relay.store.models import Round
from relay.store.tournaments import NotFoundError, get_round

CLOSE_NOT_FOUND = 4404
CLOSE_UNAUTHORIZED = 4401


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


async def token_identity(hub: Hub, token: str) -> Identity | None:
    """The user of a valid token; None for one that is not valid (unknown or revoked)."""
    return await hub.recorder.read(lambda session: identify(session, token))


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
        identity = await token_identity(hub, token)
        if identity is None:
            raise StreamRefusedError(CLOSE_UNAUTHORIZED, "the token is not valid")
        if not identity.staff:
            identity = None  # a device token reads what the public reads
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
