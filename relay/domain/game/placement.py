"""Piece placement as bitboards: what an e-board can see of a position.

A board sees pieces on squares, not whose turn it is or the castling rights, so positions
from the board are compared as placements. Comparing eight integers is far cheaper than
comparing FEN strings, which matters on the per-move hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from relay.domain.errors import InvalidInputError
from relay.domain.results import Result

_PIECE_TYPES = {
    "p": chess.PAWN,
    "n": chess.KNIGHT,
    "b": chess.BISHOP,
    "r": chess.ROOK,
    "q": chess.QUEEN,
    "k": chess.KING,
}


#: Result marker pieces (DGT codes 13, 14, 15) as they appear among a position's symbols.
#: They are not chessmen: :func:`read_squares` takes them out of the placement.
MARKER_RESULTS = {"=": Result.DRAW, "1": Result.WHITE_WINS, "0": Result.BLACK_WINS}


class PlacementError(ValueError, InvalidInputError):
    """A square list that is not a placement (wrong length, unknown piece letter)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Which piece stands on which square, as one bitboard per colour and per piece type."""

    white: int
    black: int
    pawns: int
    knights: int
    bishops: int
    rooks: int
    queens: int
    kings: int

    @property
    def occupied(self) -> int:
        return self.white | self.black

    @classmethod
    def of_board(cls, board: chess.BaseBoard) -> Placement:
        return cls(
            board.occupied_co[chess.WHITE],
            board.occupied_co[chess.BLACK],
            board.pawns,
            board.knights,
            board.bishops,
            board.rooks,
            board.queens,
            board.kings,
        )

    @classmethod
    def from_symbols(cls, symbols: Sequence[str | None]) -> Placement:
        """From 64 FEN piece letters (or None), a1 first."""
        if len(symbols) != 64:
            raise PlacementError(f"a placement has 64 squares, not {len(symbols)}")
        colours = [0, 0]
        types = [0] * 7
        for square, symbol in enumerate(symbols):
            if symbol is None:
                continue
            piece_type = _PIECE_TYPES.get(symbol.lower())
            if piece_type is None or len(symbol) != 1:
                raise PlacementError(f"unknown piece {symbol!r} on {chess.SQUARE_NAMES[square]}")
            bit = 1 << square
            colours[symbol.isupper()] |= bit
            types[piece_type] |= bit
        return cls(
            colours[chess.WHITE],
            colours[chess.BLACK],
            types[chess.PAWN],
            types[chess.KNIGHT],
            types[chess.BISHOP],
            types[chess.ROOK],
            types[chess.QUEEN],
            types[chess.KING],
        )

    def piece_at(self, square: chess.Square) -> tuple[chess.Color, chess.PieceType] | None:
        """Colour and type of the piece on ``square``, or None."""
        bit = chess.BB_SQUARES[square]
        if not self.occupied & bit:
            return None
        for piece_type, mask in zip(chess.PIECE_TYPES, self._masks()[2:], strict=True):
            if mask & bit:
                return bool(self.white & bit), piece_type
        return None

    def turned(self) -> Placement:
        """The placement seen from the other side of the board (a1 <-> h8)."""
        return Placement(*(_rotate(mask) for mask in self._masks()))

    def is_part_of(self, other: Placement) -> bool:
        """True if every piece here stands on the same square in ``other`` (and ``other``
        may have more): what a board shows with pieces lifted from ``other``."""
        return all(
            mine & ~theirs == 0 for mine, theirs in zip(self._masks(), other._masks(), strict=True)
        )

    def _masks(self) -> tuple[int, int, int, int, int, int, int, int]:
        return (
            self.white,
            self.black,
            self.pawns,
            self.knights,
            self.bishops,
            self.rooks,
            self.queens,
            self.kings,
        )

    def changed_squares(self, other: Placement) -> int:
        """Bitboard of the squares whose content differs between the two placements."""
        return (
            (self.white ^ other.white)
            | (self.black ^ other.black)
            | (self.pawns ^ other.pawns)
            | (self.knights ^ other.knights)
            | (self.bishops ^ other.bishops)
            | (self.rooks ^ other.rooks)
            | (self.queens ^ other.queens)
            | (self.kings ^ other.kings)
        )

    def board_fen(self) -> str:
        board = chess.BaseBoard.empty()
        for piece_type, mask in (
            (chess.PAWN, self.pawns),
            (chess.KNIGHT, self.knights),
            (chess.BISHOP, self.bishops),
            (chess.ROOK, self.rooks),
            (chess.QUEEN, self.queens),
            (chess.KING, self.kings),
        ):
            for square in chess.scan_forward(mask):
                color = bool(self.white & (1 << square))
                board.set_piece_at(square, chess.Piece(piece_type, color))
        return board.board_fen()


def _rotate(mask: int) -> int:
    return chess.flip_vertical(chess.flip_horizontal(mask))


def read_squares(symbols: Sequence[str | None]) -> tuple[Placement, frozenset[Result]]:
    """A board's 64 squares (a1 first) as the placement of its chessmen and the results of
    any marker pieces on it."""
    markers = frozenset(MARKER_RESULTS[s] for s in symbols if s in MARKER_RESULTS)
    if markers:
        symbols = [None if s in MARKER_RESULTS else s for s in symbols]
    return Placement.from_symbols(symbols), markers


START = Placement.of_board(chess.BaseBoard())
