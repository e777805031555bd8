"""Why a player's time was changed, in the Laws' terms."""

from __future__ import annotations

from enum import StrEnum

from relay.domain.vocabulary import parse_word


class ClockChangeCause(StrEnum):
    """The cause of a time change the arbiter confirms, kept with it in the game's log."""

    #: A correction of the clock (6.10).
    ARBITER = "arbiter"
    #: Time for the opponent of a completed illegal move (7.5.5, A.4.2).
    ILLEGAL_MOVE = "illegal-move"
    #: Time for the opponent of a player whose draw claim was wrong (9.5.3).
    WRONG_CLAIM = "wrong-claim"
    #: The increment an illegal move's press earned, taken back.
    INCREMENT = "increment"

    @classmethod
    def parse(cls, text: object) -> ClockChangeCause:
        """The cause written ``text``; :class:`~relay.domain.vocabulary.UnknownWordError`
        for anything else."""
        return parse_word(cls, text, "cause")
