"""Piece codes, square numbering and the positions the firmware recognises.

The board numbers its squares 0 = a8 … 63 = h1 as seen with the connector on White's left,
and never renumbers itself: a board set up the wrong way round shows square ``i`` at
``63 - i``. Everything in the simulator below the player works in these indices and codes;
python-chess squares appear only where a game is turned into touches.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

EMPTY = 0

#: python-chess piece -> DGT piece code.
PIECE_CODES: dict[tuple[chess.PieceType, chess.Color], int] = {
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

#: Result markers some tournaments put on the board (never chessmen).
DRAW_MARKER = 13
WHITE_WINS_MARKER = 14
BLACK_WINS_MARKER = 15

#: The start position in DGT order: a8..h8, a7..h7, ..., a1..h1.
START_POSITION: tuple[int, ...] = (
    (8, 9, 10, 12, 11, 10, 9, 8) + (7,) * 8 + (0,) * 32 + (1,) * 8 + (2, 3, 4, 6, 5, 4, 3, 2)
)

#: The start position on a board turned round (White's pieces at the connector's far side).
ROTATED_START_POSITION: tuple[int, ...] = tuple(reversed(START_POSITION))

EMPTY_POSITION: tuple[int, ...] = (EMPTY,) * 64

#: The squares of the four home rows (ranks 8, 7, 2 and 1).
_FOUR_ROWS = frozenset(range(16)) | frozenset(range(48, 64))


def dgt_index(square: chess.Square) -> int:
    """The DGT index of a python-chess square on a board the right way round."""
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def piece_code(piece: chess.Piece | None) -> int:
    return EMPTY if piece is None else PIECE_CODES[(piece.piece_type, piece.color)]


def rotated(squares: Sequence[int]) -> tuple[int, ...]:
    """The same pieces as seen by a board turned through 180 degrees."""
    return tuple(reversed(squares))


def position_of(board: chess.BaseBoard) -> tuple[int, ...]:
    """A python-chess placement as 64 DGT codes."""
    squares = [EMPTY] * 64
    for square, piece in board.piece_map().items():
        squares[dgt_index(square)] = piece_code(piece)
    return tuple(squares)


def is_four_rows(squares: Sequence[int]) -> bool:
    """Every square of the four home rows filled, nothing else, but not a start position.

    The header's EE_FOURROWS tag; read here as "pieces set up on the home rows in some
    other order" (a Chess960 set-up, or a mistake), which is what the tag can tell a host.
    """
    occupied = {index for index, piece in enumerate(squares) if piece != EMPTY}
    return (
        occupied == _FOUR_ROWS
        and tuple(squares) != START_POSITION
        and tuple(squares) != ROTATED_START_POSITION
    )
