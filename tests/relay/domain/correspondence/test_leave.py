"""Leave by the IECG Rules and Regulations 6.4, article C.8: 45 days in each 12 months from
the tournament's start, announced in advance, none in rapid tournaments, cancelled for a
game in which the player answers a move during it. Worked out by hand in the comments."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.days import CorrespondenceControl
from relay.domain.correspondence.leave import (
    LEAVE_DAYS,
    Leave,
    LeaveDatesError,
    LeaveRefusedError,
    check_leave,
    game_leave,
    leave_left,
    leave_year,
)

STANDARD = CorrespondenceControl.standard()
TEAM = CorrespondenceControl.team()
RAPID = CorrespondenceControl.rapid()
START = date(2023, 3, 15)


def d(month: int, day: int, year: int = 2023) -> date:
    return date(year, month, day)


def span(first: date, days: int, announced: date | None = None) -> Leave:
    """A leave of ``days`` days from ``first``, announced the day before unless said."""
    return Leave(announced or first - timedelta(days=1), first, first + timedelta(days=days - 1))


def test_a_leave_counts_its_first_and_last_day():
    # 1 to 10 July: 10 days.
    leave = Leave(d(6, 1), d(7, 1), d(7, 10))
    assert leave.days == 10
    assert list(leave.dates())[0::9] == [d(7, 1), d(7, 10)]
    assert LEAVE_DAYS == 45  # C.8.A


def test_in_advance_means_before_the_first_day():
    # C.8.B: "in advance". Decision: on the first day itself is too late.
    assert Leave(d(6, 30), d(7, 1), d(7, 10)).in_advance
    assert not Leave(d(7, 1), d(7, 1), d(7, 10)).in_advance
    assert not Leave(d(7, 5), d(7, 1), d(7, 10)).in_advance


def test_a_leave_cut_short():
    leave = Leave(d(6, 1), d(7, 1), d(7, 10))
    assert leave.until(d(7, 4)) == Leave(d(6, 1), d(7, 1), d(7, 3))
    assert leave.until(d(7, 1)) is None
    assert leave.until(d(8, 1)) == leave


def test_a_leave_ending_before_it_begins():
    with pytest.raises(LeaveDatesError):
        Leave(d(6, 1), d(7, 10), d(7, 1))


def test_the_twelve_months_run_from_the_tournament_start():
    # Started 15 March 2023: 14 March 2024 is in the first 12 months, 15 March 2024 opens
    # the second.
    assert leave_year(START, d(3, 15)) == 0
    assert leave_year(START, d(3, 14, 2024)) == 0
    assert leave_year(START, d(3, 15, 2024)) == 1
    # Started 29 February 2024: 28 February 2025 is still the first year, 1 March the next.
    leap = date(2024, 2, 29)
    assert leave_year(leap, d(2, 28, 2025)) == 0
    assert leave_year(leap, d(3, 1, 2025)) == 1


def test_days_left_in_the_year():
    # 30 days taken in the first year: 45 - 30 = 15 left in it, 45 in the next.
    taken = [span(d(6, 1), 30)]
    assert leave_left(taken, START, d(9, 1)) == 15
    assert leave_left(taken, START, d(4, 1, 2024)) == 45


def test_a_leave_within_the_45_days_is_granted():
    # 30 + 15 = 45: exactly the year's leave.
    check_leave(span(d(9, 1), 15), [span(d(6, 1), 30)], START, STANDARD)
    check_leave(span(d(9, 1), 45), [], START, TEAM)


def test_a_leave_over_the_45_days_is_refused():
    # 30 + 16 = 46 > 45 (C.8.A).
    with pytest.raises(LeaveRefusedError, match="45 days"):
        check_leave(span(d(9, 1), 16), [span(d(6, 1), 30)], START, STANDARD)


def test_each_day_counts_in_its_own_year():
    # 45 days taken in the first year (June-July 2023). A leave of 10 days from 10 March
    # 2024: 10-14 March (5 days) fall in the first year, which is full: refused. From 15
    # March 2024 all 10 days fall in the second year: granted.
    taken = [span(d(6, 1), 45)]
    with pytest.raises(LeaveRefusedError):
        check_leave(span(d(3, 10, 2024), 10), taken, START, STANDARD)
    check_leave(span(d(3, 15, 2024), 10), taken, START, STANDARD)


def test_overlapping_leaves_count_a_day_once():
    # 1-30 June and 21 June-10 July overlap on 21-30 June: 40 distinct days; 5 more fit.
    taken = [span(d(6, 1), 30), span(d(6, 21), 20)]
    assert leave_left(taken, START, d(6, 1)) == 5
    check_leave(span(d(9, 1), 5), taken, START, STANDARD)


def test_a_void_leave_does_not_use_the_quota():
    # A leave not announced in advance is void (C.8.B): its 30 days are not taken.
    void = span(d(6, 1), 30, announced=d(6, 1))
    assert leave_left([void], START, d(9, 1)) == 45
    check_leave(span(d(9, 1), 45), [void], START, STANDARD)


def test_refused_without_advance_notice_or_in_rapid():
    with pytest.raises(LeaveRefusedError, match="not in advance"):
        check_leave(span(d(9, 1), 5, announced=d(9, 1)), [], START, STANDARD)
    with pytest.raises(LeaveRefusedError, match="rapid"):
        check_leave(span(d(9, 1), 5), [], START, RAPID)


def test_a_game_leave_is_cut_by_a_reply_during_it():
    # Leave 5-14 July, a reply on 8 July (C.8.C): 5-7 July stay leave in this game.
    leave = Leave(d(6, 1), d(7, 5), d(7, 14))
    assert game_leave([leave], [d(7, 1), d(7, 8), d(7, 11)], STANDARD) == {
        d(7, 5),
        d(7, 6),
        d(7, 7),
    }
    # A reply on its first day cancels it all; replies outside it change nothing.
    assert game_leave([leave], [d(7, 5)], STANDARD) == frozenset()
    assert game_leave([leave], [d(7, 4), d(7, 15)], STANDARD) == set(leave.dates())


def test_a_game_leave_leaves_out_void_leaves_and_refuses_rapid():
    void = Leave(d(7, 5), d(7, 5), d(7, 14))
    assert game_leave([void], [], STANDARD) == frozenset()
    # A void leave in a rapid game is nothing to refuse: it is not a leave at all.
    assert game_leave([void], [], RAPID) == frozenset()
    with pytest.raises(LeaveRefusedError):
        game_leave([Leave(d(6, 1), d(7, 5), d(7, 14))], [], RAPID)


@given(st.integers(0, 400), st.integers(1, 60), st.lists(st.integers(0, 400), max_size=6))
def test_a_game_leave_is_never_more_than_the_leave(offset, days, replies):
    leave = span(START + timedelta(days=offset), days)
    answered = [START + timedelta(days=r) for r in replies]
    stopped = game_leave([leave], answered, STANDARD)
    assert stopped <= set(leave.dates())
    # No reply falls on a stopped day: answering during a leave ends it from that day.
    assert not stopped & set(answered)
    # What is left of it runs from its first day, unbroken.
    assert stopped == set(list(leave.dates())[: len(stopped)])
