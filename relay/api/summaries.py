"""The JSON views of games, folded from their event logs."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from relay.domain.formats.pgn import GameHeaders, render_game
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.store.games import StoredEvent, get_round, get_tournament, read_events
from relay.store.models import Game


def fold(stored: list[StoredEvent]) -> GameRecord:
    return GameRecord.from_events(event_from_data(item.kind, item.data) for item in stored)


def game_summary(game: Game, stored: list[StoredEvent]) -> dict[str, Any]:
    """A board summary: players, position, last move, result, and the log version."""
    record = fold(stored)
    last = record.last_move
    return {
        "id": game.id,
        "round_id": game.round_id,
        "board": game.board,
        "white": game.white,
        "black": game.black,
        "white_elo": game.white_elo,
        "black_elo": game.black_elo,
        "fen": record.board.fen(),
        "ply": len(record.moves),
        "last_move": last.uci if last else None,
        "last_san": last.san if last else None,
        "result": record.result,
        "termination": record.termination,
        "v": stored[-1].seq if stored else 0,
    }


def game_detail(game: Game, stored: list[StoredEvent]) -> dict[str, Any]:
    summary = game_summary(game, stored)
    summary["moves"] = [
        {"ply": move.ply, "uci": move.uci, "san": move.san, "at": move.at}
        for move in fold(stored).moves
    ]
    return summary


def game_pgn(session: Session, game: Game) -> str:
    """The game as relay PGN, from its stored log."""
    assert game.id is not None
    round_ = get_round(session, round_id=game.round_id)
    tournament = get_tournament(session, tournament_id=round_.tournament_id)
    record = fold(read_events(session, game_id=game.id))
    date = tournament.start_date.strftime("%Y.%m.%d") if tournament.start_date else "????.??.??"
    headers = GameHeaders(
        event=tournament.name,
        site=tournament.site,
        date=date,
        round=round_.number,
        board=game.board,
        white=game.white,
        black=game.black,
        result=record.result,
        white_elo=game.white_elo,
        black_elo=game.black_elo,
        game_id=str(game.id),
        termination=record.termination,
    )
    return render_game(headers, [move.uci for move in record.moves])
