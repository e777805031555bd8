"""Data functions for tournaments, players, rounds, electronic boards and pairings.

They never commit: each takes the caller's session, adds and flushes, and the caller
commits the transaction it composed (or lets it roll back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TypeVar

from sqlmodel import Session, col, select

from relay.domain.clock.orientation import clock_setting
from relay.domain.errors import MissingError, RefusedError
from relay.store.models import EBoard, Game, Player, Round, Tournament

RowT = TypeVar("RowT", EBoard, Game, Player, Round, Tournament)


class NotFoundError(LookupError, MissingError):
    """The asked-for row does not exist."""


class ConflictError(ValueError, RefusedError):
    """The change contradicts what is stored (a board taken twice, a player paired twice)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game with everything its headers and summaries show."""

    game: Game
    round: Round
    tournament: Tournament
    white: Player
    black: Player
    eboard: EBoard | None

    @property
    def game_id(self) -> int:
        assert self.game.id is not None
        return self.game.id


def create_tournament(
    session: Session,
    *,
    name: str,
    site: str = "?",
    start_date: date | None = None,
    end_date: date | None = None,
    time_control: str | None = None,
    rounds_planned: int | None = None,
) -> Tournament:
    tournament = Tournament(
        name=name,
        site=site,
        start_date=start_date,
        end_date=end_date,
        time_control=time_control,
        rounds_planned=rounds_planned,
    )
    return _add(session, tournament)


def add_player(
    session: Session,
    *,
    tournament_id: int,
    start_number: int,
    name: str,
    fide_id: int | None = None,
    title: str | None = None,
    rating: int | None = None,
    federation: str | None = None,
    team: str | None = None,
) -> Player:
    player = Player(
        tournament_id=tournament_id,
        start_number=start_number,
        name=name,
        fide_id=fide_id,
        title=title,
        rating=rating,
        federation=federation,
        team=team,
    )
    return _add(session, player)


def create_round(
    session: Session,
    *,
    tournament_id: int,
    number: int,
    starts_at: datetime | None = None,
    delay_seconds: int = 0,
    published: bool = False,
) -> Round:
    round_ = Round(
        tournament_id=tournament_id,
        number=number,
        starts_at=starts_at,
        delay_seconds=delay_seconds,
        published=published,
    )
    return _add(session, round_)


def add_eboard(
    session: Session,
    *,
    tournament_id: int,
    number: int,
    url: str,
    driver: str = "dgt",
    clock: str = "auto",
) -> EBoard:
    eboard = EBoard(tournament_id=tournament_id, number=number, url=url, driver=driver, clock=clock)
    return _add(session, eboard)


def create_game(
    session: Session,
    *,
    round_id: int,
    board: int,
    white_id: int,
    black_id: int,
    eboard_id: int | None = None,
) -> Game:
    game = Game(
        round_id=round_id, board=board, white_id=white_id, black_id=black_id, eboard_id=eboard_id
    )
    return _add(session, game)


def _add(session: Session, row: RowT) -> RowT:
    """Add (or update) ``row`` and flush it, so it has its id; the caller commits."""
    session.add(row)
    session.flush()
    return row


def get_game(session: Session, *, game_id: int) -> Game:
    return _get(session, Game, game_id)


def get_round(session: Session, *, round_id: int) -> Round:
    return _get(session, Round, round_id)


def get_tournament(session: Session, *, tournament_id: int) -> Tournament:
    return _get(session, Tournament, tournament_id)


def get_eboard(session: Session, *, eboard_id: int) -> EBoard:
    return _get(session, EBoard, eboard_id)


def _get(session: Session, model: type[RowT], key: int) -> RowT:
    row = session.get(model, key)
    if row is None:
        raise NotFoundError(f"{model.__name__.lower()} {key}")
    return row


def list_tournaments(session: Session) -> Sequence[Tournament]:
    return session.exec(select(Tournament).order_by(col(Tournament.id))).all()


def list_rounds(session: Session, *, tournament_id: int | None = None) -> Sequence[Round]:
    query = select(Round).order_by(col(Round.tournament_id), col(Round.number))
    if tournament_id is not None:
        query = query.where(Round.tournament_id == tournament_id)
    return session.exec(query).all()


def list_players(session: Session, *, tournament_id: int) -> Sequence[Player]:
    return session.exec(
        select(Player)
        .where(Player.tournament_id == tournament_id)
        .order_by(col(Player.start_number))
    ).all()


def list_eboards(session: Session, *, tournament_id: int) -> Sequence[EBoard]:
    return session.exec(
        select(EBoard).where(EBoard.tournament_id == tournament_id).order_by(col(EBoard.number))
    ).all()


def list_games(session: Session, *, round_id: int | None = None) -> Sequence[Game]:
    query = select(Game).order_by(col(Game.round_id), col(Game.board))
    if round_id is not None:
        query = query.where(Game.round_id == round_id)
    return session.exec(query).all()


def round_pairings(session: Session, *, round_id: int) -> list[Pairing]:
    """A round's games with their players and boards, in board order."""
    round_ = get_round(session, round_id=round_id)
    tournament = get_tournament(session, tournament_id=round_.tournament_id)
    players = {p.id: p for p in list_players(session, tournament_id=tournament.id or 0)}
    eboards = {b.id: b for b in list_eboards(session, tournament_id=tournament.id or 0)}
    return [
        Pairing(
            game,
            round_,
            tournament,
            players[game.white_id],
            players[game.black_id],
            eboards.get(game.eboard_id) if game.eboard_id is not None else None,
        )
        for game in list_games(session, round_id=round_id)
    ]


