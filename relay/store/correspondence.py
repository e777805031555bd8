"""Correspondence events (docs/correspondence.md): the event's control and start, the
players' addresses, leaves, notices of delay, and what the hub did about what fell due.
The moves themselves are the games' event logs, like every game's. Functions take a session
and never commit: the caller composes the transaction and commits it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from relay.store.models import (
    CorrespondenceAdjudicationStep,
    CorrespondenceConditional,
    CorrespondenceEvent,
    CorrespondenceLeave,
    CorrespondenceMail,
    CorrespondenceNotice,
    CorrespondencePlayer,
    CorrespondenceWithdrawal,
    Game,
    Round,
)
from relay.store.tournaments import NotFoundError


def create_event(
    session: Session,
    *,
    tournament_id: int,
    control: str,
    format: str,
    started: date,
    ts_email: str | None = None,
) -> CorrespondenceEvent:
    event = CorrespondenceEvent(
        tournament_id=tournament_id,
        control=control,
        format=format,
        started=started,
        ts_email=ts_email,
    )
    session.add(event)
    session.flush()
    return event


def get_event(session: Session, *, tournament_id: int) -> CorrespondenceEvent:
    event = session.get(CorrespondenceEvent, tournament_id)
    if event is None:
        raise NotFoundError(f"tournament {tournament_id} is not a correspondence event")
    return event


def list_events(session: Session) -> Sequence[CorrespondenceEvent]:
    return session.exec(
        select(CorrespondenceEvent).order_by(col(CorrespondenceEvent.tournament_id))
    ).all()


def event_of_game(session: Session, *, game_id: int) -> CorrespondenceEvent:
    """The correspondence event game ``game_id`` belongs to."""
    row = session.exec(
        select(CorrespondenceEvent)
        .join(Round, col(Round.tournament_id) == col(CorrespondenceEvent.tournament_id))
        .join(Game, col(Game.round_id) == col(Round.id))
        .where(Game.id == game_id)
    ).first()
    if row is None:
        raise NotFoundError(f"game {game_id} is not a game of a correspondence event")
    return row


def event_games(
    session: Session, *, tournament_id: int, game_id: int | None = None
) -> Sequence[Game]:
    """Every game of the event (or the one ``game_id``), by round and board."""
    query = (
        select(Game)
        .join(Round, col(Round.id) == col(Game.round_id))
        .where(Round.tournament_id == tournament_id)
    )
    if game_id is not None:
        query = query.where(Game.id == game_id)
    return session.exec(query.order_by(col(Round.number), col(Game.board))).all()


def set_contact(
    session: Session, *, player_id: int, email: str | None, time_zone: str = "UTC"
) -> CorrespondencePlayer:
    row = session.get(CorrespondencePlayer, player_id) or CorrespondencePlayer(player_id=player_id)
    row.email, row.time_zone = email, time_zone
    session.add(row)
    session.flush()
    return row


def contacts(session: Session, *, player_ids: Sequence[int]) -> dict[int, CorrespondencePlayer]:
    rows = session.exec(
        select(CorrespondencePlayer).where(col(CorrespondencePlayer.player_id).in_(player_ids))
    ).all()
    return {row.player_id: row for row in rows}


def add_leave(
    session: Session,
    *,
    tournament_id: int,
    player_id: int,
    announced: date,
    first: date,
    last: date,
) -> CorrespondenceLeave:
    row = CorrespondenceLeave(
        tournament_id=tournament_id,
        player_id=player_id,
        announced=announced,
        first=first,
        last=last,
    )
    session.add(row)
    session.flush()
    return row


def leaves(session: Session, *, tournament_id: int) -> Sequence[CorrespondenceLeave]:
    """Every leave announced in the event, oldest first."""
    return session.exec(
        select(CorrespondenceLeave)
        .where(CorrespondenceLeave.tournament_id == tournament_id)
        .order_by(col(CorrespondenceLeave.first), col(CorrespondenceLeave.id))
    ).all()


def add_notice(session: Session, *, game_id: int, ply: int, sent: date) -> bool:
    """Keep the notice for the move at ``ply``; False when that move has one already (the
    first stands)."""
    existing = session.exec(
        select(CorrespondenceNotice).where(
            CorrespondenceNotice.game_id == game_id, CorrespondenceNotice.ply == ply
        )
    ).first()
    if existing is not None:
        return False
    session.add(CorrespondenceNotice(game_id=game_id, ply=ply, sent=sent))
    session.flush()
    return True


def notices(session: Session, *, game_ids: Sequence[int]) -> dict[int, dict[int, date]]:
    """Each game's notices: game -> ply -> the day it was sent."""
    found: dict[int, dict[int, date]] = {}
    for row in session.exec(
        select(CorrespondenceNotice).where(col(CorrespondenceNotice.game_id).in_(game_ids))
    ):
        found.setdefault(row.game_id, {})[row.ply] = row.sent
    return found


