from __future__ import annotations

import chess
from hypothesis import given

from relay.domain.game.matching import find_move, find_moves, moves_shown, within_a_move
from relay.domain.game.placement import Placement
from tests.strategies import legal_games


def after(board: chess.Board, *sans: str) -> Placement:
    copy = board.copy()
    for san in sans:
        copy.push_san(san)
    return Placement.of_board(copy)


def test_quiet_move_found():
    board = chess.Board()
    assert find_move(board, after(board, "e4")) == chess.Move.from_uci("e2e4")


def test_unchanged_placement_is_no_move():
    board = chess.Board()
    assert find_move(board, Placement.of_board(board)) is None


def test_lifted_piece_is_no_move():
    board = chess.Board()
    board.remove_piece_at(chess.E2)
    lifted = Placement.of_board(board)
    assert find_move(chess.Board(), lifted) is None


def test_castling_en_passant_and_promotion():
    board = chess.Board("r3k2r/pPpp1ppp/8/3Pp3/8/8/8/R3K2R w KQkq e6 0 1")
    for uci in ("e1g1", "e1c1", "d5e6", "b7a8q", "b7b8n"):
        move = chess.Move.from_uci(uci)
        assert find_move(board, after(board, board.san(move))) == move


def test_wrong_side_move_is_not_found():
    board = chess.Board()
    black_moved = chess.Board()
    black_moved.turn = chess.BLACK
    black_moved.push_san("e5")
    assert find_move(board, Placement.of_board(black_moved)) is None


def test_missed_move_recovered_as_two_plies():
    board = chess.Board()
    assert find_moves(board, after(board, "e4", "c5")) == [
        chess.Move.from_uci("e2e4"),
        chess.Move.from_uci("c7c5"),
    ]
    assert board == chess.Board()  # the search leaves the board as it was


def test_three_plies_ahead_is_not_explained_with_two():
    board = chess.Board()
    assert find_moves(board, after(board, "e4", "c5", "Nf3"), max_plies=2) == []


@given(legal_games(80))
def test_every_legal_move_of_a_random_game_is_found(game):
    board = chess.Board()
    for move in game:
        target = after(board, board.san(move))
        found = find_move(board, target)
        # Two moves can only give the same placement if they are the same move.
        assert found == move
        board.push(move)


def test_moves_shown_one_at_a_time_however_many_and_the_board_left_as_it_was():
    """Every position of six plies reported in order, with the men in the air between and a
    slide's stops: six moves, where no search for missed plies goes that far."""
    board = chess.Board()
    game = board.copy()
    shown: list[Placement] = []
    for san in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"):
        move = game.parse_san(san)
        lifted = game.copy()
        lifted.remove_piece_at(move.from_square)
        shown.append(Placement.of_board(lifted))
        if san == "Bc4":  # slid over e2, d3 (each a legal move on its own)
            for square in (chess.E2, chess.D3):
                stop = lifted.copy()
                stop.set_piece_at(square, chess.Piece(chess.BISHOP, chess.WHITE))
                shown.append(Placement.of_board(stop))
        game.push(move)
        shown.append(Placement.of_board(game))
    moves = moves_shown(board, shown)
    assert [m.uci() for m in moves] == [m.uci() for m in game.move_stack]
    assert board == chess.Board()
    assert moves_shown(board, shown[4:]) == []  # the first ply never shown: nothing reads


def test_within_a_move_is_what_one_move_changes_at_most():
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert within_a_move(Placement.of_board(board), after(board, "O-O"))
    assert not within_a_move(Placement.of_board(board), after(board, "O-O", "O-O-O"))
