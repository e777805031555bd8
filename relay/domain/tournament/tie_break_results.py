"""What a tie-break is computed from: games played and rounds not played.

A round a player did not play is an :class:`Unplayed` entry of one of the kinds FIDE C.07
article 16.1 lists; article 16.2 sorts those rounds into five categories, and :func:`category`
is that sorting. Articles 16.1 to 16.3 read the same in the 2024 and the 2026 editions. A
forfeit is two entries, one per player, each naming the scheduled opponent when it is known.

The voluntarily unplayed rounds (VUR, 16.1.2) are the requested half- and zero-point byes
(absences among them) and the forfeit losses. A full-point bye is not one: 16.2.1 puts it
with the pairing-allocated bye, so a cut does not take it first (16.5) and its point counts
in the opponents' scores whatever the player does afterwards (16.3).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Played(Generic[P]):
    """A game with a result: who had White, who had Black, White's points, and the round
    (``None`` when the caller does not know it)."""

    white: P
    black: P
    white_points: float
    round: int | None = None

    def __post_init__(self) -> None:
        if self.white_points not in (0.0, 0.5, 1.0):
            raise ValueError(f"White scores 0, 0.5 or 1, not {self.white_points!r}")

    @property
    def black_points(self) -> float:
        return 1.0 - self.white_points


class UnplayedKind(Enum):
    """Why a round was not played, with the points it gives."""

    PAIRING_BYE = "PAB"  # pairing-allocated bye (odd number of players)
    FULL_BYE = "full-point bye"  # requested or awarded; C.07 16.2.1 sets it with the PAB
    HALF_BYE = "half-point bye"
    ZERO_BYE = "zero-point bye"  # also a player absent and not paired
    FORFEIT_WIN = "forfeit win"  # the opponent did not come
    FORFEIT_LOSS = "forfeit loss"

    @property
    def points(self) -> float:
        return _POINTS[self]


_POINTS = {
    UnplayedKind.PAIRING_BYE: 1.0,
    UnplayedKind.FULL_BYE: 1.0,
    UnplayedKind.HALF_BYE: 0.5,
    UnplayedKind.ZERO_BYE: 0.0,
    UnplayedKind.FORFEIT_WIN: 1.0,
    UnplayedKind.FORFEIT_LOSS: 0.0,
}

#: The voluntarily unplayed rounds (C.07 16.1.2): requested half- and zero-point byes,
#: absences and forfeit losses; not a full-point bye (16.2.1). Low cuts take these rounds
#: first (16.5).
VOLUNTARY = frozenset(
    {
        UnplayedKind.HALF_BYE,
        UnplayedKind.ZERO_BYE,
        UnplayedKind.FORFEIT_LOSS,
    }
)


@dataclass(frozen=True, slots=True)
class Unplayed(Generic[P]):
    """A round ``player`` did not play. ``opponent`` is the scheduled opponent of a forfeit,
    when known (round robins treat forfeits as games, C.07 article 15.2)."""

    player: P
    round: int | None
    kind: UnplayedKind
    opponent: P | None = None

    @property
    def points(self) -> float:
        return self.kind.points


class Category(Enum):
    """C.07 article 16.2 (2024 and 2026): the categories of unplayed rounds."""

    ALLOCATED_OR_FULL_BYE = "16.2.1"  # pairing-allocated and full-point byes
    FORFEIT_WIN = "16.2.2"
    REQUESTED_BYE = "16.2.3"  # a requested bye or absence followed by a round that is no VUR
    FORFEIT_LOSS = "16.2.4"
    NOT_PLAYING_ON = "16.2.5"  # requested byes and absences followed only by VURs, or last


#: Kinds that are forfeits, won or lost (16.2.2 and 16.2.4).
FORFEITS = frozenset({UnplayedKind.FORFEIT_WIN, UnplayedKind.FORFEIT_LOSS})


def category(kind: UnplayedKind, *, plays_later: bool) -> Category:
    """The article 16.2 category of an unplayed round. ``plays_later``: a later round of the
    player is not voluntarily unplayed (a game, a forfeit win, a pairing-allocated or a
    full-point bye)."""
    if kind in (UnplayedKind.PAIRING_BYE, UnplayedKind.FULL_BYE):
        return Category.ALLOCATED_OR_FULL_BYE
    if kind is UnplayedKind.FORFEIT_WIN:
        return Category.FORFEIT_WIN
    if kind is UnplayedKind.FORFEIT_LOSS:
        return Category.FORFEIT_LOSS
    return Category.REQUESTED_BYE if plays_later else Category.NOT_PLAYING_ON
