"""Moves as touches: what the board's sensors see when a player makes a move."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardsim.hands import Touch, touches_for_move
from boardsim.noise import NoiseModel
from tests.strategies import legal_games


class FixedRandom(random.Random):
    """A Random whose ``random()`` always returns the same value."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def apply(board: chess.Board, touches: list[Touch]) -> chess.BaseBoard:
    """The placement a board's sensors end with after ``touches``."""
    sensed = chess.BaseBoard(board.board_fen())
    for touch in touches:
        if touch.piece is None:
            sensed.remove_piece_at(touch.square)
        else:
            sensed.set_piece_at(touch.square, touch.piece)
    return sensed


def board_from(fen: str) -> chess.Board:
    return chess.Board(fen)


@given(legal_games(60), st.randoms(use_true_random=False))
def test_touches_reproduce_every_move_of_random_games(
    game: list[chess.Move], rng: random.Random
) -> None:
    board = chess.Board()
    for move in game:
        touches = touches_for_move(board, move, rng)
        sensed = apply(board, touches)
        board.push(move)

        assert sensed.board_fen() == board.board_fen(), move.uci()
        # Every touch changes something a sensor can see.
        assert len({touch.square for touch in touches}) >= 2


@pytest.mark.parametrize(
    ("fen", "uci", "expected"),
    [
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1g1",
            [
                ("e1", None),
                ("g1", "K"),
                ("h1", None),
                ("f1", "R"),
            ],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1c1",
            [
                ("e1", None),
                ("c1", "K"),
                ("a1", None),
                ("d1", "R"),
            ],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "e8g8",
            [
                ("e8", None),
                ("g8", "k"),
                ("h8", None),
                ("f8", "r"),
            ],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "e8c8",
            [
                ("e8", None),
                ("c8", "k"),
                ("a8", None),
                ("d8", "r"),
            ],
        ),
    ],
)
def test_castling_moves_king_first(fen: str, uci: str, expected: list[tuple[str, str]]) -> None:
    board = board_from(fen)
    move = chess.Move.from_uci(uci)

    touches = touches_for_move(board, move, random.Random(1))

    assert [
        (chess.square_name(t.square), None if t.piece is None else t.piece.symbol())
        for t in touches
    ] == expected
    sensed = apply(board, touches)
    board.push(move)
    assert sensed.board_fen() == board.board_fen()


@pytest.mark.parametrize(
    ("fen", "uci", "captured"),
    [
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", chess.D5),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", chess.D4),
    ],
)
def test_en_passant_removes_the_captured_pawn(fen: str, uci: str, captured: int) -> None:
    board = board_from(fen)
    move = chess.Move.from_uci(uci)
    assert board.is_en_passant(move)

    touches = touches_for_move(board, move, random.Random(1))

    assert len(touches) == 3
    assert touches[0] == Touch(move.from_square, None)
    assert touches[1] == Touch(move.to_square, board.piece_at(move.from_square))
    assert touches[2] == Touch(captured, None)
    sensed = apply(board, touches)
    board.push(move)
    assert sensed.board_fen() == board.board_fen()
    assert sensed.piece_at(captured) is None


