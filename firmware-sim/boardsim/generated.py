"""Random legal games steered towards the moves a host finds hard to follow.

Purely random games almost never castle, take en passant or promote, so each move here is
drawn with weights that favour: developing the pieces between king and rooks, castling on
either side, en passant, pawns marching to promote (to each kind of piece in turn), and now
and then a shuffle, pieces going out and back so that positions repeat (threefold
repetition claims, sometimes a fivefold repetition that ends the game). A game ends where
the laws end it, or after ``max_plies``. The same ``random.Random`` seed gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8


@dataclass
class _Plan:
    rng: random.Random
    promotions: list[chess.PieceType] = field(default_factory=list)
    shuffle_left: int = 0

    def next_promotion(self) -> chess.PieceType:
        if not self.promotions:
            self.promotions = list(PROMOTIONS)
            self.rng.shuffle(self.promotions)
        return self.promotions[0]


def steered_game(rng: random.Random, *, max_plies: int = 160) -> list[chess.Move]:
    board = chess.Board()
    plan = _Plan(rng)
    moves: list[chess.Move] = []
    while len(moves) < max_plies and board.outcome() is None:
        move = _shuffle_move(board, plan) or _weighted_move(board, plan)
        if move.promotion == plan.next_promotion():
            plan.promotions.pop(0)
        board.push(move)
        moves.append(move)
        if plan.shuffle_left == 0 and len(moves) > 12 and rng.random() < 0.03:
            plan.shuffle_left = 16 if rng.random() < 0.1 else rng.choice((4, 6, 8, 10, 12))
    return moves


def _shuffle_move(board: chess.Board, plan: _Plan) -> chess.Move | None:
    """Out and back: undo one's own move of two plies ago, or start a quiet excursion."""
    if plan.shuffle_left == 0:
        return None
    plan.shuffle_left -= 1
    if len(board.move_stack) >= 2:
        before = board.move_stack[-2]
        back = chess.Move(before.to_square, before.from_square)
        piece = board.piece_type_at(before.to_square)
        if piece not in (None, chess.PAWN) and board.is_legal(back) and not board.is_capture(back):
            return back
    quiet = [
        move
        for move in board.generate_legal_moves()
        if not board.is_capture(move)
        and board.piece_type_at(move.from_square) in (chess.KNIGHT, chess.BISHOP, chess.ROOK)
        and not board.is_castling(move)
    ]
    if not quiet:
        plan.shuffle_left = 0
        return None
    return plan.rng.choice(quiet)


def _weighted_move(board: chess.Board, plan: _Plan) -> chess.Move:
    moves = list(board.generate_legal_moves())
    weights = [_weight(board, move, plan) for move in moves]
    return plan.rng.choices(moves, weights)[0]


def _weight(board: chess.Board, move: chess.Move, plan: _Plan) -> float:
    if board.is_castling(move):
        return 300.0
    if board.is_en_passant(move):
        return 1000.0
    if move.promotion:
        return 1000.0 if move.promotion == plan.next_promotion() else 0.05
    piece = board.piece_type_at(move.from_square)
    weight = 1.0
    if piece == chess.PAWN:
        advance = chess.square_rank(move.to_square)
        progress = advance if board.turn == chess.WHITE else 7 - advance
        weight = 1.0 + progress * 0.8
        if abs(move.to_square - move.from_square) == 16:
            weight *= 2.0  # double steps give en passant chances
    elif piece in (chess.KNIGHT, chess.BISHOP, chess.QUEEN) and (
        chess.BB_SQUARES[move.from_square] & _BACK_RANKS
    ):
        weight = 6.0  # clear the way for castling
    elif piece == chess.KING and board.has_castling_rights(board.turn):
        weight = 0.05  # keep the right to castle
    if board.is_capture(move):
        weight *= 2.0
    return weight