def record_done(session: Session, row: CorrespondenceMail) -> bool:
    """Keep that the hub acted on something due; False (and nothing kept) when it had
    already, for the same game, move, kind and side."""
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return False
    return True


def done(session: Session, *, game_ids: Sequence[int]) -> Sequence[CorrespondenceMail]:
    """What the hub acted on in these games, oldest first."""
    return session.exec(
        select(CorrespondenceMail)
        .where(col(CorrespondenceMail.game_id).in_(game_ids))
        .order_by(col(CorrespondenceMail.id))
    ).all()


def set_conditional(
    session: Session, *, game_id: int, proposer: str, fen: str, steps: list[tuple[str, str]]
) -> None:
    """Keep the sequence that binds ``proposer`` in the game (replacing any before it)."""
    row = session.get(CorrespondenceConditional, game_id) or CorrespondenceConditional(
        game_id=game_id, proposer=proposer, fen=fen, steps="[]"
    )
    row.proposer, row.fen, row.steps = proposer, fen, json.dumps(steps)
    session.add(row)
    session.flush()


def get_conditional(session: Session, *, game_id: int) -> CorrespondenceConditional | None:
    return session.get(CorrespondenceConditional, game_id)


def drop_conditional(session: Session, *, game_id: int) -> None:
    row = session.get(CorrespondenceConditional, game_id)
    if row is not None:
        session.delete(row)
        session.flush()


def add_withdrawal(session: Session, row: CorrespondenceWithdrawal) -> None:
    session.add(row)
    session.flush()


def withdrawals(session: Session, *, tournament_id: int) -> Sequence[CorrespondenceWithdrawal]:
    """The event's withdrawals, in the order they happened."""
    return session.exec(
        select(CorrespondenceWithdrawal)
        .where(CorrespondenceWithdrawal.tournament_id == tournament_id)
        .order_by(col(CorrespondenceWithdrawal.on), col(CorrespondenceWithdrawal.player_id))
    ).all()


def adjudication_steps(
    session: Session, *, game_ids: Sequence[int]
) -> dict[int, list[CorrespondenceAdjudicationStep]]:
    """Each game's adjudication steps, in order."""
    found: dict[int, list[CorrespondenceAdjudicationStep]] = {}
    for row in session.exec(
        select(CorrespondenceAdjudicationStep)
        .where(col(CorrespondenceAdjudicationStep.game_id).in_(game_ids))
        .order_by(
            col(CorrespondenceAdjudicationStep.game_id), col(CorrespondenceAdjudicationStep.seq)
        )
    ):
        found.setdefault(row.game_id, []).append(row)
    return found


def add_adjudication_step(
    session: Session, *, game_id: int, action: str, on: date, data: str, by: str
) -> CorrespondenceAdjudicationStep:
    """Append a step after the game's last (the unique (game, seq) refuses a step written
    by two at once)."""
    steps = adjudication_steps(session, game_ids=[game_id]).get(game_id, [])
    row = CorrespondenceAdjudicationStep(
        game_id=game_id, seq=len(steps) + 1, action=action, on=on, data=data, by=by
    )
    session.add(row)
    session.flush()
    return row
