"""A range of board numbers (``?boards=25-48``): what a page of a big round asks for.

An Olympiad round has some 750 boards; a viewer shows two dozen at a time. With a range
the round stream sends the snapshot and the events of those boards only, and the round's
summaries can be fetched for them alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RANGE = re.compile(r"(\d{1,6})(?:-(\d{1,6}))?")


@dataclass(frozen=True, slots=True)
class BoardRange:
    """Boards ``first`` to ``last``, both included."""

    first: int
    last: int

    def __contains__(self, board: object) -> bool:
        return isinstance(board, int) and self.first <= board <= self.last

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"


def parse_board_range(text: str) -> BoardRange:
    """``"25-48"`` or ``"7"``; ValueError, in words, for anything else."""
    found = _RANGE.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"boards must be a range such as 25-48, not {text!r}")
    first = int(found[1])
    last = int(found[2]) if found[2] is not None else first
    if first < 1 or last < first:
        raise ValueError(f"boards {text!r}: the range must run upwards from board 1")
    return BoardRange(first, last)
