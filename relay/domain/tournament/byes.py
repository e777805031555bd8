"""The byes: rounds a player is not paired in, as the store, the API and the pairing desk
name them, with their TRF codes and what the tie-breaks count them as."""

from __future__ import annotations

from enum import StrEnum

from relay.domain.tournament.tie_break_results import UnplayedKind
from relay.domain.vocabulary import parse_word


class ByeKind(StrEnum):
    """A round without an opponent: ``pab``, the pairing-allocated bye (one point), is the
    pairing's to give; ``half``, ``full`` and ``zero`` a player (or the arbiter) may ask for
    before the round is paired, and ``zero`` is also an absence."""

    #: The pairing-allocated bye of an odd number of players: one point.
    PAIRING_ALLOCATED = "pab"
    HALF_POINT = "half"
    #: Asked for, or given to a knock-out seed who goes through without playing.
    FULL_POINT = "full"
    #: Asked for, or the player was absent: no point.
    ZERO_POINT = "zero"

    @classmethod
    def parse(cls, text: object) -> ByeKind:
        """The kind written ``text``; :class:`~relay.domain.vocabulary.UnknownWordError`
        for anything else."""
        return parse_word(cls, text, "bye")

    @property
    def requestable(self) -> bool:
        """Whether a player may ask for it: every kind but the pairing-allocated bye."""
        return self is not ByeKind.PAIRING_ALLOCATED

    @property
    def trf_code(self) -> str:
        """The TRF's result code for it (``U``, ``H``, ``F``, ``Z``)."""
        return _TRF_CODES[self]

    @property
    def unplayed(self) -> UnplayedKind:
        """The unplayed round the tie-breaks count it as (FIDE C.07 16.1)."""
        return _UNPLAYED[self]


_TRF_CODES = {
    ByeKind.PAIRING_ALLOCATED: "U",
    ByeKind.HALF_POINT: "H",
    ByeKind.FULL_POINT: "F",
    ByeKind.ZERO_POINT: "Z",
}
_UNPLAYED = {
    ByeKind.PAIRING_ALLOCATED: UnplayedKind.PAIRING_BYE,
    ByeKind.HALF_POINT: UnplayedKind.HALF_BYE,
    ByeKind.FULL_POINT: UnplayedKind.FULL_BYE,
    ByeKind.ZERO_POINT: UnplayedKind.ZERO_BYE,
}
