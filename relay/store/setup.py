"""Storing an event file: what is new is added, what is stored stays as it is.

Loading the same file again (``relay serve EVENT_FILE`` after a restart) changes nothing;
a file that gained a round or a board adds it. A board whose port (``url``) or clock setting
the file changed since it was last loaded takes the new value; one the file did not change
keeps what the operator set on the console since. Either is said in the report's notes,
never done in silence. A file that contradicts what is stored (a round already paired
differently) is refused as a whole, so nothing is half-loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from relay.domain.formats.event_file import BoardSetup, EventSetup, PlayerSetup
from relay.store.models import EBoard, Game, Player, Round, Tournament
from relay.store.tournaments import (
    ConflictError,
    add_eboard,
    add_player,
    create_game,
    create_round,
    create_tournament,
    eboards_for_round,
    list_games,
)


@dataclass(frozen=True, slots=True)
class LoadReport:
    tournament_id: int
    created: bool
    players: int
    boards: int
    rounds: int
    games: int
    #: Stored boards whose port or clock setting the file changed (the hub follows them
    #: again by it), by id.
    changed_boards: tuple[int, ...] = ()
    #: A line for each stored board the file differs from: what was applied, what kept.
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        verb = "created" if self.created else "updated"
        return "\n".join(
            (
                f"tournament {self.tournament_id} {verb}: added {self.players} players, "
                f"{self.boards} boards, {self.rounds} rounds, {self.games} games",
                *self.notes,
            )
        )


def load_event(session: Session, setup: EventSetup) -> LoadReport:
    """Add ``setup`` to the session (the caller commits it as one transaction, or rolls it
    back); raises :class:`ConflictError` on a contradiction, leaving the session to be rolled
    back."""
    wanted = setup.tournament
    tournament = session.exec(select(Tournament).where(Tournament.name == wanted.name)).first()
    created = tournament is None
    if tournament is None:
        tournament = create_tournament(
            session,
            name=wanted.name,
            site=wanted.site,
            start_date=wanted.start_date,
            end_date=wanted.end_date,
            time_control=wanted.time_control,
            rounds_planned=wanted.rounds,
        )
        tournament.pairing_system = wanted.pairing_system
        if wanted.tie_breaks is not None:
            tournament.tie_breaks = ", ".join(wanted.tie_breaks)
        tournament.tie_break_edition = wanted.tie_break_edition
    assert tournament.id is not None
    tid = tournament.id
    players = {
        p.start_number: p for p in session.exec(select(Player).where(Player.tournament_id == tid))
    }
    added_players = 0
    for player in setup.players:
        stored = players.get(player.number)
        if stored is None:
            players[player.number] = _add_player(session, tid, player)
            added_players += 1
        elif stored.name != player.name:
            raise ConflictError(
                f"player {player.number} is stored as {stored.name!r}, not {player.name!r}"
            )
    eboards = {b.number: b for b in session.exec(select(EBoard).where(EBoard.tournament_id == tid))}
    added_boards = 0
    changed: list[int] = []
    notes: list[str] = []
    for wanted_board in setup.boards:
        stored_board = eboards.get(wanted_board.number)
        if stored_board is None:
            eboards[wanted_board.number] = _add_eboard(session, tid, wanted_board)
            added_boards += 1
            continue
        said = _board_changes(stored_board, wanted_board)
        notes += said.notes
        if said.applied:
            assert stored_board.id is not None
            changed.append(stored_board.id)
            session.add(stored_board)
    rounds = {r.number: r for r in session.exec(select(Round).where(Round.tournament_id == tid))}
    added_rounds = added_games = 0
    for wanted_round in setup.rounds:
        round_ = rounds.get(wanted_round.number)
        if round_ is None:
            round_ = create_round(
                session,
                tournament_id=tid,
                number=wanted_round.number,
                starts_at=wanted_round.starts,
                delay_seconds=wanted_round.delay,
                published=wanted_round.published,
            )
            added_rounds += 1
        assert round_.id is not None
        stored_games = {game.board: game for game in list_games(session, round_id=round_.id)}
        plan: dict[int, int] | None = None
        for board, (white, black) in enumerate(wanted_round.pairings, start=1):
            pair = (players[white].id, players[black].id)
            game = stored_games.get(board)
            if game is not None:
                if (game.white_id, game.black_id) != pair:
                    raise ConflictError(
                        f"round {wanted_round.number}, board {board} is already paired "
                        "differently; correct pairings through the API"
                    )
                continue
            if plan is None:
                session.flush()
                plan = eboards_for_round(session, round_=round_)
            _new_game(session, round_.id, board, pair, plan.get(board))
            added_games += 1
    return LoadReport(
        tid,
        created,
        added_players,
        added_boards,
        added_rounds,
        added_games,
        changed_boards=tuple(changed),
        notes=tuple(notes),
    )


def _add_eboard(session: Session, tournament_id: int, board: BoardSetup) -> EBoard:
    eboard = add_eboard(
        session,
        tournament_id=tournament_id,
        number=board.number,
        url=board.url,
        driver=board.driver,
        clock=board.clock,
    )
    eboard.loaded_url, eboard.loaded_clock = board.url, board.clock
    return eboard


@dataclass(frozen=True, slots=True)
class _BoardChanges:
    applied: bool
    notes: tuple[str, ...]


def _board_changes(stored: EBoard, wanted: BoardSetup) -> _BoardChanges:
    """Bring ``stored`` up to the file where the file changed since it was last loaded;
    where only the operator did, keep theirs. Says each difference in a line."""
    applied = False
    notes: list[str] = []
    for what, field, loaded in (
        ("port", "url", "loaded_url"),
        ("clock setting", "clock", "loaded_clock"),
    ):
        now, new, before = getattr(stored, field), getattr(wanted, field), getattr(stored, loaded)
        if new != before:  # the file changed (or never said): it is applied
            setattr(stored, loaded, new)
            if new != now:
                setattr(stored, field, new)
                applied = True
                notes.append(f"board {stored.number}: {what} {new} (was {now})")
        elif new != now:
            notes.append(
                f"board {stored.number}: {what} stays {now}, set since the file was loaded "
                f"(the file still says {new}; edit the file to change it)"
            )
    return _BoardChanges(applied, tuple(notes))


def _add_player(session: Session, tournament_id: int, player: PlayerSetup) -> Player:
    return add_player(
        session,
        tournament_id=tournament_id,
        start_number=player.number,
        name=player.name,
        fide_id=player.fide_id,
        title=player.title,
        rating=player.rating,
        federation=player.federation,
        team=player.team,
    )


def _new_game(
    session: Session,
    round_id: int,
    board: int,
    pair: tuple[int | None, int | None],
    eboard_id: int | None,
) -> Game:
    white, black = pair
    assert white is not None
    assert black is not None
    return create_game(
        session,
        round_id=round_id,
        board=board,
        white_id=white,
        black_id=black,
        eboard_id=eboard_id,
    )
