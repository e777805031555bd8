"""Pairing systems: the words the event file, the store and the API use."""

from __future__ import annotations

import pytest

from relay.domain.errors import Kind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.vocabulary import UnknownWordError


def test_the_words_and_the_round_robin_cycles():
    assert {str(system): system.cycles for system in PairingSystem} == {
        "swiss": None,
        "round-robin": 1,
        "double-round-robin": 2,
        "knockout": None,
        "scheveningen": None,
    }
    assert all(PairingSystem.parse(str(system)) is system for system in PairingSystem)


@pytest.mark.parametrize("text", ["dutch", "Swiss", "round robin", ""])
def test_a_word_that_is_no_pairing_system_is_invalid_input(text):
    with pytest.raises(UnknownWordError, match=rf"^pairing system {text!r} is not one of \[") as e:
        PairingSystem.parse(text)
    assert e.value.kind is Kind.INVALID
