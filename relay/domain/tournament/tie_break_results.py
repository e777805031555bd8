"""What a tie-break is computed from: games played and rounds not played.

A round a player did not play is an :class:`Unplayed` entry of one of the kinds FIDE C.07
(2024) article 16.1 lists; article 16.2 sorts those rounds into five categories, and
:func:`category` is that sorting. A forfeit is two entries, one per player, each naming the
scheduled opponent when it is known.
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
    FULL_BYE = "full-point bye"  # requested, or awarded by the regulations
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

#: Kinds the player chose or caused: requested byes, absences and forfeit losses. Low cuts
#: take these rounds first (C.07 article 16.5, "voluntarily unplayed rounds").
VOLUNTARY = frozenset(
    {
        UnplayedKind.FULL_BYE,
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
    """C.07 (2024) article 16.2: the categories of unplayed rounds."""

    PAIRING_BYE = "16.2.1"
    FORFEIT_WIN = "16.2.2"
    REQUESTED_BYE = "16.2.3"  # a bye or absence followed by a game in a later round
    FORFEIT_LOSS = "16.2.4"
    NOT_PLAYING_ON = "16.2.5"  # byes and absences after which the player plays no more


def category(kind: UnplayedKind, *, plays_later: bool) -> Category:
    """The article 16.2 category of an unplayed round. ``plays_later``: the player plays a
    game, or is ready to (a forfeit win or a pairing-allocated bye), in a later round."""
    if kind is UnplayedKind.PAIRING_BYE:
        return Category.PAIRING_BYE
    if kind is UnplayedKind.FORFEIT_WIN:
        return Category.FORFEIT_WIN
    if kind is UnplayedKind.FORFEIT_LOSS:
        return Category.FORFEIT_LOSS
    return Category.REQUESTED_BYE if plays_later else Category.NOT_PLAYING_ON
