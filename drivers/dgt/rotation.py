"""Detecting a board that was set up the wrong way round, and correcting its squares.

A DGT board never renumbers itself: field 0 is a8 only with the connector on White's left.
Turned round, the start position reads with Black's men on ranks 1 and 2. The driver decides
only on a full start position (either way round), so a board stays in the orientation last
proven, and every position it emits is corrected to White's view.
"""

from __future__ import annotations

from drivers.events import Position

_START: Position = tuple("RNBQKBNR") + ("P",) * 8 + (None,) * 32 + ("p",) * 8 + tuple("rnbqkbnr")
_START_ROTATED: Position = tuple(reversed(_START))


def turned(position: Position) -> Position:
    """The position seen from the other side of the board."""
    return tuple(reversed(position))


def orientation_of(position: Position) -> bool | None:
    """True if this is the start position turned round, False if upright, None if neither."""
    if position == _START:
        return False
    if position == _START_ROTATED:
        return True
    return None
