"""Correspondence timekeeping by the IECG Rules and Regulations 6.4, section C: the controls
(C.6.A, C.6.C), the days of one move (C.2.B, C.6.D), doubled time (C.3.1.B), penalties
(C.2.G), and a player's clock with its flag (C.6.B) and single-move limit (C.3.1.A, C.3.2.A).

Every expected number is worked out by hand in a comment from the rule's words."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.days import (
    ControlError,
    CorrespondenceControl,
    EventKind,
    Turn,
    TurnError,
    charged_days,
    counted_days,
    reflection_days,
)
from relay.domain.correspondence.leave import Leave, LeaveRefusedError
from relay.domain.correspondence.timekeeping import ClockDecision, Ruling, clock

STANDARD = CorrespondenceControl.standard()
TEAM = CorrespondenceControl.team()
RAPID = CorrespondenceControl.rapid()


def d(month: int, day: int, year: int = 2023) -> date:
    return date(year, month, day)


def days_after(day: date, count: int) -> date:
    return day + timedelta(days=count)


def taking(*spans: int, notice: bool = False) -> list[Turn]:
    """A player's moves, all replied, taking ``spans`` days each (C.6.D), each opponent's
    move mailed 2 days after his reply was received. With ``notice`` each move carries a
    notice mailed on its day of receipt (C.3.1.B)."""
    turns = []
    sent = d(1, 1)
    for span in spans:
        received = days_after(sent, 1)
        turns.append(Turn(sent, days_after(received, span), received if notice else None))
        sent = days_after(received, span + 3)
    return turns


# C.6.A, C.6.C: the controls.


def test_standard_gives_40_days_per_10_moves_carried_forward():
    # 40 days for moves 1-10, 80 in all by move 20, 120 by move 30 (time saved carried
    # forward, C.6.C); checked at moves 10, 20, 30.
    assert [STANDARD.allowance(move) for move in (1, 10, 11, 20, 21)] == [40, 40, 80, 80, 120]
    assert [STANDARD.next_control(move) for move in (1, 10, 11, 20, 21)] == [10, 10, 20, 20, 30]
    assert (STANDARD.move_limit, STANDARD.notice_after, STANDARD.penalty_days) == (30, 10, 5)


def test_team_has_the_standard_numbers_and_its_own_kind():
    # C.6.A: 40 days per 10 moves "in Standard and Team Tournaments"; C.3.2.A: 30 days.
    assert TEAM.kind is EventKind.TEAM
    assert [TEAM.allowance(m) for m in (10, 11)] == [40, 80]
    assert TEAM.move_limit == 30
    assert TEAM.allows_leave


def test_rapid_is_a_fischer_clock_of_10_days_and_1_a_move():
    # "10 days + 1 day/move": 11 days by move 1, 15 by move 5, 40 by move 30; every move
    # is its own control. C.3.1.A: 20 days at most; C.3.1.B: notice after 5; C.2.G: 3 days.
    assert [RAPID.allowance(move) for move in (1, 5, 30)] == [11, 15, 40]
    assert RAPID.next_control(7) == 7
    assert (RAPID.move_limit, RAPID.notice_after, RAPID.penalty_days) == (20, 5, 3)
    assert not RAPID.allows_leave  # C.8.A


def test_doubling_starts_on_the_11th_6th_or_21st_11th_day():
    # C.3.1.B: "doubled from the 11th/6th day, or from the 21st/11th day" (with a notice).
    assert (STANDARD.doubling_from(False), STANDARD.doubling_from(True)) == (11, 21)
    assert (RAPID.doubling_from(False), RAPID.doubling_from(True)) == (6, 11)


@pytest.mark.parametrize(
    ("days", "moves", "increment", "limit"),
    [(0, 10, 0, 30), (40, -1, 0, 30), (40, 10, 1, 30), (40, 10, 0, 0)],
)
def test_a_control_that_cannot_be(days, moves, increment, limit):
    with pytest.raises(ControlError):
        CorrespondenceControl(EventKind.STANDARD, days, moves, increment, limit, 10, 5)


def test_a_two_game_match_may_agree_its_own_control():
    # D.2.6: 30 days per 10 moves, say: 30 by move 10, 60 by move 20.
    control = CorrespondenceControl(EventKind.STANDARD, 30, 10, 0, 30, 10, 5)
    assert [control.allowance(m) for m in (10, 20)] == [30, 60]


# C.2.B, C.6.D: the days of one move.


def test_a_move_is_received_one_day_after_it_was_sent():
    # C.2.B: "The normally accepted time of an email transmission is one day."
    assert Turn(d(3, 1)).received == d(3, 2)


def test_a_reply_on_the_day_of_receipt_takes_no_day():
    # Sent 1 March, received 2 March (C.2.B), replied 2 March: 2 - 2 = 0 days (C.6.D).
    assert reflection_days(Turn(d(3, 1), d(3, 2))) == 0
    # Replied on 1 March, before the accepted day of receipt: still 0, never negative.
    assert reflection_days(Turn(d(3, 1), d(3, 1))) == 0
    # Replied 3 March: 1 day.
    assert reflection_days(Turn(d(3, 1), d(3, 3))) == 1


def test_ten_days_are_counted_single():
    # Sent 1 March, received 2 March, replied 12 March: 12 - 2 = 10 days, none doubled.
    turn = Turn(d(3, 1), d(3, 12))
    assert counted_days(turn) == [d(3, day) for day in range(3, 13)]
    assert charged_days(turn, STANDARD) == 10


def test_without_a_notice_the_11th_day_counts_double():
    # Received 2 March, replied 14 March: 12 days. No notice (C.3.1.B): days 1-10 single,
    # the 11th and 12th double: 10 + 2 * 2 = 14.
    turn = Turn(d(3, 1), d(3, 14))
    assert reflection_days(turn) == 12
    assert charged_days(turn, STANDARD) == 14


def test_a_notice_in_time_keeps_days_11_to_20_single():
    # The same 12 days with a notice mailed 5 March: single up to the 20th day: 12.
    assert charged_days(Turn(d(3, 1), d(3, 14), notice=d(3, 5)), STANDARD) == 12
    # Mailed on the 10th day (12 March), the last single one: still in time.
    assert charged_days(Turn(d(3, 1), d(3, 14), notice=d(3, 12)), STANDARD) == 12
    # Mailed on the 11th day (13 March): too late, the doubling stands: 14.
    assert charged_days(Turn(d(3, 1), d(3, 14), notice=d(3, 13)), STANDARD) == 14


def test_with_a_notice_the_21st_day_counts_double():
    # Received 2 March, replied 27 March: 25 days; with a notice days 1-20 single and the
    # 21st-25th double: 20 + 2 * 5 = 30.
    assert charged_days(Turn(d(3, 1), d(3, 27), notice=d(3, 2)), STANDARD) == 30


def test_rapid_doubles_from_the_6th_day_or_the_11th():
    # Received 2 March, replied 9 March: 7 days. No notice: 5 + 2 * 2 = 9; with one: 7.
    assert charged_days(Turn(d(3, 1), d(3, 9)), RAPID) == 9
    assert charged_days(Turn(d(3, 1), d(3, 9), notice=d(3, 3)), RAPID) == 7


def test_a_penalty_adds_5_days_or_3_in_rapid():
    # C.2.G: 3 days taken + one penalty: 3 + 5 = 8 (standard), 3 + 3 = 6 (rapid).
    turn = Turn(d(3, 1), d(3, 5), penalties=1)
    assert charged_days(turn, STANDARD) == 8
    assert charged_days(turn, RAPID) == 6


def test_whites_first_move_counts_from_the_start():
    # No move was mailed to White: started 1 January, replied 4 January: 3 days.
    assert reflection_days(Turn.first(d(1, 1), d(1, 4))) == 3


def test_a_ruling_on_transmission_moves_the_day_of_receipt():
    # C.2.D: the TS rules the move took 3 days to arrive: received 4 March, replied 10 March.
    assert reflection_days(Turn(d(3, 1), d(3, 10), transmission=3)) == 6


def test_a_pending_move_counts_up_to_today():
    # Sent 1 March, received 2 March, still thinking on 6 March: 4 days so far.
    assert reflection_days(Turn(d(3, 1)), today=d(3, 6)) == 4
    with pytest.raises(TurnError, match="pending"):
        reflection_days(Turn(d(3, 1)))


def test_days_off_are_left_out():
    # Received 2 July, replied 20 July: 18 days; 10 of them (5-14 July) off: 8.
    off = frozenset(d(7, day) for day in range(5, 15))
    assert reflection_days(Turn(d(7, 1), d(7, 20)), off=off) == 8


@pytest.mark.parametrize(
    "turn",
    [
        lambda: Turn(d(3, 5), d(3, 4)),
        lambda: Turn(d(3, 5), notice=d(3, 4)),
        lambda: Turn(d(3, 5), penalties=-1),
    ],
)
def test_dates_that_cannot_be(turn):
    with pytest.raises(TurnError):
        turn()


# A player's clock over a game.


def test_time_saved_is_carried_forward():
    # Ten moves of 3 days: 30 used by move 10 (allowed 40). Next control move 20 with 80
    # in all: 80 - 30 = 50 left.
    reading = clock(STANDARD, taking(*[3] * 10), today=d(12, 31))
    assert (reading.moves, reading.used, reading.next_control, reading.allowance) == (
        10,
        30,
        20,
        80,
    )
    assert reading.left == 50
    assert reading.decision is ClockDecision.IN_TIME


def test_using_exactly_the_allowance_is_in_time():
    # Moves 1-10 of 2 days (20), moves 11-20 of 6 days (60): 80 by move 20, allowed 80.
    # Next: move 21, control 30, 120 allowed: 40 left.
    reading = clock(STANDARD, taking(*[2] * 10, *[6] * 10), today=d(12, 31))
    assert (reading.used, reading.next_control, reading.left) == (80, 30, 40)
    assert reading.rulings == ()


def test_the_flag_falls_at_the_control():
    # Moves 1-10 of 2 days (20), moves 11-19 of 6 (54): 74, room 80 - 74 = 6 at move 20.
    # Move 20 takes 7 days: its 7th day makes 81 > 80: the flag falls that day (C.6.B).
    turns = taking(*[2] * 10, *[6] * 9, 7)
    reading = clock(STANDARD, turns, today=d(12, 31))
    assert reading.rulings == (
        Ruling(ClockDecision.FLAG_FELL, 20, days_after(turns[-1].received, 7)),
    )
    assert reading.decision is ClockDecision.FLAG_FELL
    # The 81 days stay on the clock; the next control (move 30, 120 days) is what it shows.
    assert (reading.used, reading.next_control, reading.left) == (81, 30, 39)


def test_the_flag_falls_the_day_doubled_time_exceeds_the_room():
    # Two moves of 10 days: 20 used, room 20 at move 3. Move 3 without notice: day k costs
    # 10 + 2 * (k - 10) from the 11th; 10 + 2 * 6 = 22 > 20 on the 16th day.
    turns = [*taking(10, 10), Turn(d(3, 1))]
    reading = clock(STANDARD, turns, today=d(4, 30))
    assert reading.rulings == (Ruling(ClockDecision.FLAG_FELL, 3, days_after(d(3, 2), 16)),)
    # On the 15th day it still stands: 10 + 2 * 5 = 20 used of 20, 0 left.
    earlier = clock(STANDARD, turns, today=days_after(d(3, 2), 15))
    assert (earlier.used, earlier.left, earlier.decision) == (40, 0, ClockDecision.IN_TIME)


def test_a_penalty_can_drop_the_flag():
    # Nine moves of 4 days: 36 used, room 4 at move 10. Move 10 takes 1 day with one
    # penalty (C.2.G): 1 + 5 = 6 > 4: the flag falls on the day of the reply.
    turns = [*taking(*[4] * 9), Turn(d(6, 1), d(6, 3), penalties=1)]
    reading = clock(STANDARD, turns, today=d(12, 31))
    assert reading.rulings == (Ruling(ClockDecision.FLAG_FELL, 10, d(6, 3)),)


def test_more_than_30_days_for_one_move_forfeits_the_game():
    # Ten moves of 1 day (10 used), move 11 with a notice: room 80 - 10 = 70. It takes 31
    # days: 20 + 2 * 11 = 42 charged, under the room, but 31 > 30 days (C.3.1.A): the game
    # is forfeited on the 31st day.
    turns = [*taking(*[1] * 10), Turn(d(6, 1), notice=d(6, 2))]
    reading = clock(STANDARD, turns, today=d(7, 15))
    assert reading.rulings == (Ruling(ClockDecision.FORFEITED, 11, days_after(d(6, 2), 31)),)
    assert reading.decision is ClockDecision.FORFEITED
    # The 30th day is still allowed.
    assert clock(STANDARD, turns, today=days_after(d(6, 2), 30)).rulings == ()


def test_forfeit_and_flag_on_the_same_day_forfeit_first():
    # Move 1 with a notice, room 40: day k costs 20 + 2 * (k - 20); > 40 first when k = 31,
    # the day the 30-day limit is passed too. Decision: the single-move ruling comes first.
    reading = clock(STANDARD, [Turn.first(d(1, 1), notice=d(1, 1))], today=d(2, 1))
    assert [ruling.decision for ruling in reading.rulings] == [ClockDecision.FORFEITED]
    # Without the notice the flag falls first, on the 26th day: 10 + 2 * 16 = 42 > 40.
    reading = clock(STANDARD, [Turn.first(d(1, 1))], today=d(2, 1))
    assert reading.rulings == (Ruling(ClockDecision.FLAG_FELL, 1, d(1, 27)),)


def test_in_a_team_event_the_player_is_withdrawn_and_the_clock_goes_on():
    # As the forfeit above, in a team event: withdrawal (C.3.2.A), not a lost game. The
    # replacement keeps the clock (C.3.2.D): on day 41 the charge is 20 + 2 * 21 = 62 <= 70,
    # on day 46 20 + 2 * 26 = 72 > 70: the flag falls then.
    turns = [*taking(*[1] * 10), Turn(d(6, 1), notice=d(6, 2))]
    withdrawn = Ruling(ClockDecision.WITHDRAWN, 11, days_after(d(6, 2), 31))
    reading = clock(TEAM, turns, today=days_after(d(6, 2), 41))
    assert reading.rulings == (withdrawn,)
    assert reading.decision is ClockDecision.WITHDRAWN
    assert not ClockDecision.WITHDRAWN.ends_game
    reading = clock(TEAM, turns, today=days_after(d(6, 2), 50))
    flag = Ruling(ClockDecision.FLAG_FELL, 11, days_after(d(6, 2), 46))
    assert reading.rulings == (withdrawn, flag)
    assert reading.decision is ClockDecision.FLAG_FELL


def test_rapid_forfeits_after_20_days():
    # 30 moves replied on the day of receipt (0 days each): room 10 + 31 = 41 at move 31.
    # Move 31 with a notice: 21 days cost 10 + 2 * 11 = 32 <= 41, but 21 > 20 (C.3.1.A).
    turns = [*taking(*[0] * 30), Turn(d(6, 1), notice=d(6, 2))]
    reading = clock(RAPID, turns, today=d(7, 1))
    assert reading.rulings == (Ruling(ClockDecision.FORFEITED, 31, days_after(d(6, 2), 21)),)


def test_rapid_clock_gains_a_day_a_move():
    # Move 1 of 3 days: 11 allowed by move 1; by move 2, 12 allowed: 12 - 3 = 9 left.
    reading = clock(RAPID, taking(3), today=d(3, 1))
    assert (reading.used, reading.next_control, reading.allowance, reading.left) == (
        3,
        2,
        12,
        9,
    )


def test_leave_stops_the_clock_and_the_30_days():
    # Move 11 with a notice, 40 calendar days (received 2 June, replied 12 July) of which
    # 10 (10-19 June) on leave announced 1 May: 30 days counted, not over the limit;
    # charged 20 + 2 * 10 = 40; with the first ten moves' 10: 50.
    turns = [*taking(*[1] * 10), Turn(d(6, 1), d(7, 12), notice=d(6, 2))]
    leave = Leave(d(5, 1), d(6, 10), d(6, 19))
    reading = clock(STANDARD, turns, today=d(8, 1), leaves=[leave])
    assert (reading.used, reading.rulings) == (50, ())
    # Without the leave: 40 days, forfeited on the 31st.
    assert clock(STANDARD, turns, today=d(8, 1)).decision is ClockDecision.FORFEITED


def test_answering_during_leave_cancels_the_rest_of_it():
    # Leave 5-14 July. Move 1: received 1 July, replied 8 July during the leave (C.8.C):
    # 2-4 July count (3 days), 5-7 July are leave, 8 July counts: 4 days. Move 2: received
    # 10 July, replied 12 July: the rest of the leave is cancelled in this game: 2 days.
    turns = [Turn(d(6, 30), d(7, 8)), Turn(d(7, 9), d(7, 12))]
    leave = Leave(d(6, 20), d(7, 5), d(7, 14))
    assert clock(STANDARD, turns, today=d(8, 1), leaves=[leave]).used == 6


def test_a_leave_not_announced_in_advance_stops_nothing():
    # C.8.B: announced on its first day: normal timekeeping. Received 2 July, replied 20
    # July: 18 days, no notice: 10 + 2 * 8 = 26 on the clock, as with no leave at all.
    leave = Leave(d(7, 5), d(7, 5), d(7, 14))
    turns = [Turn(d(7, 1), d(7, 20))]
    assert clock(STANDARD, turns, d(8, 1), [leave]).used == 26
    assert clock(STANDARD, turns, d(8, 1)).used == 26


def test_no_leave_in_rapid():
    leave = Leave(d(6, 1), d(7, 5), d(7, 14))
    with pytest.raises(LeaveRefusedError, match="rapid"):
        clock(RAPID, [Turn(d(7, 1), d(7, 3))], d(8, 1), [leave])


def test_a_clock_refuses_moves_that_cannot_be():
    with pytest.raises(TurnError, match="not the player's last"):
        clock(STANDARD, [Turn(d(3, 1)), Turn(d(3, 5), d(3, 6))], d(4, 1))
    with pytest.raises(TurnError, match="after today"):
        clock(STANDARD, [Turn(d(3, 1), d(3, 6))], d(3, 5))


def test_a_player_yet_to_move_has_the_whole_control():
    reading = clock(STANDARD, [], today=d(1, 1))
    assert (reading.moves, reading.used, reading.next_control, reading.left) == (0, 0, 10, 40)


# Properties.

offsets = st.integers(min_value=0, max_value=80)
controls = st.sampled_from([STANDARD, TEAM, RAPID])


@given(controls, offsets, offsets, st.one_of(st.none(), offsets), st.integers(0, 3))
def test_days_are_never_negative_and_never_below_the_days_taken(
    control, reply, transmission, notice, penalties
):
    sent = d(1, 1)
    notice_day = None if notice is None else days_after(sent, notice)
    turn = Turn(sent, days_after(sent, reply), notice_day, penalties, transmission)
    taken = reflection_days(turn)
    assert taken >= 0
    assert charged_days(turn, control) >= taken


@given(controls, st.lists(st.integers(0, 12), max_size=12), offsets, offsets)
def test_a_clock_never_runs_backwards(control, spans, later, notice):
    turns = taking(*spans)
    sent = days_after(turns[-1].end(None), 2) if turns else d(1, 1)
    pending = [*turns, Turn(sent, notice=days_after(sent, notice))]
    today = days_after(sent, 1)
    first = clock(control, pending, today)
    second = clock(control, pending, days_after(today, later))
    assert second.used >= first.used
    assert second.left <= first.left


@given(
    st.lists(st.integers(0, 12), min_size=1, max_size=12),
    offsets,
    st.integers(0, 40),
    st.integers(1, 45),
)
def test_leave_never_adds_days(spans, later, leave_from, leave_days):
    turns = taking(*spans)
    first = days_after(d(1, 1), leave_from)
    leave = Leave(d(1, 1) - timedelta(days=1), first, days_after(first, leave_days - 1))
    today = days_after(turns[-1].end(None), later)
    with_leave = clock(STANDARD, turns, today, [leave])
    assert with_leave.used <= clock(STANDARD, turns, today).used
    assert with_leave.used >= 0
