"""Reading a word of one of the domain's vocabularies: a result, a bye kind, a pairing system,
a clock change's cause.

Each vocabulary is a :class:`~enum.StrEnum` whose values are the words the relay stores and
sends (the database, the event log, the event file, JSON, the API), so a member is written
as its word and compares equal to it. A word that comes in as text (a stored row or event, a
file) is read with its vocabulary's ``parse``, which refuses one that is none of its values
with :class:`UnknownWordError`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from relay.domain.errors import InvalidInputError

W = TypeVar("W", bound=StrEnum)


class UnknownWordError(ValueError, InvalidInputError):
    """A word that is not one of its vocabulary's; the message lists the ones there are."""


def parse_word(vocabulary: type[W], text: object, what: str) -> W:
    """The member of ``vocabulary`` written ``text``; ``what`` names the vocabulary in the
    error (``"result '2-0' is not one of [...]"``)."""
    for word in vocabulary:
        if word.value == text:
            return word
    known = sorted(word.value for word in vocabulary)
    raise UnknownWordError(f"{what} {text!r} is not one of {known}")
