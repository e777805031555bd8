"""Result gestures: what players do on the board to show a result, which are never moves.

Kings on the centre squares (``docs/dgt-protocol.md``): both on the light ones (d5, e4) for
a white win, both on the dark ones (d4, e5) for a black win, one on each for a draw. Two
kings on the centre always stand next to each other, so no legal position looks like this.
Or a result marker piece (DGT codes 13 to 15) put on the board.

A board that reports late (a busy bus, a host that read it late) can show the game's last
move and the kings' gesture in one report: :func:`last_move_then_kings` finds that move.
"""

from __future__ import annotations

import chess

from relay.domain.game.placement import Placement
from relay.domain.results import Result

_LIGHT_CENTRE = chess.BB_D5 | chess.BB_E4
_DARK_CENTRE = chess.BB_D4 | chess.BB_E5
_CENTRE = _LIGHT_CENTRE | _DARK_CENTRE


def kings_gesture(shown: Placement, game: Placement) -> Result | None:
    """The result the kings show, if ``shown`` is ``game`` with both kings on the centre
    (pieces that stood there may have been taken off to make room)."""
    kings = shown.kings
    white_king = kings & shown.white
    black_king = kings & shown.black
    if white_king.bit_count() != 1 or black_king.bit_count() != 1 or kings & ~_CENTRE:
        return None
    others = Placement(
        shown.white & ~kings,
        shown.black & ~kings,
        shown.pawns,
        shown.knights,
        shown.bishops,
        shown.rooks,
        shown.queens,
        0,
    )
    if not others.is_part_of(game):
        return None
    if (game.occupied & ~game.kings & ~_CENTRE) & ~others.occupied:
        return None  # a piece off the centre is missing too: hands are still busy
    if kings & _LIGHT_CENTRE == kings:
        return Result.WHITE_WINS
    if kings & _DARK_CENTRE == kings:
        return Result.BLACK_WINS
    return Result.DRAW


def last_move_then_kings(board: chess.Board, shown: Placement) -> tuple[chess.Move, Result] | None:
    """The one legal move, not a king's, after which ``shown`` is the kings' gesture, and
    the result they show; None when no move or more than one explains it. ``board`` is
    left as it was."""
    found: list[tuple[chess.Move, Result]] = []
    for move in board.generate_legal_moves(from_mask=board.occupied_co[board.turn] & ~board.kings):
        board.push(move)
        result = kings_gesture(shown, Placement.of_board(board))
        board.pop()
        if result is not None:
            found.append((move, result))
    return found[0] if len(found) == 1 else None


def marker_gesture(markers: frozenset[Result], shown: Placement, game: Placement) -> Result | None:
    """The result a single kind of marker piece shows, on an otherwise unchanged board."""
    if len(markers) != 1 or shown != game:
        return None
    return next(iter(markers))
