"""How the hub can pair a tournament's next round."""

from __future__ import annotations

from enum import StrEnum

from relay.domain.vocabulary import parse_word


class PairingSystem(StrEnum):
    """A tournament's pairing system, as the event file, the store and the API name it. A
    tournament without one has its pairings given (the event file, the arbiter)."""

    #: The FIDE Dutch system.
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    KNOCKOUT = "knockout"
    #: Two teams, each player meeting every player of the other team.
    SCHEVENINGEN = "scheveningen"

    @classmethod
    def parse(cls, text: object) -> PairingSystem:
        """The system written ``text``; :class:`~relay.domain.vocabulary.UnknownWordError`
        for anything else."""
        return parse_word(cls, text, "pairing system")

    @property
    def cycles(self) -> int | None:
        """How many times each player meets every other in a round robin (Berger tables);
        None for a system that is no round robin."""
        return _CYCLES.get(self)


_CYCLES = {PairingSystem.ROUND_ROBIN: 1, PairingSystem.DOUBLE_ROUND_ROBIN: 2}
