"""The typed events every board driver emits, whatever the hardware.

Squares are numbered the python-chess way (a1 = 0, b1 = 1, ..., h8 = 63) and pieces are FEN
letters ("P", "n", ...), so the hub can use any driver without knowing its wire format.
Drivers do not import python-chess; these conventions are the contract.
"""

from __future__ import annotations

from dataclasses import dataclass

#: One entry per square, a1 first; None for an empty square, else a FEN piece letter.
Position = tuple[str | None, ...]

EMPTY_POSITION: Position = (None,) * 64


@dataclass(frozen=True, slots=True)
class PositionSnapshot:
    """The whole board as the hardware reported it (a board dump)."""

    position: Position


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One square changed; ``position`` is the whole board after the change."""

    square: int
    piece: str | None
    position: Position


@dataclass(frozen=True, slots=True)
class LineNoise:
    """Bytes that were dropped because they did not form a valid message."""

    discarded: int
    reason: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The port was lost; the driver stops emitting events for this connection."""

    reason: str


BoardEvent = PositionSnapshot | FieldChange | LineNoise | Disconnected
