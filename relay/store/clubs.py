"""Clubs, their members, ladders and games, and each game's append-only result log
(docs/ladders.md). Functions take a session and never commit: the caller composes the
transaction (the change and its audit entry) and commits it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from sqlmodel import Session, col, select

from relay.domain.ladder.rules import LadderRate
from relay.domain.results import Result
from relay.store.models import Club, ClubGame, ClubMember, ClubResultRow, LadderRow
from relay.store.tournaments import ConflictError, NotFoundError


def create_club(session: Session, *, name: str) -> Club:
    club = Club(name=name)
    session.add(club)
    session.flush()
    return club


def get_club(session: Session, *, club_id: int) -> Club:
    club = session.get(Club, club_id)
    if club is None:
        raise NotFoundError(f"no club {club_id}")
    return club


def add_member(
    session: Session, *, club_id: int, name: str, ecf_member: bool, grading_code: str | None
) -> ClubMember:
    get_club(session, club_id=club_id)
    member = ClubMember(
        club_id=club_id, name=name, ecf_member=ecf_member, grading_code=grading_code
    )
    session.add(member)
    session.flush()
    return member


def get_member(session: Session, *, club_id: int, member_id: int) -> ClubMember:
    member = session.get(ClubMember, member_id)
    if member is None or member.club_id != club_id:
        raise NotFoundError(f"no member {member_id} in club {club_id}")
    return member


def list_members(session: Session, *, club_id: int) -> Sequence[ClubMember]:
    return session.exec(
        select(ClubMember).where(ClubMember.club_id == club_id).order_by(col(ClubMember.id))
    ).all()


def add_ladder(session: Session, *, club_id: int, ladder: LadderRow) -> LadderRow:
    get_club(session, club_id=club_id)
    ladder.club_id = club_id
    session.add(ladder)
    session.flush()
    return ladder


def get_ladder(session: Session, *, ladder_id: int, club_id: int | None = None) -> LadderRow:
    """The ladder; with ``club_id``, only when it is that club's."""
    ladder = session.get(LadderRow, ladder_id)
    if ladder is None or (club_id is not None and ladder.club_id != club_id):
        raise NotFoundError(f"no ladder {ladder_id}")
    return ladder


def list_ladders(session: Session, *, club_id: int) -> Sequence[LadderRow]:
    return session.exec(
        select(LadderRow).where(LadderRow.club_id == club_id).order_by(col(LadderRow.id))
    ).all()


def delete_ladder(session: Session, *, club_id: int, ladder_id: int) -> LadderRow:
    ladder = get_ladder(session, ladder_id=ladder_id, club_id=club_id)
    session.delete(ladder)
    session.flush()
    return ladder


def add_club_game(
    session: Session,
    *,
    club_id: int,
    played_on: date,
    rate: LadderRate,
    white_id: int,
    black_id: int,
    game_id: int | None = None,
) -> ClubGame:
    for member_id in (white_id, black_id):
        get_member(session, club_id=club_id, member_id=member_id)
    if game_id is not None:
        # A deleted club game holds no tag: the board game may be tagged again.
        tagged = session.exec(
            select(ClubGame.id).where(ClubGame.club_id == club_id, ClubGame.game_id == game_id)
        ).all()
        logs = result_logs(session, club_game_ids=[i for i in tagged if i is not None])
        for linked, log in logs.items():
            if not log or log[-1].result is not None:
                raise ConflictError(f"game {game_id} is club game {linked} already")
    game = ClubGame(
        club_id=club_id,
        played_on=played_on,
        rate=rate,
        white_id=white_id,
        black_id=black_id,
        game_id=game_id,
    )
    session.add(game)
    session.flush()
    return game


def get_club_game(session: Session, *, club_id: int, club_game_id: int) -> ClubGame:
    game = session.get(ClubGame, club_game_id)
    if game is None or game.club_id != club_id:
        raise NotFoundError(f"no game {club_game_id} in club {club_id}")
    return game


def list_club_games(
    session: Session, *, club_id: int, offset: int = 0, limit: int | None = None
) -> Sequence[ClubGame]:
    """The club's games in the order they were entered (``offset``, ``limit``: a page)."""
    query = select(ClubGame).where(ClubGame.club_id == club_id).order_by(col(ClubGame.id))
    if offset:
        query = query.offset(offset)
    if limit is not None:
        query = query.limit(limit)
    return session.exec(query).all()


def append_result(
    session: Session,
    *,
    club_game_id: int,
    result: Result | None,
    by: str,
    at: float,
    reason: str = "",
) -> ClubResultRow:
    """Append an entry to the game's result log: its result, or None for a deletion."""
    last = session.exec(
        select(ClubResultRow.seq)
        .where(ClubResultRow.club_game_id == club_game_id)
        .order_by(col(ClubResultRow.seq).desc())
    ).first()
    row = ClubResultRow(
        club_game_id=club_game_id,
        seq=(last or 0) + 1,
        result=None if result is None else result.value,
        by=by,
        at=at,
        reason=reason,
    )
    session.add(row)
    session.flush()
    return row


def result_logs(
    session: Session, *, club_game_ids: Iterable[int]
) -> dict[int, list[ClubResultRow]]:
    """The result logs of the games, in order, by game id (empty logs included)."""
    ids = list(club_game_ids)
    logs: dict[int, list[ClubResultRow]] = {game_id: [] for game_id in ids}
    if not ids:
        return logs
    rows = session.exec(
        select(ClubResultRow)
        .where(col(ClubResultRow.club_game_id).in_(ids))
        .order_by(col(ClubResultRow.club_game_id), col(ClubResultRow.seq))
    ).all()
    for row in rows:
        logs[row.club_game_id].append(row)
    return logs