@pytest.mark.parametrize("promotion", [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT])
def test_promotion_places_the_promoted_piece(promotion: chess.PieceType) -> None:
    board = board_from("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    move = chess.Move(chess.B7, chess.B8, promotion=promotion)

    touches = touches_for_move(board, move, random.Random(1))

    assert touches == [
        Touch(chess.B7, None),
        Touch(chess.B8, chess.Piece(promotion, chess.WHITE)),
    ]


def test_promotion_with_capture() -> None:
    board = board_from("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    move = chess.Move(chess.A7, chess.B8, promotion=chess.QUEEN)

    touches = touches_for_move(board, move, random.Random(1))

    assert len(touches) == 3
    assert touches[-1] == Touch(chess.B8, chess.Piece(chess.QUEEN, chess.WHITE))
    sensed = apply(board, touches)
    board.push(move)
    assert sensed.board_fen() == board.board_fen()


def test_black_promotion_places_black_piece() -> None:
    board = board_from("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1")
    move = chess.Move(chess.G2, chess.G1, promotion=chess.KNIGHT)

    touches = touches_for_move(board, move, random.Random(1))

    assert touches[-1] == Touch(chess.G1, chess.Piece(chess.KNIGHT, chess.BLACK))
    assert touches[-1].dgt_code == 9


@pytest.mark.parametrize(
    ("value", "order"),
    [(0.0, ["remove", "lift", "place"]), (0.99, ["lift", "remove", "place"])],
)
def test_capture_has_three_touches(value: float, order: list[str]) -> None:
    board = chess.Board()
    for uci in ("e2e4", "d7d5"):
        board.push_uci(uci)
    move = chess.Move.from_uci("e4d5")
    named = {
        "remove": Touch(chess.D5, None),
        "lift": Touch(chess.E4, None),
        "place": Touch(chess.D5, chess.Piece(chess.PAWN, chess.WHITE)),
    }

    touches = touches_for_move(board, move, FixedRandom(value))

    assert touches == [named[name] for name in order]


def test_quiet_move_is_lift_then_place() -> None:
    board = chess.Board()

    touches = touches_for_move(board, chess.Move.from_uci("g1f3"), random.Random(1))

    assert touches == [
        Touch(chess.G1, None),
        Touch(chess.F3, chess.Piece(chess.KNIGHT, chess.WHITE)),
    ]
    assert [t.dgt_index for t in touches] == [62, 45]
    assert [t.dgt_code for t in touches] == [0, 3]


def test_move_from_empty_square_raises() -> None:
    with pytest.raises(ValueError, match="no piece on e4"):
        touches_for_move(chess.Board(), chess.Move.from_uci("e4e5"), random.Random(1))


@pytest.mark.parametrize(
    ("square", "index"),
    [(chess.A8, 0), (chess.H8, 7), (chess.A1, 56), (chess.H1, 63), (chess.E2, 52)],
)
def test_dgt_index(square: chess.Square, index: int) -> None:
    assert Touch(square, None).dgt_index == index


@pytest.mark.parametrize(
    ("symbol", "code"),
    [
        ("P", 1),
        ("R", 2),
        ("N", 3),
        ("B", 4),
        ("K", 5),
        ("Q", 6),
        ("p", 7),
        ("r", 8),
        ("n", 9),
        ("b", 10),
        ("k", 11),
        ("q", 12),
    ],
)
def test_dgt_code(symbol: str, code: int) -> None:
    assert Touch(chess.E4, chess.Piece.from_symbol(symbol)).dgt_code == code
    assert Touch(chess.E4, None).dgt_code == 0


# -- untidy variants (the noise model) --------------------------------------------------------

ALWAYS = NoiseModel(
    captured_first=1.0,
    castle_rook_first=1.0,
    en_passant_captured_first=1.0,
    promotion_pawn_lingers=1.0,
    slide=1.0,
)
NEVER = NoiseModel(captured_first=0.0)


def names(touches: list[Touch]) -> list[tuple[str, str | None]]:
    return [
        (chess.square_name(t.square), None if t.piece is None else t.piece.symbol())
        for t in touches
    ]


def test_castling_rook_first() -> None:
    board = board_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")

    touches = touches_for_move(board, chess.Move.from_uci("e1g1"), random.Random(1), ALWAYS)

    assert names(touches) == [("h1", None), ("f1", "R"), ("e1", None), ("g1", "K")]


def test_en_passant_captured_pawn_first() -> None:
    board = board_from("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")

    touches = touches_for_move(board, chess.Move.from_uci("e5d6"), random.Random(1), ALWAYS)

    assert names(touches) == [("d5", None), ("e5", None), ("d6", "P")]


def test_capture_order_follows_the_model() -> None:
    board = board_from("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    move = chess.Move.from_uci("e4d5")

    first = touches_for_move(board, move, random.Random(1), ALWAYS)
    last = touches_for_move(board, move, random.Random(1), NEVER)

    assert names(first) == [("d5", None), ("e4", None), ("d5", "P")]
    assert names(last) == [("e4", None), ("d5", None), ("d5", "P")]


@pytest.mark.parametrize("promotion", [chess.QUEEN, chess.KNIGHT])
def test_pawn_lingers_on_the_last_rank_before_the_swap(promotion: chess.PieceType) -> None:
    board = board_from("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    move = chess.Move(chess.B7, chess.B8, promotion=promotion)

    touches = touches_for_move(board, move, random.Random(1), ALWAYS)

    symbol = chess.Piece(promotion, chess.WHITE).symbol()
    assert names(touches) == [("b7", None), ("b8", "P"), ("b8", None), ("b8", symbol)]
    assert touches[2].pause > 1


def test_lingering_capture_promotion_clears_the_square_first() -> None:
    board = board_from("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    move = chess.Move(chess.A7, chess.B8, promotion=chess.ROOK)
    noise = NoiseModel(captured_first=0.0, promotion_pawn_lingers=1.0)

    touches = touches_for_move(board, move, random.Random(1), noise)

    assert names(touches) == [("a7", None), ("b8", None), ("b8", "P"), ("b8", None), ("b8", "R")]


def test_a_slide_crosses_every_square_in_between() -> None:
    board = board_from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")

    touches = touches_for_move(board, chess.Move.from_uci("a1a4"), random.Random(1), ALWAYS)

    assert names(touches) == [
        ("a1", None),
        ("a2", "R"),
        ("a2", None),
        ("a3", "R"),
        ("a3", None),
        ("a4", "R"),
    ]
    assert all(t.pause < 1 for t in touches[1:])


def test_a_sliding_capture_with_the_mover_first_removes_the_victim_at_the_end() -> None:
    board = board_from("4k3/8/8/b7/8/8/8/R3K3 w - - 0 1")
    noise = NoiseModel(captured_first=0.0, slide=1.0)

    touches = touches_for_move(board, chess.Move.from_uci("a1a5"), random.Random(1), noise)

    assert names(touches)[-3:] == [("a4", None), ("a5", None), ("a5", "R")]


def test_knights_and_single_steps_never_slide() -> None:
    board = chess.Board()

    for uci in ("g1f3", "e2e3"):
        touches = touches_for_move(board, chess.Move.from_uci(uci), random.Random(1), ALWAYS)
        assert len(touches) == 2


@given(legal_games(60), st.randoms(use_true_random=False))
def test_untidy_touches_still_reproduce_every_move(
    game: list[chess.Move], rng: random.Random
) -> None:
    board = chess.Board()
    for move in game:
        touches = touches_for_move(board, move, rng, NoiseModel.messy())
        sensed = apply(board, touches)
        board.push(move)

        assert sensed.board_fen() == board.board_fen(), move.uci()
