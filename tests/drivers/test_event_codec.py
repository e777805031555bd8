"""The drivers' events on a link: every event and command survives encoding, JSON and
decoding unchanged, and anything else is a WireError naming what is wrong."""

from __future__ import annotations

import json
import math
import typing
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from drivers import events
from drivers.event_codec import KINDS, WireError, decode, encode

EVERYTHING = st.one_of(
    *(st.from_type(cls) for cls in typing.get_args(events.BoardEvent)),
    *(st.from_type(cls) for cls in typing.get_args(events.ClockCommand)),
)


@given(EVERYTHING)
def test_every_event_and_command_comes_back_unchanged(value: Any) -> None:
    try:
        encoded = encode(value)
    except WireError:  # a number no link carries (infinite, or beyond 2**53): refused
        assume(False)
    wire = json.dumps(encoded)
    assert decode(json.loads(wire)) == value


def test_a_field_change_on_the_wire() -> None:
    position: events.Position = ("R", None, *([None] * 61), "k")
    wire = encode(events.FieldChange(square=0, piece="R", position=position))
    assert wire == {"kind": "FieldChange", "square": 0, "piece": "R", "position": list(position)}


def test_a_clock_command_result_carries_its_command() -> None:
    command = events.SetAndRun(300, 300, events.RunMode.LEFT, lever_toggles=True)
    wire = encode(events.ClockCommandResult(command=command, ok=True))
    assert wire["command"] == {
        "kind": "SetAndRun",
        "left_seconds": 300,
        "right_seconds": 300,
        "run": "left",
        "lever_toggles": True,
    }
    assert decode(wire) == events.ClockCommandResult(command=command, ok=True)


def test_defaults_may_be_left_out() -> None:
    assert decode({"kind": "Disconnected", "reason": "unplugged"}) == events.Disconnected(
        "unplugged"
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "an object with a kind"),
        ({"kind": "Explode"}, "unknown kind 'Explode'"),
        ({"kind": "Disconnected"}, "reason is missing"),
        ({"kind": "Disconnected", "reason": "x", "extra": 1}, "unknown fields extra"),
        ({"kind": "Beep", "duration_ms": True}, "Beep.duration_ms: a int, not bool"),
        ({"kind": "Beep", "duration_ms": "5"}, "Beep.duration_ms: a int, not str"),
        ({"kind": "LogReplay", "positions": "abc"}, "a list, not str"),
        ({"kind": "BoardStatus", "health": "on fire"}, "'on fire' is not a Health"),
        (
            {"kind": "BoardStatus", "health": "active", "version": [1]},
            "BoardStatus.version: 2 items, not 1",
        ),
        (
            {"kind": "ClockCommandResult", "command": {"kind": "Disconnected", "reason": ""},
             "ok": True},
            "Disconnected does not belong here",
        ),
        (
            {"kind": "ClockCommandResult", "command": None, "ok": True},
            "may not be null",
        ),
    ],
)  # fmt: skip
def test_anything_else_is_refused_in_words(data: Any, words: str) -> None:
    with pytest.raises(WireError, match=words.replace("[", r"\[").replace("]", r"\]")):
        decode(data)


def test_a_deep_nest_is_refused() -> None:
    data: Any = {"kind": "Beep", "duration_ms": 1}
    for _ in range(20):
        data = {"kind": "ClockCommandFailed", "command": data, "reason": ""}
    with pytest.raises(WireError):
        decode(data)


def test_a_number_that_json_cannot_hold_is_refused_both_ways() -> None:
    status = events.BoardStatus(events.Health.ACTIVE, last_seen=math.inf)
    with pytest.raises(WireError, match="no JSON form"):
        encode(status)
    with pytest.raises(WireError, match="not a finite number"):
        decode({"kind": "BoardStatus", "health": "active", "last_seen": math.nan})


def test_every_kind_is_named_once() -> None:
    assert set(KINDS) >= {"PositionSnapshot", "FieldChange", "ClockReading", "SetAndRun"}
    assert all(cls.__name__ == name for name, cls in KINDS.items())


def test_numbers_too_long_for_a_link_are_refused_in_words() -> None:
    huge = 10**400
    with pytest.raises(WireError, match="a whole number up to 2\\*\\*53"):
        decode({"kind": "Beep", "duration_ms": huge})
    with pytest.raises(WireError, match="is not a finite number"):
        decode({"kind": "BoardStatus", "health": "active", "last_seen": huge})
