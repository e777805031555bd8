"""The names of the tie-breaks (the article 5 acronyms of FIDE C.07, 2024 and 2026
editions) and their modifiers.

A name is an acronym, optionally with a modifier (article 14): ``-C<n>`` cuts the ``n``
least significant values, ``-M<n>`` (median) also the ``n`` most significant. Cuts apply to
BH, FB, SB, PS and ARO; medians to BH, FB and SB. The articles are numbered alike in both
editions; the 2026 one adds STD (7.7), TPN (7.8) and RTNG (10.6), not offered here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relay.domain.errors import InvalidInputError

#: Tie-breaks without modifiers, with the C.07 article (SB-IECG: seed 000 section C.14).
PLAIN = {
    "DE": "6",
    "WIN": "7.1",
    "WON": "7.2",
    "BPG": "7.3",
    "BWG": "7.4",
    "AOB": "8.2",
    "KS": "9.2",
    "TPR": "10.2",
    "PTP": "10.3",
    "APRO": "10.4",
    "APPO": "10.5",
    "SB-IECG": "seed 000 C.14",
}
#: Tie-breaks taking a cut (``-C<n>``) and, for some, a median (``-M<n>``) modifier.
MODIFIABLE = {"PS": "7.5", "BH": "8.1", "FB": "8.3", "SB": "9.1", "ARO": "10.1"}
WITH_MEDIAN = frozenset({"BH", "FB", "SB"})
#: Tie-breaks that need ratings.
RATING_BASED = frozenset({"ARO", "TPR", "APRO", "PTP", "APPO"})

_MODIFIED = re.compile(r"(?P<base>[A-Z]+)-(?P<kind>[CM])(?P<count>[1-9][0-9]?)")


class UnknownTieBreakError(ValueError, InvalidInputError):
    """A tie-break name that is not one of :data:`PLAIN` or :data:`MODIFIABLE` with an
    allowed modifier."""


def known_names() -> str:
    """The accepted names, for error messages."""
    plain = ", ".join(PLAIN)
    cuts = ", ".join(f"{base}-C<n>" for base in MODIFIABLE)
    medians = ", ".join(f"{base}-M<n>" for base in sorted(WITH_MEDIAN))
    return f"{plain}, {', '.join(MODIFIABLE)}, {cuts}, {medians}"


@dataclass(frozen=True, slots=True)
class TieBreakName:
    """A parsed name: the acronym, ``"C"``, ``"M"`` or ``""``, and how many values go."""

    base: str
    modifier: str = ""
    count: int = 0

    def __str__(self) -> str:
        return f"{self.base}-{self.modifier}{self.count}" if self.modifier else self.base


def parse_name(text: str) -> TieBreakName:
    """One name, e.g. ``"BH-C1"``; case and surrounding blanks do not matter."""
    name = text.strip().upper()
    if name in PLAIN or name in MODIFIABLE:
        return TieBreakName(name)
    match = _MODIFIED.fullmatch(name)
    if (
        match
        and match["base"] in MODIFIABLE
        and (match["kind"] == "C" or match["base"] in WITH_MEDIAN)
    ):
        return TieBreakName(match["base"], match["kind"], int(match["count"]))
    raise UnknownTieBreakError(f"unknown tie-break {text.strip()!r}; known: {known_names()}")


def parse_order(text: str) -> tuple[str, ...]:
    """A comma-separated tie-break order, e.g. ``"BH-C1, BH, SB"`` -> ``("BH-C1", "BH",
    "SB")``; an empty text is no tie-breaks. Names are normalised; a repeated name is
    refused, as it could never break a tie the first one left."""
    names = [str(parse_name(part)) for part in text.split(",") if part.strip()]
    if not text.strip() == "" and len(names) != len(text.split(",")):
        raise UnknownTieBreakError(f"an empty name in {text!r}; known: {known_names()}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise UnknownTieBreakError(f"{', '.join(repeated)} given more than once")
    return tuple(names)
