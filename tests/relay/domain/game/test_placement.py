from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.game.placement import Placement, PlacementError


def symbols_of(board: chess.BaseBoard) -> list[str | None]:
    return [None if (p := board.piece_at(sq)) is None else p.symbol() for sq in chess.SQUARES]


def test_start_position_from_symbols_equals_board():
    board = chess.Board()
    assert Placement.from_symbols(symbols_of(board)) == Placement.of_board(board)


def test_board_fen_round_trip():
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    assert Placement.of_board(board).board_fen() == board.board_fen()


def test_changed_squares_of_a_move():
    board = chess.Board()
    before = Placement.of_board(board)
    board.push_san("Nf3")
    after = Placement.of_board(board)
    assert before.changed_squares(after) == chess.BB_G1 | chess.BB_F3
    assert before.changed_squares(before) == 0


@pytest.mark.parametrize(
    "symbols",
    [[None] * 63, [None] * 65, ["X"] + [None] * 63, ["Kk"] + [None] * 63],
)
def test_bad_symbol_lists_raise(symbols):
    with pytest.raises(PlacementError):
        Placement.from_symbols(symbols)


pieces = st.sampled_from([None, *"PNBRQKpnbrqk"])


@given(st.lists(pieces, min_size=64, max_size=64))
def test_any_placement_matches_python_chess(symbols):
    board = chess.BaseBoard.empty()
    for square, symbol in enumerate(symbols):
        if symbol is not None:
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    placement = Placement.from_symbols(symbols)
    assert placement == Placement.of_board(board)
    assert placement.board_fen() == board.board_fen()
