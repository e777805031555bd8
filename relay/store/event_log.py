"""Data functions for tournaments, rounds, games and the per-game event log."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from sqlalchemy import func
from sqlmodel import Session, col, select

from relay.store.models import Game, GameEventRow, Round, Tournament

RowT = TypeVar("RowT", Game, Round, Tournament)


class NotFoundError(LookupError):
    """The asked-for row does not exist."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as it stands in a game's log."""

    game_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    recorded_at: float


def create_tournament(
    session: Session, *, name: str, site: str = "?", start_date: date | None = None
) -> Tournament:
    tournament = Tournament(name=name, site=site, start_date=start_date)
    session.add(tournament)
    session.commit()
    session.refresh(tournament)
    return tournament


def create_round(session: Session, *, tournament_id: int, number: int) -> Round:
    round_ = Round(tournament_id=tournament_id, number=number)
    session.add(round_)
    session.commit()
    session.refresh(round_)
    return round_


def create_game(
    session: Session,
    *,
    round_id: int,
    board: int,
    white: str,
    black: str,
    white_elo: int | None = None,
    black_elo: int | None = None,
) -> Game:
    game = Game(
        round_id=round_id,
        board=board,
        white=white,
        black=black,
        white_elo=white_elo,
        black_elo=black_elo,
    )
    session.add(game)
    session.commit()
    session.refresh(game)
    return game


def get_game(session: Session, *, game_id: int) -> Game:
    return _get(session, Game, game_id)


def get_round(session: Session, *, round_id: int) -> Round:
    return _get(session, Round, round_id)


def get_tournament(session: Session, *, tournament_id: int) -> Tournament:
    return _get(session, Tournament, tournament_id)


def _get(session: Session, model: type[RowT], key: int) -> RowT:
    row = session.get(model, key)
    if row is None:
        raise NotFoundError(f"{model.__name__.lower()} {key}")
    return row


def list_rounds(session: Session) -> Sequence[Round]:
    return session.exec(select(Round).order_by(col(Round.tournament_id), col(Round.number))).all()


def list_games(session: Session, *, round_id: int | None = None) -> Sequence[Game]:
    query = select(Game).order_by(col(Game.round_id), col(Game.board))
    if round_id is not None:
        query = query.where(Game.round_id == round_id)
    return session.exec(query).all()


def append_events(
    session: Session,
    *,
    game_id: int,
    events: Sequence[tuple[str, Mapping[str, Any]]],
    recorded_at: float,
) -> list[StoredEvent]:
    """Append ``(kind, data)`` events to a game's log and commit them as one transaction.

    Sequence numbers continue the game's log. The unique (game, seq) constraint makes a
    second writer fail rather than fork the log.
    """
    last = session.exec(
        select(func.max(GameEventRow.seq)).where(GameEventRow.game_id == game_id)
    ).one()
    seq = last or 0
    stored: list[StoredEvent] = []
    for kind, data in events:
        seq += 1
        row = GameEventRow(
            game_id=game_id,
            seq=seq,
            kind=kind,
            data=json.dumps(data, separators=(",", ":")),
            recorded_at=recorded_at,
        )
        session.add(row)
        stored.append(StoredEvent(game_id, seq, kind, dict(data), recorded_at))
    session.commit()
    return stored


def read_events(session: Session, *, game_id: int, after: int = 0) -> list[StoredEvent]:
    """A game's events with ``seq > after``, in order."""
    rows = session.exec(
        select(GameEventRow)
        .where(GameEventRow.game_id == game_id, GameEventRow.seq > after)
        .order_by(col(GameEventRow.seq))
    ).all()
    return [
        StoredEvent(row.game_id, row.seq, row.kind, json.loads(row.data), row.recorded_at)
        for row in rows
    ]
