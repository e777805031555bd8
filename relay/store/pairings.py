"""Data functions for what the tournament engine changes: a round's pairings and byes,
withdrawals, and a tournament's pairing system and tie-break order.

None of them commits: the caller owns the transaction (see :mod:`relay.store.tournaments`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, col, delete, func, select

from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.vocabulary import UnknownWordError
from relay.store.models import (
    Bye,
    ClubGame,
    Game,
    GameEventRow,
    Player,
    Round,
    Tournament,
)
from relay.store.tournaments import (
    ConflictError,
    NotFoundError,
    create_round,
    eboards_for_round,
    get_round,
    get_tournament,
)


def list_byes(session: Session, *, round_id: int) -> Sequence[Bye]:
    return session.exec(select(Bye).where(Bye.round_id == round_id).order_by(col(Bye.id))).all()


def tournament_byes(session: Session, *, tournament_id: int) -> dict[int, list[Bye]]:
    """Every round's byes, by round id."""
    rows = session.exec(
        select(Bye)
        .join(Round, col(Round.id) == col(Bye.round_id))
        .where(Round.tournament_id == tournament_id)
        .order_by(col(Bye.id))
    ).all()
    byes: dict[int, list[Bye]] = {}
    for row in rows:
        byes.setdefault(row.round_id, []).append(row)
    return byes


def round_has_play(session: Session, *, round_id: int) -> bool:
    """Whether any game of the round has something in its log (a move, a result)."""
    count = session.exec(
        select(func.count())
        .select_from(GameEventRow)
        .join(Game, col(Game.id) == col(GameEventRow.game_id))
        .where(Game.round_id == round_id)
    ).one()
    return bool(count)


def set_pairings(
    session: Session,
    *,
    round_id: int,
    games: Sequence[tuple[int, int]],
    byes: Sequence[tuple[int, ByeKind]],
) -> None:
    """Replace the round's games (board 1 first, ``(white, black)`` player ids) and byes.

    Each game is played on the tournament's electronic board of its board number, if it has
    one (the event file's ``[[board]]``: "board 1 of every round is played on this board").
    Refused with :class:`ConflictError` once a game of the round has begun, for a player of
    another tournament, a player twice, or a withdrawn player; nothing is changed then.
    """
    round_ = get_round(session, round_id=round_id)
    if round_has_play(session, round_id=round_id):
        raise ConflictError(f"round {round_.number} has begun: its pairings stay")
    players = {
        p.id: p
        for p in session.exec(select(Player).where(Player.tournament_id == round_.tournament_id))
    }
    seen: set[int] = set()
    for player_id in [p for pair in games for p in pair] + [p for p, _ in byes]:
        player = players.get(player_id)
        if player is None:
            raise ConflictError(f"player {player_id} is not in this tournament")
        if player_id in seen:
            raise ConflictError(f"{player.name} is paired twice in round {round_.number}")
        if player.withdrawn_after is not None and player.withdrawn_after < round_.number:
            raise ConflictError(f"{player.name} withdrew after round {player.withdrawn_after}")
        seen.add(player_id)
    for _, kind in byes:
        _known(kind)
    eboards = eboards_for_round(session, round_=round_)
    # Club games tagged with the round's games (docs/ladders.md) keep their tags where the
    # same board has the same players after this; the others lose them. SQLite gives a new
    # row the id of a deleted one, so a tag left alone would follow another pairing.
    tagged = session.exec(
        select(ClubGame, Game)
        .join(Game, col(ClubGame.game_id) == col(Game.id))
        .where(col(Game.round_id) == round_id)
    ).all()
    session.exec(delete(Game).where(col(Game.round_id) == round_id))
    session.exec(delete(Bye).where(col(Bye.round_id) == round_id))
    added = [
        Game(
            round_id=round_id,
            board=board,
            white_id=white,
            black_id=black,
            eboard_id=eboards.get(board),
        )
        for board, (white, black) in enumerate(games, start=1)
    ]
    session.add_all(added)
    for player_id, kind in byes:
        session.add(Bye(round_id=round_id, player_id=player_id, kind=kind))
    session.flush()
    kept = {(game.board, game.white_id, game.black_id): game.id for game in added}
    for club_game, old in tagged:
        club_game.game_id = kept.get((old.board, old.white_id, old.black_id))
        session.add(club_game)
    session.flush()


def set_bye(session: Session, *, round_id: int, player_id: int, kind: ByeKind | None) -> None:
    """Give ``player_id`` a bye of ``kind`` in the round (None takes it away). A player
    already paired in the round cannot have one."""
    round_ = get_round(session, round_id=round_id)
    player = session.get(Player, player_id)
    if player is None or player.tournament_id != round_.tournament_id:
        raise NotFoundError(f"no player {player_id} in this tournament")
    if kind is not None:
        _known(kind)
    paired = session.exec(
        select(Game).where(
            Game.round_id == round_id,
            (col(Game.white_id) == player_id) | (col(Game.black_id) == player_id),
        )
    ).first()
    if kind is not None and paired is not None:
        raise ConflictError(f"{player.name} plays board {paired.board} in round {round_.number}")
    session.exec(delete(Bye).where(col(Bye.round_id) == round_id, col(Bye.player_id) == player_id))
    if kind is not None:
        session.add(Bye(round_id=round_id, player_id=player_id, kind=kind))
    session.flush()


def _known(kind: str) -> None:
    """Refuse a bye kind that is none (text passed past the type checker)."""
    try:
        ByeKind.parse(kind)
    except UnknownWordError:
        raise ConflictError(f"a bye is one of {', '.join(ByeKind)}, not {kind!r}") from None


def withdraw(session: Session, *, player_id: int, after_round: int | None) -> Player:
    """The player plays no round after ``after_round`` (None: back in the tournament)."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFoundError(f"no player {player_id}")
    player.withdrawn_after = after_round
    session.add(player)
    session.flush()
    return player


def set_tournament_rules(
    session: Session,
    *,
    tournament_id: int,
    pairing_system: PairingSystem | None,
    tie_breaks: Sequence[str] | None,
    tie_break_edition: str | None = None,
) -> Tournament:
    """Store the tournament's pairing system, tie-break order and C.07 edition (None: the
    default order; the edition in force at the start date)."""
    tournament = get_tournament(session, tournament_id=tournament_id)
    tournament.pairing_system = pairing_system
    tournament.tie_breaks = None if tie_breaks is None else ", ".join(tie_breaks)
    tournament.tie_break_edition = tie_break_edition
    session.add(tournament)
    session.flush()
    return tournament


def round_numbered(session: Session, *, tournament_id: int, number: int) -> Round:
    """The tournament's round ``number``, created (unpublished, empty) if it is not there."""
    found = session.exec(
        select(Round).where(Round.tournament_id == tournament_id, Round.number == number)
    ).first()
    if found is not None:
        return found
    return create_round(session, tournament_id=tournament_id, number=number)


def player_numbered(session: Session, *, tournament_id: int, start_number: int) -> Player:
    player = session.exec(
        select(Player).where(
            Player.tournament_id == tournament_id, Player.start_number == start_number
        )
    ).first()
    if player is None:
        raise NotFoundError(f"no player with start number {start_number}")
    return player
