"""What falls due on a given day in a correspondence game by the IECG Rules and Regulations
6.4: doubled time (C.3.1.B), the reminder and the message to the TS (C.3.1.C-D), abandoned
rapid and team games (C.3.1.E, C.3.2.E), flags and forfeits (C.6.B, C.3.1.A, C.3.2.A).
Worked out by hand in the comments."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.days import CorrespondenceControl, Turn
from relay.domain.correspondence.leave import Leave
from relay.domain.correspondence.silence import (
    Due,
    DueKind,
    GameState,
    GameStateError,
    due,
)
from relay.domain.correspondence.timekeeping import ClockDecision, clock

STANDARD = CorrespondenceControl.standard()
TEAM = CorrespondenceControl.team()
RAPID = CorrespondenceControl.rapid()


def d(month: int, day: int, year: int = 2023) -> date:
    return date(year, month, day)


def black_to_move(control=STANDARD, notice=None, **state) -> GameState:
    """White's first move mailed 1 March; Black's answer pending (received 2 March)."""
    white = (Turn.first(d(2, 27), d(3, 1)),)
    return GameState(control, white, (Turn(d(3, 1), notice=notice),), **state)


def quick_game(control, plies: int, notice=None, **state) -> GameState:
    """``plies`` moves each answered on its day of receipt (0 days each), the last mailed
    1 March, and the next move pending, received 2 March."""
    day = d(3, 1) - timedelta(days=plies - 1)
    turns: list[Turn] = [Turn.first(day, day)]
    while len(turns) < plies:
        turns.append(Turn(day, day + timedelta(days=1)))
        day += timedelta(days=1)
    turns.append(Turn(d(3, 1), notice=notice))
    return GameState(control, tuple(turns[0::2]), tuple(turns[1::2]), **state)


# Standard: black to move on a move mailed 1 March, received 2 March.


def test_nothing_is_due_in_the_first_days():
    # 9 days of silence (2-10 March), 8 days of Black's time (3-10 March).
    assert due(black_to_move(), d(3, 10)) == []


def test_a_reminder_after_10_days_of_silence():
    # C.3.1.C: 10 days counted from 1 March, the day the move was mailed: 11 March.
    assert due(black_to_move(), d(3, 11)) == [Due(d(3, 11), DueKind.REMINDER, "white")]


def test_time_is_doubled_from_the_11th_day():
    # Black's days count from receipt (2 March): the 11th is 13 March (C.3.1.B).
    assert due(black_to_move(), d(3, 13)) == [
        Due(d(3, 11), DueKind.REMINDER, "white"),
        Due(d(3, 13), DueKind.DOUBLED_TIME, "black"),
    ]


def test_a_notice_puts_the_doubling_off_to_the_21st_day_not_the_reminder():
    # Notice 5 March: doubled from the 21st day, 2 + 21 = 23 March. The reminder is still
    # due on 11 March (decision: a notice does not put it off).
    state = black_to_move(notice=d(3, 5))
    assert due(state, d(3, 22)) == [Due(d(3, 11), DueKind.REMINDER, "white")]
    assert due(state, d(3, 23))[-1] == Due(d(3, 23), DueKind.DOUBLED_TIME, "black")


def test_the_ts_is_told_a_further_10_days_after_the_reminder():
    # Reminder mailed 12 March: a further 10 days, 13-22 March: the TS on 22 March (C.3.1.D).
    state = black_to_move(reminder=d(3, 12))
    doubled = Due(d(3, 13), DueKind.DOUBLED_TIME, "black")
    assert due(state, d(3, 21)) == [doubled]
    assert due(state, d(3, 22)) == [doubled, Due(d(3, 22), DueKind.INFORM_TS, "white")]
    # Once told, that is done.
    assert due(black_to_move(reminder=d(3, 12), informed=d(3, 22)), d(3, 25)) == [doubled]


def test_once_the_flag_falls_only_the_flag_is_due():
    # Black's first move, 40 days, no notice: 10 + 2 * (k - 10) > 40 first on the 26th
    # day, 2 + 26 = 28 March (C.6.B). On the 25th, 27 March: 10 + 30 = 40, still in time.
    assert DueKind.FLAG not in {item.kind for item in due(black_to_move(), d(3, 27))}
    assert due(black_to_move(), d(3, 28)) == [Due(d(3, 28), DueKind.FLAG, "black")]


def test_the_waiting_players_fallen_flag_stays_due():
    # White's first move took 41 days (1 January-11 February), no notice: the flag fell on
    # its 26th day, 27 January. Black is to move; the lost game is what is due.
    state = GameState(STANDARD, (Turn.first(d(1, 1), d(2, 11)),), (Turn(d(2, 11)),))
    assert due(state, d(2, 12)) == [Due(d(1, 27), DueKind.FLAG, "white")]


def test_the_player_to_moves_leave_is_not_silence():
    # Black on leave 4-13 March (announced 1 February). Silence counts 2, 3 March, then
    # 14-21 March: the 10th day is 21 March. Black's own days: 3 March, then 14-23 March:
    # the 11th is 23 March.
    leave = Leave(d(2, 1), d(3, 4), d(3, 13))
    state = black_to_move(black_leaves=(leave,))
    assert due(state, d(3, 20)) == []
    assert due(state, d(3, 23)) == [
        Due(d(3, 21), DueKind.REMINDER, "white"),
        Due(d(3, 23), DueKind.DOUBLED_TIME, "black"),
    ]


def test_the_opponents_leave_stops_nothing():
    # C.8.A: the clocks of the opponents are not stopped. White on leave: Black as always.
    leave = Leave(d(2, 1), d(3, 4), d(3, 13))
    assert due(black_to_move(white_leaves=(leave,)), d(3, 13)) == due(black_to_move(), d(3, 13))


def test_whites_first_move_counts_from_the_start():
    # Started 1 March: reminder on 11 March; White's 11th day is 12 March (no transmission).
    state = GameState(STANDARD, (Turn.first(d(3, 1)),), ())
    assert due(state, d(3, 12)) == [
        Due(d(3, 11), DueKind.REMINDER, "black"),
        Due(d(3, 12), DueKind.DOUBLED_TIME, "white"),
    ]


# Team: White's 21st move pending after 40 quick plies: 120 days by move 30, 0 used.


def test_a_team_game_without_a_move_for_60_days_is_lost():
    # Notice 2 March: doubled from the 21st day (23 March); the 31st day, 2 + 31 = 2 April,
    # withdraws White (C.3.2.A). Flag: 20 + 2 * (k - 20) > 120 only from k = 71. 60 days
    # from 1 March: 30 April (C.3.2.E): then only the loss is due.
    state = quick_game(TEAM, 40, notice=d(3, 2))
    assert due(state, d(4, 29)) == [
        Due(d(3, 11), DueKind.REMINDER, "black"),
        Due(d(3, 23), DueKind.DOUBLED_TIME, "white"),
        Due(d(4, 2), DueKind.WITHDRAWAL, "white"),
    ]
    assert due(state, d(4, 30)) == [Due(d(4, 30), DueKind.GAME_LOST, "white")]


def test_leave_puts_off_the_60_days():
    # White on leave 10-19 April: 10 days that are not silence: lost on 10 May, not before.
    leave = Leave(d(3, 5), d(4, 10), d(4, 19))
    state = quick_game(TEAM, 40, notice=d(3, 2), white_leaves=(leave,))
    assert DueKind.GAME_LOST not in {item.kind for item in due(state, d(5, 9))}
    assert due(state, d(5, 10)) == [Due(d(5, 10), DueKind.GAME_LOST, "white")]


def test_an_earlier_withdrawal_is_history():
    # Team: White's 11th move took 31 days with a notice (withdrawn, C.3.2.A); a
    # replacement answered; Black to move the next day: nothing from that move is due.
    quick = quick_game(TEAM, 20)
    white = (*quick.white[:-1], Turn(d(3, 1), d(4, 2), notice=d(3, 2)))
    state = GameState(TEAM, white, (*quick.black, Turn(d(4, 2))))
    assert clock(TEAM, white, d(4, 3)).decision is ClockDecision.WITHDRAWN
    assert due(state, d(4, 3)) == []


# Rapid: White's 31st move pending after 60 quick plies: 41 days by move 31, 0 used.


def test_a_silent_rapid_game_may_be_scored_lost_to_both():
    # Reminder after 5 days (2-6 March); doubled from the 6th day, 2 + 6 = 8 March; 20 days
    # without a move on 21 March (C.3.1.E): neither told the TS. No flag yet: on day 19,
    # 5 + 2 * 14 = 33 <= 41.
    assert due(quick_game(RAPID, 60), d(3, 21)) == [
        Due(d(3, 6), DueKind.REMINDER, "black"),
        Due(d(3, 8), DueKind.DOUBLED_TIME, "white"),
        Due(d(3, 21), DueKind.SCORE_AS_LOST, "black"),
        Due(d(3, 21), DueKind.SCORE_AS_LOST, "white"),
    ]
    assert DueKind.SCORE_AS_LOST not in {item.kind for item in due(quick_game(RAPID, 60), d(3, 20))}


def test_telling_the_ts_spares_the_rapid_player():
    # Black reminded on 6 March, told the TS on 11 March (5 further days, 7-11 March).
    told = quick_game(RAPID, 60, reminder=d(3, 6), informed=d(3, 11))
    assert due(told, d(3, 21)) == [
        Due(d(3, 8), DueKind.DOUBLED_TIME, "white"),
        Due(d(3, 21), DueKind.SCORE_AS_LOST, "white"),
    ]
    # White's notice (copied to the TS, C.3.1.B) spares him; doubled from the 11th day.
    untold = quick_game(RAPID, 60, notice=d(3, 2), reminder=d(3, 6))
    assert due(untold, d(3, 21)) == [
        Due(d(3, 11), DueKind.INFORM_TS, "black"),
        Due(d(3, 13), DueKind.DOUBLED_TIME, "white"),
        Due(d(3, 21), DueKind.SCORE_AS_LOST, "black"),
    ]


def test_a_rapid_move_over_20_days_is_forfeited():
    # With the notice the flag needs 10 + 2 * (k - 10) > 41, k = 26; the 21st day, 2 + 21 =
    # 23 March, is over the 20 days (C.3.1.A).
    state = quick_game(RAPID, 60, notice=d(3, 2), reminder=d(3, 6), informed=d(3, 11))
    assert due(state, d(3, 23)) == [Due(d(3, 23), DueKind.FORFEIT, "white")]


# The state itself.


@pytest.mark.parametrize(
    ("white", "black"),
    [
        ((), ()),
        ((Turn.first(d(3, 1)),), (Turn(d(3, 1)),)),
        ((Turn.first(d(3, 1), d(3, 2)),), (Turn(d(3, 2), d(3, 3)),)),
        ((Turn.first(d(3, 1), d(3, 2)),), ()),
    ],
)
def test_exactly_one_player_is_to_move(white, black):
    with pytest.raises(GameStateError):
        GameState(STANDARD, white, black)


def test_messages_about_the_move_come_after_it():
    with pytest.raises(GameStateError, match="reminder"):
        black_to_move(reminder=d(2, 28))
    with pytest.raises(GameStateError, match="TS"):
        black_to_move(reminder=d(3, 11), informed=d(2, 28))


def test_each_kind_names_its_article():
    assert Due(d(3, 11), DueKind.REMINDER, "white").article == "C.3.1.C"
    assert {kind: kind.article for kind in DueKind} == {
        DueKind.REMINDER: "C.3.1.C",
        DueKind.INFORM_TS: "C.3.1.D",
        DueKind.DOUBLED_TIME: "C.3.1.B",
        DueKind.SCORE_AS_LOST: "C.3.1.E",
        DueKind.WITHDRAWAL: "C.3.2.A",
        DueKind.FLAG: "C.6.B",
        DueKind.FORFEIT: "C.3.1.A",
        DueKind.GAME_LOST: "C.3.2.E",
    }


@given(st.sampled_from([STANDARD, TEAM, RAPID]), st.integers(0, 90), st.integers(0, 90))
def test_what_is_due_stays_due(control, first, later):
    # Days only pass: what was due stays due (or the game is lost), since no later than it.
    state = quick_game(control, 40)
    today = d(3, 1) + timedelta(days=first)
    before = due(state, today)
    after = due(state, today + timedelta(days=later))
    assert all(item.since <= today for item in before)
    assert set(before) <= set(after) or any(item.kind.ends_game for item in after)
