"""Bye kinds: the words stored, their TRF codes, and what the tie-breaks count them as."""

from __future__ import annotations

import pytest

from relay.domain.errors import Kind
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.tie_break_results import UnplayedKind
from relay.domain.vocabulary import UnknownWordError


@pytest.mark.parametrize(
    ("kind", "word", "trf", "unplayed", "points"),
    [
        (ByeKind.PAIRING_ALLOCATED, "pab", "U", UnplayedKind.PAIRING_BYE, 1.0),
        (ByeKind.HALF_POINT, "half", "H", UnplayedKind.HALF_BYE, 0.5),
        (ByeKind.FULL_POINT, "full", "F", UnplayedKind.FULL_BYE, 1.0),
        (ByeKind.ZERO_POINT, "zero", "Z", UnplayedKind.ZERO_BYE, 0.0),
    ],
)
def test_each_kind_has_its_word_trf_code_and_unplayed_round(kind, word, trf, unplayed, points):
    assert (str(kind), kind.trf_code, kind.unplayed, kind.unplayed.points) == (
        word,
        trf,
        unplayed,
        points,
    )
    assert ByeKind.parse(word) is kind


def test_every_kind_but_the_pairing_allocated_bye_may_be_asked_for():
    assert [kind for kind in ByeKind if not kind.requestable] == [ByeKind.PAIRING_ALLOCATED]


@pytest.mark.parametrize("text", ["PAB", "bye", "U", "", None])
def test_a_word_that_is_no_bye_kind_is_invalid_input(text):
    with pytest.raises(UnknownWordError) as refused:
        ByeKind.parse(text)
    assert str(refused.value) == f"bye {text!r} is not one of ['full', 'half', 'pab', 'zero']"
    assert refused.value.kind is Kind.INVALID
