"""Player names that probably belong to one person, found before a round is published.

Lists are typed by hand, imported from PGN tags and TRF files, and entered late at the
desk: the same player turns up as "Kramnik, Vladimir" and "Kramnik, V", as "Müller, Jörg"
and "Mueller, Joerg", as "Vladimir Kramnik" (seed 004 ch. 18 recommends one standard,
"Family, Given"). This module compares names only; it changes nothing.

* :func:`fold` writes a word without case, accents or punctuation, and with the German
  transliterations (ä as ae, ö as oe, ü as ue) made one with the plain vowel: "Müller",
  "Mueller" and "Muller" all fold to ``muller``. Letters that do not decompose have a table
  (ß as ss, ø as o, æ as ae, ł as l, ...).
* :func:`name_key` is the whole name folded, its words in alphabetical order: the same for
  every spelling of the name that differs only in case, accents, punctuation, or the order
  "Family, Given" against "Given Family". Equal keys are the same name.
* :func:`standard_name` writes a name as "Family, Given" (a name without a comma is read as
  "Given Family").
* :func:`find_clashes` pairs the players of a tournament whose names probably belong to one
  person, each pair with its reasons in words. Two names match when their family names fold
  alike and each given name fits the other's: the same word, or an initial of it ("V"
  matches "Vladimir", never "Alexander"); one may have a given name more (a middle name) or
  none at all. A name without a comma is read both ways round. A FIDE id decides: two
  players with the same FIDE id are one person whatever their names, two with different ones
  are never.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Letters that keep their own form under Unicode decomposition, as ASCII.
_LETTERS = {
    "ß": "ss",
    "ẞ": "ss",
    "ø": "o",
    "æ": "ae",
    "œ": "oe",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "\u0131": "i",  # dotless i
    "ħ": "h",
    "ŀ": "l",
    "ŧ": "t",
}
#: The German umlauts written out, folded into the plain vowel.
_TRANSLITERATED = re.compile(r"(ae|oe|ue)")
_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue"}
_WORDS = re.compile(r"[\s\-./]+")
_DROPPED = re.compile(r"[^\w]|_")


def strip_accents(text: str) -> str:
    """The text without diacritics ("Jörg" -> "Jorg", "Łódź" -> "Lodz"); case is kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    out = []
    for char in decomposed:
        if unicodedata.combining(char):
            continue
        lower = char.lower()
        mapped = _LETTERS.get(lower)
        if mapped is None:
            out.append(char)
        elif char != lower:
            out.append(mapped.capitalize())
        else:
            out.append(mapped)
    return "".join(out)


def _plain(word: str) -> str:
    """A word lowercased, without punctuation (the accents kept)."""
    return _DROPPED.sub("", unicodedata.normalize("NFC", word).lower())


def _unaccented(word: str) -> str:
    return _DROPPED.sub("", strip_accents(unicodedata.normalize("NFC", word)).lower())


def fold(word: str) -> str:
    """A word as names are compared: lowercase ASCII letters and digits, without accents or
    punctuation, "ae", "oe" and "ue" written as their vowel ("Müller", "Mueller", "Muller":
    ``muller``). Folding a folded word changes nothing: the vowels are made one until none
    is left to make one ("aee" is ``a``)."""
    folded = _unaccented(word)
    while (shorter := _TRANSLITERATED.sub(lambda found: found[1][0], folded)) != folded:
        folded = shorter
    return folded


def _words(text: str) -> list[str]:
    """The words of a name part: split at spaces, hyphens, dots and slashes; an apostrophe
    joins ("O'Neill" is one word)."""
    return [word for word in _WORDS.split(text) if _DROPPED.sub("", word)]


def name_key(name: str) -> str:
    """The name as it compares: its folded words in alphabetical order, spaced. Case,
    accents, transliterated umlauts, punctuation and the order of family and given names
    do not change it; a key is its own key."""
    return " ".join(sorted(fold(word) for word in _words(name.replace(",", " ")) if fold(word)))


