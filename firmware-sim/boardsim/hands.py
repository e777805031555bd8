"""How a player's hands carry out a move: the square-by-square changes the board sees.

A quiet move is a lift and a placement; a capture also takes the captured man off the board
(before or after the moving piece is lifted, as players do both); castling moves the king
first, then the rook; en passant removes the captured pawn last; a promotion puts the new
piece where the pawn would have gone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

#: python-chess piece -> DGT piece code.
PIECE_CODES = {
    (chess.PAWN, chess.WHITE): 1,
    (chess.ROOK, chess.WHITE): 2,
    (chess.KNIGHT, chess.WHITE): 3,
    (chess.BISHOP, chess.WHITE): 4,
    (chess.KING, chess.WHITE): 5,
    (chess.QUEEN, chess.WHITE): 6,
    (chess.PAWN, chess.BLACK): 7,
    (chess.ROOK, chess.BLACK): 8,
    (chess.KNIGHT, chess.BLACK): 9,
    (chess.BISHOP, chess.BLACK): 10,
    (chess.KING, chess.BLACK): 11,
    (chess.QUEEN, chess.BLACK): 12,
}


@dataclass(frozen=True, slots=True)
class Touch:
    """One change the board's sensors see: ``piece`` on ``square``, or the square emptied."""

    square: chess.Square
    piece: chess.Piece | None

    @property
    def dgt_index(self) -> int:
        return (7 - chess.square_rank(self.square)) * 8 + chess.square_file(self.square)

    @property
    def dgt_code(self) -> int:
        if self.piece is None:
            return 0
        return PIECE_CODES[(self.piece.piece_type, self.piece.color)]


def touches_for_move(board: chess.Board, move: chess.Move, rng: random.Random) -> list[Touch]:
    """The changes a player makes on the board to play ``move`` (legal in ``board``)."""
    mover = board.piece_at(move.from_square)
    if mover is None:
        raise ValueError(f"no piece on {chess.square_name(move.from_square)}")
    placed = chess.Piece(move.promotion, mover.color) if move.promotion else mover
    if board.is_castling(move):
        return _castling(board, move, mover)
    if board.is_en_passant(move):
        captured_square = move.to_square + (-8 if mover.color == chess.WHITE else 8)
        return [
            Touch(move.from_square, None),
            Touch(move.to_square, placed),
            Touch(captured_square, None),
        ]
    lift, place = Touch(move.from_square, None), Touch(move.to_square, placed)
    if board.piece_at(move.to_square) is None:
        return [lift, place]
    remove = Touch(move.to_square, None)
    return [remove, lift, place] if rng.random() < 0.5 else [lift, remove, place]


def _castling(board: chess.Board, move: chess.Move, king: chess.Piece) -> list[Touch]:
    rank = chess.square_rank(move.from_square)
    kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    rook_from = chess.square(7 if kingside else 0, rank)
    rook_to = chess.square(5 if kingside else 3, rank)
    king_to = chess.square(6 if kingside else 2, rank)
    rook = board.piece_at(rook_from)
    return [
        Touch(move.from_square, None),
        Touch(king_to, king),
        Touch(rook_from, None),
        Touch(rook_to, rook),
    ]
