"""The causes of a time change, as the game's log and the API keep them."""

from __future__ import annotations

import pytest

from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.errors import Kind
from relay.domain.game.events import TimeAdjusted, event_data, event_from_data
from relay.domain.vocabulary import UnknownWordError


def test_the_causes_are_the_words_stored():
    assert [str(cause) for cause in ClockChangeCause] == [
        "arbiter",
        "illegal-move",
        "wrong-claim",
        "increment",
    ]


@pytest.mark.parametrize("cause", list(ClockChangeCause))
def test_a_time_change_reads_back_with_its_cause(cause):
    event = TimeAdjusted("white", "add", 60.0, cause, "why", "arb", 1.0)
    read = event_from_data(event.kind, event_data(event))
    assert read == event
    assert isinstance(read, TimeAdjusted)
    assert read.cause is cause


def test_a_word_that_is_no_cause_is_invalid_input():
    with pytest.raises(UnknownWordError, match=r"^cause 'mood' is not one of \[") as refused:
        ClockChangeCause.parse("mood")
    assert refused.value.kind is Kind.INVALID