def game_pairing(session: Session, *, game_id: int) -> Pairing:
    game = get_game(session, game_id=game_id)
    round_ = get_round(session, round_id=game.round_id)
    return Pairing(
        game,
        round_,
        get_tournament(session, tournament_id=round_.tournament_id),
        _get(session, Player, game.white_id),
        _get(session, Player, game.black_id),
        None if game.eboard_id is None else get_eboard(session, eboard_id=game.eboard_id),
    )


def set_round_delay(session: Session, *, round_id: int, seconds: int) -> Round:
    round_ = get_round(session, round_id=round_id)
    round_.delay_seconds = seconds
    return _add(session, round_)


def publish_round(session: Session, *, round_id: int, published: bool = True) -> Round:
    round_ = get_round(session, round_id=round_id)
    round_.published = published
    return _add(session, round_)


def set_eboard_clock(session: Session, *, eboard_id: int, clock: str) -> EBoard:
    """Change an electronic board's clock setting (``auto``, ``white-left``, ``white-right``)."""
    eboard = get_eboard(session, eboard_id=eboard_id)
    eboard.clock = clock_setting(clock)
    return _add(session, eboard)


def set_eboard_url(session: Session, *, eboard_id: int, url: str) -> EBoard:
    """Move an electronic board to another port (a USB board replugged comes back as another
    ``/dev/ttyACM*``); the games assigned to it keep it."""
    eboard = get_eboard(session, eboard_id=eboard_id)
    eboard.url = url
    return _add(session, eboard)


def eboards_for_round(session: Session, *, round_: Round) -> dict[int, int]:
    """Which electronic board each board number of ``round_`` gets when it is paired: the
    one that board number has now in this round, else in the latest earlier round that was
    paired (so an operator's reassignment carries on into the next round), else the
    e-board of the same number; an e-board goes to one board at most.

    A board number that had no e-board before gets the one of its number if no other board
    keeps it: a board added to the event file since is used, a broken one taken off comes
    back and its attach says what is wrong.
    """
    numbered = {e.number: e.id for e in list_eboards(session, tournament_id=round_.tournament_id)}
    before: dict[int, int] = {}
    for earlier in reversed(list_rounds(session, tournament_id=round_.tournament_id)):
        if earlier.number > round_.number or earlier.id is None:
            continue
        games = list_games(session, round_id=earlier.id)
        if games:
            before = {g.board: g.eboard_id for g in games if g.eboard_id is not None}
            break
    kept = set(before.values())
    plan = dict(before)
    for number, eboard_id in numbered.items():
        if number not in plan and eboard_id is not None and eboard_id not in kept:
            plan[number] = eboard_id
    return plan


def games_on_eboard(session: Session, *, eboard_id: int) -> list[int]:
    """The games, of any round, the electronic board is assigned to."""
    query = select(Game.id).where(Game.eboard_id == eboard_id)
    return [game_id for game_id in session.exec(query).all() if game_id is not None]


def assign_eboard(session: Session, *, game_id: int, eboard_id: int | None) -> Game:
    """Put an electronic board on a game, taking it off any other game of the round."""
    game = get_game(session, game_id=game_id)
    if eboard_id is not None:
        eboard = get_eboard(session, eboard_id=eboard_id)
        round_ = get_round(session, round_id=game.round_id)
        if eboard.tournament_id != round_.tournament_id:
            raise ConflictError(f"board {eboard_id} belongs to another tournament")
        taken = session.exec(
            select(Game).where(
                Game.round_id == game.round_id, Game.eboard_id == eboard_id, Game.id != game_id
            )
        ).first()
        if taken is not None:
            raise ConflictError(f"board {eboard.number} already plays board {taken.board}")
    game.eboard_id = eboard_id
    return _add(session, game)
