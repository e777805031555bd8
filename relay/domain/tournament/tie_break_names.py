"""The names of the tie-breaks (the article 5 acronyms of FIDE C.07, 2024 and 2026
editions) and their modifiers.

A name is an acronym, optionally with a modifier (article 14): ``-C<n>`` cuts the ``n``
least significant values, ``-M<n>`` (median) also the ``n`` most significant. Cuts apply to
BH, FB, SB, PS and ARO; medians to BH, FB and SB. The articles are numbered alike in both
editions; the 2026 one adds STD (7.7), TPN (7.8) and RTNG (10.6), not offered here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from relay.domain.errors import InvalidInputError


class TieBreak(StrEnum):
    """A tie-break the rules accept, by its acronym (with its C.07 article; SB-IECG: seed
    000 section C.14). The first twelve take no modifier."""

    DE = "DE"  # 6
    WIN = "WIN"  # 7.1
    WON = "WON"  # 7.2
    BPG = "BPG"  # 7.3
    BWG = "BWG"  # 7.4
    AOB = "AOB"  # 8.2
    KS = "KS"  # 9.2
    TPR = "TPR"  # 10.2
    PTP = "PTP"  # 10.3
    APRO = "APRO"  # 10.4
    APPO = "APPO"  # 10.5
    SB_IECG = "SB-IECG"  # seed 000 C.14
    PS = "PS"  # 7.5
    BH = "BH"  # 8.1
    FB = "FB"  # 8.3
    SB = "SB"  # 9.1
    ARO = "ARO"  # 10.1

    @property
    def takes_cut(self) -> bool:
        """Whether it takes a cut modifier (``-C<n>``)."""
        return self in _CUT

    @property
    def takes_median(self) -> bool:
        """Whether it takes a median modifier (``-M<n>``) too."""
        return self in _MEDIAN

    @property
    def rating_based(self) -> bool:
        """Whether it needs the players' ratings."""
        return self in _RATING_BASED


_CUT = frozenset({TieBreak.PS, TieBreak.BH, TieBreak.FB, TieBreak.SB, TieBreak.ARO})
_MEDIAN = frozenset({TieBreak.BH, TieBreak.FB, TieBreak.SB})
_RATING_BASED = frozenset({TieBreak.ARO, TieBreak.TPR, TieBreak.APRO, TieBreak.PTP, TieBreak.APPO})

_BY_NAME = {tie_break.value: tie_break for tie_break in TieBreak}
_MODIFIED = re.compile(r"(?P<base>[A-Z]+)-(?P<kind>[CM])(?P<count>[1-9][0-9]?)")


class UnknownTieBreakError(ValueError, InvalidInputError):
    """A tie-break name that is not a :class:`TieBreak`, alone or with a modifier it takes."""


def known_names() -> str:
    """The accepted names, for error messages."""
    cuts = ", ".join(f"{base}-C<n>" for base in TieBreak if base.takes_cut)
    medians = ", ".join(f"{base}-M<n>" for base in sorted(_MEDIAN))
    return f"{', '.join(TieBreak)}, {cuts}, {medians}"


@dataclass(frozen=True, slots=True)
class TieBreakName:
    """A parsed name: the acronym, ``"C"``, ``"M"`` or ``""``, and how many values go."""

    base: TieBreak
    modifier: str = ""
    count: int = 0

    def __str__(self) -> str:
        return f"{self.base}-{self.modifier}{self.count}" if self.modifier else str(self.base)


def parse_name(text: str) -> TieBreakName:
    """One name, e.g. ``"BH-C1"``; case and surrounding blanks do not matter."""
    name = text.strip().upper()
    if name in _BY_NAME:
        return TieBreakName(_BY_NAME[name])
    match = _MODIFIED.fullmatch(name)
    if match:
        base = _BY_NAME.get(match["base"])
        if base is not None and (base.takes_median if match["kind"] == "M" else base.takes_cut):
            return TieBreakName(base, match["kind"], int(match["count"]))
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


def usable_order(
    order: Sequence[str], ratings: Iterable[int | None]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The order that ranks, and the names it leaves out: C.07 (2024 and 2026) article 10
    drops the rating-based tie-breaks (ARO, TPR, PTP, APRO, APPO) from the list when unrated
    players take part, unless the tournament's regulations give those players a rating
    (this relay has no such setting, so it drops them)."""
    if all(rating is not None for rating in ratings):
        return tuple(order), ()
    kept = tuple(name for name in order if not parse_name(name).base.rating_based)
    return kept, tuple(name for name in order if name not in kept)
