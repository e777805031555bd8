"""Storing an event file: what is new is added, what is stored stays as it is.

Loading the same file again (``relay serve EVENT_FILE`` after a restart) changes nothing;
a file that gained a round or a board adds it. A file that contradicts what is stored (a
round already paired differently) is refused as a whole, so nothing is half-loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from relay.domain.formats.event_file import EventSetup, PlayerSetup
from relay.store.models import EBoard, Game, Player, Round, Tournament
from relay.store.tournaments import (
    ConflictError,
    add_eboard,
    add_player,
    create_game,
    create_round,
    create_tournament,
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

    def __str__(self) -> str:
        verb = "created" if self.created else "updated"
        return (
            f"tournament {self.tournament_id} {verb}: added {self.players} players, "
            f"{self.boards} boards, {self.rounds} rounds, {self.games} games"
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
    for wanted_board in setup.boards:
        if wanted_board.number not in eboards:
            eboards[wanted_board.number] = add_eboard(
                session,
                tournament_id=tid,
                number=wanted_board.number,
                url=wanted_board.url,
                driver=wanted_board.driver,
                clock=wanted_board.clock,
            )
            added_boards += 1
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
            eboard = eboards.get(board)
            _new_game(session, round_.id, board, pair, eboard.id if eboard else None)
            added_games += 1
    return LoadReport(tid, created, added_players, added_boards, added_rounds, added_games)


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
