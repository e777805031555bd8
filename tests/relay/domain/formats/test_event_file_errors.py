"""An event file with several problems reports every one, each with its place, in one
EventFileError."""

from __future__ import annotations

import pytest

from relay.domain.errors import InvalidInputError
from relay.domain.formats.event_file import EventFileError, parse_event_file

THREE_PROBLEMS = """
[tournament]
name = "Club Open"
pairing_system = "dutch"

[[player]]
number = 1
name = "Moss, Mary"
rating = 5000

[[player]]
number = 2
name = "Lee, Hugo"

[[board]]
number = 1
url = "/dev/ttyACM0"
driver = "millennium"
"""


def errors_of(text: str) -> EventFileError:
    with pytest.raises(EventFileError) as caught:
        parse_event_file(text)
    return caught.value


def test_a_file_with_three_problems_reports_three_with_their_places():
    error = errors_of(THREE_PROBLEMS)
    assert [(p.field, p.line) for p in error.problems] == [
        ("[tournament]", None),
        ("player 1", None),
        ("board 1", None),
    ]
    assert [p.message for p in error.problems] == [
        "[tournament]: pairing_system is one of "
        "swiss, round-robin, double-round-robin, knockout, scheveningen",
        "player 1: rating 5000 is out of range",
        "board 1: driver 'millennium' is not one of ['dgt']",
    ]
    assert str(error) == "3 errors: " + "; ".join(p.message for p in error.problems)
    assert isinstance(error, ValueError)
    assert isinstance(error, InvalidInputError)


def test_the_keys_of_one_table_are_read_on_their_own():
    text = '[tournament]\nname = "X"\n[[player]]\nnumber = 1\nname = "A"\n'
    text += 'title = "XM"\nfederation = "CZ"\nrating = "2000"\nhobby = "chess"\n'
    error = errors_of(text)
    assert [p.field for p in error.problems] == ["player 1"] * 4
    reasons = " | ".join(p.message for p in error.problems)
    for reason in ("unknown key 'hobby'", "title 'XM'", "federation 'CZ'", "rating must be"):
        assert reason in reasons


def test_references_are_all_checked():
    text = (
        '[tournament]\nname = "X"\n[[player]]\nnumber = 1\nname = "A"\n'
        "[[round]]\nnumber = 1\npairings = [[1, 2], [3, 1]]\n"
    )
    error = errors_of(text)
    assert [p.message for p in error.problems] == [
        "round 1, board 1: no player with number 2",
        "round 1, board 2: no player with number 3",
        "round 1, board 2: player 1 is paired twice",
    ]
    assert [p.field for p in error.problems] == ["round 1, board 1"] + ["round 1, board 2"] * 2


def test_a_player_that_cannot_be_read_is_not_reported_again_by_the_pairings():
    text = (
        '[tournament]\nname = "X"\n[[player]]\nnumber = 1\nname = ""\n'
        '[[player]]\nnumber = 2\nname = "B"\n[[round]]\nnumber = 1\npairings = [[1, 2]]\n'
    )
    error = errors_of(text)
    assert [p.message for p in error.problems] == ["player 1: name is required and must be text"]
    assert str(error) == "player 1: name is required and must be text"


def test_a_file_that_is_not_toml_is_one_problem():
    error = errors_of("[tournament\nname = 1\n[[player]]\nnumber = 0\n")
    assert len(error.problems) == 1
    assert str(error).startswith("not valid TOML")
