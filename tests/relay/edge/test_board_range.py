"""``?boards=25-48``: parsed strictly, refused in words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.edge.board_range import BoardRange, parse_board_range


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [("25-48", 25, 48), ("7", 7, 7), (" 1-1 ", 1, 1), ("001-010", 1, 10)],
)
def test_ranges_and_single_boards(text, first, last):
    assert parse_board_range(text) == BoardRange(first, last)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("48-25", "must run upwards"),
        ("0-3", "must run upwards"),
        ("", "must be a range such as 25-48"),
        ("a-b", "must be a range such as 25-48"),
        ("1-2-3", "must be a range such as 25-48"),
        ("-4", "must be a range such as 25-48"),
        ("1234567", "must be a range such as 25-48"),
    ],
)
def test_anything_else_is_refused_in_words(text, words):
    with pytest.raises(ValueError, match=words):
        parse_board_range(text)


@given(st.integers(1, 999_999), st.integers(0, 999))
def test_a_range_reads_back_from_its_text_and_holds_its_ends(first, length):
    last = min(first + length, 999_999)
    board_range = parse_board_range(str(BoardRange(first, last)))
    assert board_range == BoardRange(first, last)
    assert first in board_range
    assert last in board_range
    assert first - 1 not in board_range
    assert last + 1 not in board_range
    assert "1" not in board_range  # a board number, not its text
