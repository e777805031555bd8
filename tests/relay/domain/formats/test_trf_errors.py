"""A TRF with several errors reports every one, each with its line, in one TrfError."""

from __future__ import annotations

from dataclasses import replace

import pytest

from relay.domain.errors import InvalidInputError, Kind
from relay.domain.formats.trf import TrfError, parse_trf, render_trf
from tests.relay.domain.formats.test_trf import (
    CANONICAL_16,
    FIRST_PLAYER_LINE,
    expected_tournament,
    with_columns,
)

P1, P2, P3, P4 = range(FIRST_PLAYER_LINE, FIRST_PLAYER_LINE + 4)
START_DATE_LINE = 4


def errors_of(text: str) -> TrfError:
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    return caught.value


def test_a_file_with_three_errors_reports_three_with_their_lines():
    text = with_columns(CANONICAL_16, P1, 10, "x")  # sex
    text = with_columns(text, P3, 54, "S1K")  # federation
    text = text.replace("2026/11/21", "21.11.2026")  # the start date
    error = errors_of(text)
    assert [p.line for p in error.problems] == [START_DATE_LINE, P1, P3]
    assert [p.message for p in error.problems] == [
        f"line {START_DATE_LINE}: date '21.11.2026' is not YYYY/MM/DD",
        f"line {P1}: sex 'x' (column 10) is not m, w or f",
        f"line {P3}: federation 'S1K' (columns 54-56) is not 3 letters",
    ]
    assert str(error) == "3 errors: " + "; ".join(p.message for p in error.problems)
    assert error.line is None
    assert isinstance(error, ValueError)
    assert isinstance(error, InvalidInputError)
    assert error.kind is Kind.INVALID


def test_the_fields_of_one_line_are_read_on_their_own():
    text = with_columns(CANONICAL_16, P2, 10, "x")  # sex
    text = with_columns(text, P2, 49, "26a0")  # rating
    text = with_columns(text, P2, 97, "x")  # round 1's colour
    error = errors_of(text)
    assert [p.line for p in error.problems] == [P2, P2, P2]
    reasons = [p.message for p in error.problems]
    assert "sex 'x'" in reasons[0]
    assert "rating '26a0'" in reasons[1]
    assert "round 1 (columns 92-99) colour 'x'" in reasons[2]


def test_headers_counts_and_results_are_collected_together():
    text = CANONICAL_16.replace("062 4", "062 5").replace("white1", "rank")
    text = with_columns(text, P1, 81, " 3.0")  # points that disagree with the results
    error = errors_of(text)
    assert [p.line for p in error.problems] == [6, 12, P1]
    assert "says 5 players, the file has 4" in error.problems[0].message
    assert "XXC setting 'rank'" in error.problems[1].message
    assert "3.0 points but the results add up to 2.5" in error.problems[2].message


def test_a_line_that_cannot_be_read_hides_nothing_but_its_own_consequences():
    # Player 1 is unreadable: the counts and the results that name player 1 are not
    # checked (they would only repeat the error), the other lines are.
    text = with_columns(CANONICAL_16, P1, 48, "x")
    text = text.replace("022 Prague", "022x Prague")
    error = errors_of(text)
    assert [p.line for p in error.problems] == [2, P1]


def test_a_disagreement_is_told_once():
    # Player 4 gives the same colour as player 1 in round 1: one error, at player 1.
    error = errors_of(with_columns(CANONICAL_16, P4, 97, "w"))
    assert [p.line for p in error.problems] == [P1]


def test_a_file_level_error_comes_after_the_lines():
    text = CANONICAL_16.replace("012 Prague Open 2026\n", "").replace("2026/11/29", "2026/02/30")
    error = errors_of(text)
    assert [p.line for p in error.problems] == [START_DATE_LINE, None]
    assert error.problems[1].message == "no 012 line (tournament name)"


def test_writing_reports_every_disagreement_too():
    t = expected_tournament()
    wrong = [replace(t.players[0], points=3.0), t.players[1], replace(t.players[2], points=0.0)]
    with pytest.raises(TrfError) as caught:
        render_trf(replace(t, players=[*wrong, t.players[3]]))
    lines = [p.line for p in caught.value.problems]
    assert lines == [FIRST_PLAYER_LINE, FIRST_PLAYER_LINE + 2]
    assert str(caught.value).startswith("2 errors: ")
