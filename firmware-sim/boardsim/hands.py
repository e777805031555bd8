"""How a player's hands carry out one move: the square-by-square changes the board sees.

A quiet move is a lift and a placement, or with a slide a trail over the squares in between;
a capture also takes the captured man off the board, before or after the moving piece is
lifted; castling moves the king first or the rook first; en passant removes the captured
pawn last or first; a promotion puts the new piece where the pawn would have gone, possibly
after the pawn has stood on the last rank for a moment. Which variant is played is drawn
from the :class:`~boardsim.noise.NoiseModel` with the caller's ``rng``; the default model
gives the clean variants, with the capture order drawn 50/50.

Each :class:`Touch` carries a ``pause`` factor: the player waits that many "between touches"
intervals before it (short for a slide, long for a lingering pawn).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import chess

from boardsim.noise import NoiseModel, chance
from boardsim.pieces import PIECE_CODES, dgt_index, piece_code

__all__ = ["PIECE_CODES", "Touch", "touches_for_move"]

_CLEAN = NoiseModel.clean()

#: Pause factors: a slide is quick, a pawn left on the last rank stays a while.
SLIDE_PAUSE = 0.3
LINGER_PAUSE = 3.0


@dataclass(frozen=True, slots=True)
class Touch:
    """One change the board's sensors see: ``piece`` on ``square``, or the square emptied."""

    square: chess.Square
    piece: chess.Piece | None
    pause: float = 1.0
    #: The untidy habit this touch belongs to ("" for a plain touch), for noise statistics.
    habit: str = field(default="", compare=False)

    @property
    def dgt_index(self) -> int:
        return dgt_index(self.square)

    @property
    def dgt_code(self) -> int:
        return piece_code(self.piece)


def touches_for_move(
    board: chess.Board,
    move: chess.Move,
    rng: random.Random,
    noise: NoiseModel = _CLEAN,
) -> list[Touch]:
    """The changes a player makes on the board to play ``move`` (legal in ``board``)."""
    mover = board.piece_at(move.from_square)
    if mover is None:
        raise ValueError(f"no piece on {chess.square_name(move.from_square)}")
    if board.is_castling(move):
        rook_first = chance(rng, noise.castle_rook_first)
        touches = _castling(board, move, mover, rook_first)
        return _labelled(touches, "castle-rook-first") if rook_first else touches
    placed = chess.Piece(move.promotion, mover.color) if move.promotion else mover
    lift = Touch(move.from_square, None)
    if board.is_en_passant(move):
        captured = Touch(move.to_square + (-8 if mover.color == chess.WHITE else 8), None)
        place = Touch(move.to_square, placed)
        if chance(rng, noise.en_passant_captured_first):
            return _labelled([captured, lift, place], "en-passant-captured-first")
        return [lift, place, captured]
    travel = _travel(move, mover, placed, rng, noise)
    if board.piece_at(move.to_square) is None:
        return [lift, *travel]
    remove = Touch(move.to_square, None)
    if chance(rng, noise.captured_first):
        return _labelled([remove, lift, *travel], "captured-first")
    # The captured man goes just before anything lands on its square.
    arrival = next(i for i, touch in enumerate(travel) if touch.square == move.to_square)
    return [lift, *travel[:arrival], remove, *travel[arrival:]]


def _travel(
    move: chess.Move,
    mover: chess.Piece,
    placed: chess.Piece,
    rng: random.Random,
    noise: NoiseModel,
) -> list[Touch]:
    """From the hand to the target square: a slide's trail, a lingering pawn, or directly."""
    if move.promotion and chance(rng, noise.promotion_pawn_lingers):
        return [
            Touch(move.to_square, mover, habit="promotion-pawn-lingers"),
            Touch(move.to_square, None, LINGER_PAUSE, "promotion-pawn-lingers"),
            Touch(move.to_square, placed, habit="promotion-pawn-lingers"),
        ]
    path = _path(move.from_square, move.to_square)
    if mover.piece_type != chess.KNIGHT and path and chance(rng, noise.slide):
        trail: list[Touch] = []
        for square in path:
            trail += [
                Touch(square, mover, SLIDE_PAUSE, "slide"),
                Touch(square, None, SLIDE_PAUSE, "slide"),
            ]
        return [*trail, Touch(move.to_square, placed, SLIDE_PAUSE, "slide")]
    return [Touch(move.to_square, placed)]


def _labelled(touches: list[Touch], habit: str) -> list[Touch]:
    return [replace(touch, habit=touch.habit or habit) for touch in touches]


def _path(origin: chess.Square, target: chess.Square) -> list[chess.Square]:
    """The squares strictly between two squares on a line, from ``origin`` onwards."""
    between = list(chess.SquareSet(chess.between(origin, target)))
    return sorted(between, key=lambda square: chess.square_distance(origin, square))


def _castling(
    board: chess.Board, move: chess.Move, king: chess.Piece, rook_first: bool
) -> list[Touch]:
    rank = chess.square_rank(move.from_square)
    kingside = board.is_kingside_castling(move)
    rook_from = chess.square(7 if kingside else 0, rank)
    rook_to = chess.square(5 if kingside else 3, rank)
    king_to = chess.square(6 if kingside else 2, rank)
    rook = board.piece_at(rook_from)
    king_touches = [Touch(move.from_square, None), Touch(king_to, king)]
    rook_touches = [Touch(rook_from, None), Touch(rook_to, rook)]
    return rook_touches + king_touches if rook_first else king_touches + rook_touches
