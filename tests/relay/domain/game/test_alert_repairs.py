"""From an illegal-position alert: the continuation that reaches the board, the way back,
and the amended mark an arbiter's correction leaves."""

from __future__ import annotations

import chess
import pytest

from relay.domain.game.alert_repairs import (
    BoardPositionError,
    board_of_alert,
    repairs,
)
from relay.domain.game.amendments import amendments
from relay.domain.game.events import MoveMade, MovesReplaced, TakenBack


def uci(*sans: str) -> list[str]:
    board = chess.Board()
    return [board.push_san(san).uci() for san in sans]


def placement_after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def test_the_board_in_an_alert_is_read_back():
    fen = placement_after("e4")
    assert board_of_alert(f"board {fen} differs from the game on e2 e4") == fen
    assert board_of_alert("pieces moved") is None


def test_moves_beyond_the_record_are_proposed_as_the_continuation():
    found = repairs(uci("e4", "e5"), placement_after("e4", "e5", "Nf3", "Nc6", "Bb5"))
    assert found.continuation is not None
    assert (found.continuation.ply, found.continuation.san) == (3, ("Nf3", "Nc6", "Bb5"))
    assert "accept 2. Nf3 Nc6 3. Bb5 as played" in found.words


def test_a_wrong_last_move_is_proposed_as_replaced():
    found = repairs(uci("e4", "e5", "Nc3"), placement_after("e4", "e5", "Nf3", "Nc6"))
    assert found.continuation is not None
    assert (found.continuation.ply, found.continuation.san) == (3, ("Nf3", "Nc6"))


def test_the_last_legal_position_and_the_squares_to_set_back():
    board = chess.Board()
    board.push_san("e4")
    board.remove_piece_at(chess.D1)  # the queen knocked off the board
    found = repairs(uci("e4"), board.board_fen())
    assert found.continuation is None
    assert [(c.square, c.game, c.board) for c in found.squares] == [("d1", "white queen", None)]
    assert (
        found.game_fen
        == chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()
    )
    assert "set a white queen on d1" in found.words


def test_a_board_that_shows_the_game_needs_nothing():
    found = repairs(uci("d4"), placement_after("d4"))
    assert found.squares == ()
    assert found.continuation is None


def test_an_unreadable_board_is_refused():
    with pytest.raises(BoardPositionError):
        repairs([], "not/a/board")


def test_a_correction_of_recorded_moves_is_an_amendment_a_first_import_is_not():
    board = chess.Board()
    log = []
    for ply, san in enumerate(["e4", "e5", "Nf3", "Nc6", "Ke2"], start=1):
        move = board.push_san(san)
        log.append(MoveMade(ply, move.uci(), san, board.fen(), float(ply)))
    imported = MovesReplaced(ply=1, uci=("d2d4",), by="A", reason="import", at=0.0)
    assert amendments([imported]) == ()
    spurious = MovesReplaced(ply=5, uci=(), by="Jane", reason="scoresheet: 4 moves", at=9.0)
    (amended,) = amendments([*log, spurious])
    assert (amended.ply, amended.removed, amended.added, amended.by) == (5, 1, 0, "Jane")
    assert amended.words() == "amended by the arbiter: scoresheet: 4 moves"
    unchanged = MovesReplaced(ply=4, uci=(log[3].uci, log[4].uci), by="Jane", reason="", at=9.0)
    assert amendments([*log, unchanged]) == ()
    back = TakenBack(ply=4, fen=board.fen(), at=8.0)
    assert amendments([*log, back, MovesReplaced(4, ("g8f6",), "Jane", "", 9.0)])[0].ply == 4
