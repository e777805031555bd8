"""Each game's append-only event log: numbered from 1 within the game, with no gaps."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert
from sqlmodel import Session, col, select

from relay.store.models import Game, GameEventRow


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as it stands in a game's log."""

    game_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    recorded_at: float


_LOG = GameEventRow.__table__  # type: ignore[attr-defined]
# Built once: a statement keeps its cache key, so each use is a lookup in the compiled cache.
_LAST_SEQ = select(func.max(_LOG.c.seq)).where(_LOG.c.game_id == bindparam("game_id"))
_INSERT = insert(_LOG)


def numbered(
    game_id: int, last: int, events: Sequence[tuple[str, Mapping[str, Any]]], recorded_at: float
) -> list[StoredEvent]:
    """``(kind, data)`` events as a game's log stores them, numbered on from ``last``."""
    return [
        StoredEvent(game_id, last + n, kind, dict(data), recorded_at)
        for n, (kind, data) in enumerate(events, start=1)
    ]


def encode_data(data: Mapping[str, Any]) -> str:
    """An event's data as the log's ``data`` column holds it."""
    return json.dumps(data, separators=(",", ":"))


def append_events(
    session: Session,
    *,
    game_id: int,
    events: Sequence[tuple[str, Mapping[str, Any]]],
    recorded_at: float,
) -> list[StoredEvent]:
    """Append ``(kind, data)`` events to a game's log, in the caller's transaction: the
    caller commits them (with whatever else it writes with them) before publishing them.

    Sequence numbers continue the game's log. The unique (game, seq) constraint makes a
    second writer fail rather than fork the log. (A live round's moves take a faster path
    with the same rules: :class:`relay.store.log_appender.LogAppender`.)
    """
    stored = numbered(game_id, last_seq(session, game_id=game_id), events, recorded_at)
    if stored:
        session.connection().execute(
            _INSERT,
            [
                {
                    "game_id": game_id,
                    "seq": item.seq,
                    "kind": item.kind,
                    "data": encode_data(item.data),
                    "recorded_at": recorded_at,
                }
                for item in stored
            ],
        )
    return stored


def read_events(session: Session, *, game_id: int, after: int = 0) -> list[StoredEvent]:
    """A game's events with ``seq > after``, in order."""
    rows = session.exec(
        select(GameEventRow)
        .where(GameEventRow.game_id == game_id, GameEventRow.seq > after)
        .order_by(col(GameEventRow.seq))
    ).all()
    return [_stored(row) for row in rows]


def read_round_events(session: Session, *, round_id: int) -> dict[int, list[StoredEvent]]:
    """The logs of every game of a round in one query, by game id (empty logs included)."""
    ids = session.exec(select(Game.id).where(Game.round_id == round_id)).all()
    logs: dict[int, list[StoredEvent]] = {game_id: [] for game_id in ids if game_id is not None}
    rows = session.exec(
        select(GameEventRow)
        .join(Game, col(Game.id) == col(GameEventRow.game_id))
        .where(Game.round_id == round_id)
        .order_by(col(GameEventRow.game_id), col(GameEventRow.seq))
    ).all()
    for row in rows:
        logs[row.game_id].append(_stored(row))
    return logs


def last_seq(session: Session, *, game_id: int) -> int:
    return int(session.connection().execute(_LAST_SEQ, {"game_id": game_id}).scalar() or 0)


def _stored(row: GameEventRow) -> StoredEvent:
    return StoredEvent(row.game_id, row.seq, row.kind, json.loads(row.data), row.recorded_at)
