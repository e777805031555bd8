"""Which edition of FIDE C.07 (Play-Off and Tie-Break Regulations) ranks a tournament.

Two editions are implemented:

* **2024**: approved by the FIDE Council on 29 July 2024, applied from 1 August 2024. Each
  unplayed round of a Swiss counts, in the player's own Buchholz and Sonneborn-Berger, as a
  game against a dummy that finished with the player's own score (article 16.4).
* **2026**: approved by the FIDE Council on 2 February 2026, applied from 1 March 2026. The
  dummy still finishes with the player's own score, but no higher than (16.4.1) the
  scheduled opponent's adjusted score for a forfeit, won or lost, and (16.4.2) a draw's
  points times the number of rounds for every other unplayed round.

A tournament is ranked by the edition in force on its start date unless its organiser names
one (``tie_break_edition`` in the event file or the rules); a tournament without a start
date by the edition in force today, as FIDE's own tie-break checker does with a report that
has no start date. Tournaments that started before 1 August 2024 get the 2024 edition too:
the earlier editions are not implemented.
"""

from __future__ import annotations

from datetime import date
from enum import Enum

from relay.domain.errors import InvalidInputError


class Edition(Enum):
    """An edition of C.07, named by the year it was approved."""

    FIDE_2024 = "2024"
    FIDE_2026 = "2026"

    @property
    def applied_from(self) -> date:
        return _APPLIED_FROM[self]

    def __str__(self) -> str:
        return f"FIDE C.07 ({self.value})"


_APPLIED_FROM = {Edition.FIDE_2024: date(2024, 8, 1), Edition.FIDE_2026: date(2026, 3, 1)}

#: The names an event file or the rules accept, oldest first.
EDITIONS = tuple(edition.value for edition in Edition)


class UnknownEditionError(ValueError, InvalidInputError):
    """A tie-break edition that is not one of :data:`EDITIONS`."""


def parse_edition(text: object) -> Edition:
    """``"2024"`` or ``"2026"`` (surrounding blanks do not matter) as an :class:`Edition`."""
    if isinstance(text, str):
        for edition in Edition:
            if text.strip() == edition.value:
                return edition
    raise UnknownEditionError(
        f"unknown tie-break edition {text!r}; known: {', '.join(map(repr, EDITIONS))}"
    )


def edition_in_force(on: date) -> Edition:
    """The edition applied on the day ``on`` (the 2024 one for any earlier day)."""
    newest = Edition.FIDE_2024
    for edition in Edition:
        if edition.applied_from <= on:
            newest = edition
    return newest


def tournament_edition(chosen: str | None, start: date | None, today: date) -> Edition:
    """The edition a tournament is ranked by: the one its organiser ``chosen`` (a name of
    :data:`EDITIONS`), else the one in force at its ``start``, else the one in force
    ``today``."""
    if chosen is not None:
        return parse_edition(chosen)
    return edition_in_force(start if start is not None else today)
