"""What an arbiter can do about an illegal-position alert (docs/game-input.md, "Corrections
from the console").

The alert names what the board shows (``board <placement> differs from the game on ...``).
From that and the game's record this module finds:

* a **continuation**: legal moves from the record that reach the board's position (the
  tracker's catch-up, further than it dares alone: up to four plies on, or one or two of
  the last moves replaced), for the arbiter to accept as a correction;
* the **last legal position**, and the squares where the board differs from it, for the
  arbiter to set the board back.

The third way, editing the moves from ply N, needs nothing here: it is the arbiter's move
correction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from relay.domain.errors import InvalidInputError
from relay.domain.game.matching import all_sequences
from relay.domain.game.placement import Placement
from relay.domain.game.score_check import Correction, move_label, moves_text, sans_played

#: Plies a continuation may add after the record.
_MOST_AHEAD = 4
#: Plies of the record a continuation may replace, and how many plies it then adds.
_MOST_BACK = 2
_MOST_AFTER_BACK = 3
_ALERT_BOARD = re.compile(r"^board (?P<fen>[1-8pnbrqkPNBRQK/]+) differs")


class BoardPositionError(ValueError, InvalidInputError):
    """A board position that cannot be read (not the piece placement of a FEN)."""


@dataclass(frozen=True, slots=True)
class SquareChange:
    """One square where the board differs from the game: what each has there."""

    square: str
    game: str | None  # "white pawn", None: empty
    board: str | None


@dataclass(frozen=True, slots=True)
class Repairs:
    #: Plies in the record, and its last legal position (full FEN).
    ply: int
    game_fen: str
    #: The piece placement the board shows (None: no alert says it).
    board_fen: str | None
    #: The squares to set to bring the board back to the game, in board order (a1 first).
    squares: tuple[SquareChange, ...]
    #: Legal moves from the record that reach the board's position, as a correction.
    continuation: Correction | None
    words: str


def board_of_alert(detail: str) -> str | None:
    """The piece placement an illegal-position alert says the board showed."""
    found = _ALERT_BOARD.match(detail.strip())
    return None if found is None else found["fen"]


def repairs(recorded: Sequence[str], board_fen: str | None) -> Repairs:
    """The ways back from a board showing ``board_fen`` to the game of ``recorded`` (UCI)."""
    game = chess.Board()
    for uci in recorded:
        game.push_uci(uci)
    if board_fen is None:
        return Repairs(
            len(recorded), game.fen(), None, (), None, "no alert says what the board shows"
        )
    shown = _placement(board_fen)
    squares = _changes(game, shown)
    if not squares:
        words = "the board shows the game's position"
        return Repairs(len(recorded), game.fen(), shown.board_fen(), (), None, words)
    continuation = _continuation(game, shown)
    restore = "set " + ", ".join(_set_words(change) for change in squares)
    words = f"to restore the last legal position (ply {len(recorded)}): {restore}"
    if continuation is not None:
        words = f"{continuation.words}; or {words}"
    return Repairs(len(recorded), game.fen(), shown.board_fen(), squares, continuation, words)


def _placement(board_fen: str) -> Placement:
    try:
        return Placement.of_board(chess.BaseBoard(board_fen.split()[0]))
    except (ValueError, IndexError):
        raise BoardPositionError(f"{board_fen!r} is not a piece placement") from None


def _changes(game: chess.Board, shown: Placement) -> tuple[SquareChange, ...]:
    changed = chess.SquareSet(Placement.of_board(game).changed_squares(shown))
    return tuple(
        SquareChange(
            chess.square_name(square),
            _name(game.piece_at(square)),
            _shown_name(shown.piece_at(square)),
        )
        for square in changed
    )


def _name(piece: chess.Piece | None) -> str | None:
    if piece is None:
        return None
    return f"{chess.COLOR_NAMES[piece.color]} {chess.piece_name(piece.piece_type)}"


def _shown_name(piece: tuple[chess.Color, chess.PieceType] | None) -> str | None:
    return None if piece is None else _name(chess.Piece(piece[1], piece[0]))


def _set_words(change: SquareChange) -> str:
    if change.game is None:
        return f"{change.square} empty"
    return f"a {change.game} on {change.square}"


def _continuation(game: chess.Board, shown: Placement) -> Correction | None:
    """The fewest legal plies from the record, or from one or two plies before its end,
    that reach ``shown``."""
    board = game.copy()
    end = board.ply()
    for plies in range(1, _MOST_AHEAD + 1):
        found = all_sequences(board, shown, plies)
        if found:
            sans = tuple(sans_played(found[0], board))
            return Correction(end + 1, sans, f"accept {moves_text(end + 1, sans)} as played")
    for back in range(1, min(_MOST_BACK, end) + 1):
        board.pop()
        for plies in range(1, _MOST_AFTER_BACK + 1):
            found = all_sequences(board, shown, plies)
            if found:
                first = end - back + 1
                sans = tuple(sans_played(found[0], board))
                words = f"replace the moves from {move_label(first)} with {moves_text(first, sans)}"
                return Correction(first, sans, words)
    return None