def standard_name(name: str) -> str:
    """The name written "Family, Given", its spaces tidied; a name without a comma is read
    as "Given Family" ("Vladimir Kramnik" -> "Kramnik, Vladimir"). A name of one word stays
    as it is."""
    family, given, _ = _split(name)
    if not given:
        return " ".join(family)
    return f"{' '.join(family)}, {' '.join(given)}"


def _split(name: str) -> tuple[list[str], list[str], bool]:
    """Family and given words as written, and whether the name had a comma."""
    if "," in name:
        family, _, given = name.partition(",")
        return family.split(), given.replace(",", " ").split(), True
    words = name.split()
    if len(words) < 2:
        return words, [], False
    return words[-1:], words[:-1], False


def fullness(name: str) -> tuple[int, int, int]:
    """How much a name says, to choose the fuller of two spellings: the letters of its given
    names beyond initials, then its accented letters, then its length."""
    _, given, _ = _split(name)
    letters = sum(len(fold(word)) for word in _words(" ".join(given)) if len(fold(word)) > 1)
    accented = sum(1 for char in name if not char.isascii())
    return letters, accented, len(name)


def fuller_name(first: str, second: str) -> str:
    """Of two spellings of one name, the one that says more, written "Family, Given"."""
    chosen = first if fullness(first) >= fullness(second) else second
    return standard_name(chosen)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the matcher sees one: an id of the caller's, the name, the FIDE id."""

    id: int
    name: str
    fide_id: int | None = None


@dataclass(frozen=True, slots=True)
class NameClash:
    """Two players who are probably one person, and why, in words."""

    first: Entrant
    second: Entrant
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Reading:
    """One way to read a name: its family and given words, folded and as written."""

    family: tuple[str, ...]
    given: tuple[str, ...]
    family_written: tuple[str, ...]
    given_written: tuple[str, ...]
    #: Why this reading is not the name as it is naturally read (None: it is).
    order: str | None


def _reading(family: list[str], given: list[str], order: str | None) -> _Reading:
    return _Reading(
        tuple(fold(w) for w in family),
        tuple(fold(w) for w in given),
        tuple(family),
        tuple(given),
        order,
    )


def _readings(name: str) -> list[_Reading]:
    """The ways to read a name: "Family, Given" as written when it has a comma, then turned
    round; without a comma, "Given Family" with the family name its last word, or its last
    words ("Jan van der Berg"), then "Family Given"."""
    family, given, comma = _split(name)
    if comma:
        fam_words = _words(" ".join(family))
        giv_words = _words(" ".join(given))
        found = [_reading(fam_words, giv_words, None)]
        if giv_words:
            found.append(_reading(giv_words, fam_words, "given and family names swapped"))
        return found
    words = _words(name)
    if len(words) < 2:
        return [_reading(words, [], None)]
    first = f"{name!r} is written family name first, without a comma"
    found = [_reading(words[cut:], words[:cut], None) for cut in range(len(words) - 1, 0, -1)]
    found += [_reading(words[:cut], words[cut:], first) for cut in range(1, len(words))]
    return found


def _spelling(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """Why words that fold alike are written differently: accents, or umlauts written out
    (nothing for case and punctuation)."""
    accents = False
    umlauts: set[str] = set()
    written_out = False
    for one, two in pairs:
        if _plain(one) == _plain(two):
            continue
        if _unaccented(one) == _unaccented(two):
            accents = True
            continue
        found = {c for c in (one + two).lower() if c in _UMLAUTS}
        umlauts |= found
        written_out = written_out or not found
    notes = []
    if accents:
        notes.append("same name with accents removed")
    if umlauts:
        written = ", ".join(f"{c} written {_UMLAUTS[c]}" for c in sorted(umlauts))
        notes.append(f"same name with {written}")
    elif written_out:
        notes.append("same name with an umlaut written out in one and dropped in the other")
    return notes


def _given_fit(first: _Reading, second: _Reading, alike: list[tuple[str, str]]) -> list[str] | None:
    """How the given names fit (reasons in words), or None when they belong to others; the
    given names that fold alike are added to ``alike``."""
    if not first.given or not second.given:
        if first.given == second.given:
            return []
        written = " ".join(first.family_written if not first.given else second.family_written)
        return [f"no given name in {written!r}"]
    reasons: list[str] = []
    pairs = zip(
        zip(first.given, first.given_written, strict=True),
        zip(second.given, second.given_written, strict=True),
        strict=False,
    )
    for (one, one_written), (two, two_written) in pairs:
        if one == two:
            alike.append((one_written, two_written))
        elif len(one) == 1 and len(two) > 1 and two.startswith(one):
            reasons.append(f"initial {one_written.upper()} matches {two_written}")
        elif len(two) == 1 and len(one) > 1 and one.startswith(two):
            reasons.append(f"initial {two_written.upper()} matches {one_written}")
        else:
            return None
    shorter = min(len(first.given), len(second.given))
    longer = first if len(first.given) > len(second.given) else second
    extra = longer.given_written[shorter:]
    if extra:
        reasons.append(f"given name {' '.join(extra)} only in one")
    return reasons


def _has_comma(name: str) -> bool:
    return "," in name


def match(first: str, second: str) -> tuple[str, ...] | None:
    """The reasons two names are probably one person's, or None when they are not (or not
    likely): the fewest reasons any reading of the two gives."""
    best: list[str] | None = None
    best_cost = 0.0
    for one in _readings(first):
        for two in _readings(second):
            if one.order is not None and two.order is not None:
                continue  # both turned round: the two as read cover it
            if not one.family or one.family != two.family:
                continue
            alike = list(zip(one.family_written, two.family_written, strict=True))
            fit = _given_fit(one, two, alike)
            if fit is None:
                continue
            reasons = [o for o in (one.order, two.order) if o is not None]
            if one.order is None and two.order is None and one.given and two.given:
                # One written "Given Family", the other "Family, Given".
                for name, other in ((first, second), (second, first)):
                    if not _has_comma(name) and _has_comma(other):
                        reasons.append(f"{name!r} is written given name first")
            reasons += _spelling(alike) + fit
            # A comma is meant: turning a name with one round costs a little more.
            turned = (one.order is not None and _has_comma(first)) or (
                two.order is not None and _has_comma(second)
            )
            cost = len(reasons) + (0.5 if turned else 0.0)
            if best is None or cost < best_cost:
                best, best_cost = reasons, cost
    if best is None:
        return None
    if not best:
        same = " ".join(first.split()) == " ".join(second.split())
        best = ["the same name" if same else "same name, case, spaces or punctuation aside"]
    return tuple(dict.fromkeys(best))


def find_clashes(players: Iterable[Entrant]) -> list[NameClash]:
    """Every pair of players who are probably one person, in the order of the list (each
    pair once, the earlier player first). Only players sharing a folded word of two letters
    or more are compared, so a large open is quick."""
    entrants = list(players)
    by_word: dict[str, list[int]] = {}
    for index, entrant in enumerate(entrants):
        for word in set(name_key(entrant.name).split()):
            if len(word) > 1:
                by_word.setdefault(word, []).append(index)
    candidates: set[tuple[int, int]] = set()
    for indices in by_word.values():
        for i, one in enumerate(indices):
            for two in indices[i + 1 :]:
                candidates.add((one, two))
    by_fide: dict[int, list[int]] = {}
    for index, entrant in enumerate(entrants):
        if entrant.fide_id:
            by_fide.setdefault(entrant.fide_id, []).append(index)
    for indices in by_fide.values():
        for i, one in enumerate(indices):
            for two in indices[i + 1 :]:
                candidates.add((one, two))
    clashes = []
    for one, two in sorted(candidates):
        reasons = clash_reasons(entrants[one], entrants[two])
        if reasons is not None:
            clashes.append(NameClash(entrants[one], entrants[two], reasons))
    return clashes


def clash_reasons(first: Entrant, second: Entrant) -> tuple[str, ...] | None:
    """Why two players are probably one person, or None. The FIDE id decides when both have
    one; otherwise the names (:func:`match`)."""
    if first.fide_id and second.fide_id:
        if first.fide_id != second.fide_id:
            return None
        named = match(first.name, second.name)
        return (f"same FIDE id {first.fide_id}", *(named or ()))
    return match(first.name, second.name)
