"""The game clock: moments and e-clock readings in, %clk / %emt / flag out."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.clock.game_clock import ClockAdjustmentError, GameClock
from relay.domain.clock.time_control import Bonus, Period, TimeControl
from relay.domain.game.events import (
    ClockSideDecided,
    ClocksPaused,
    ClocksResumed,
    ClocksStarted,
    FlagFell,
    GameEvent,
    MoveCorrected,
    MoveMade,
    ResultSet,
    TakenBack,
    TimeAdjusted,
)
from relay.domain.results import Result

FISCHER_90_30 = TimeControl((Period(5400, None, 30),))
CLASSICAL = TimeControl((Period(5400, 40, 30), Period(1800, None, 30)))
DELAY_5 = TimeControl((Period(5400, None, 5, Bonus.DELAY),))
BRONSTEIN_5 = TimeControl((Period(5400, None, 5, Bonus.BRONSTEIN),))


def move(ply: int, at: float, clock: float | None = None) -> MoveMade:
    return MoveMade(ply=ply, uci="0000", san="--", fen="", at=at, clock=clock)


def played(control: TimeControl, *events: GameEvent) -> GameClock:
    return GameClock.from_events(control, events)


def started(at: float = 0.0, seconds: float = 5400) -> ClocksStarted:
    return ClocksStarted(white=seconds, black=seconds, by="arbiter", at=at)


def test_fischer_counts_the_time_used_and_adds_the_increment():
    clock = played(FISCHER_90_30, started(), move(1, 10), move(2, 25))
    assert [(t.player, t.clock, t.spent) for t in clock.timings] == [
        (chess.WHITE, 5400 - 10 + 30, 10),
        (chess.BLACK, 5400 - 15 + 30, 15),
    ]
    state = clock.state()
    assert (state.running, state.since, state.white) == (chess.WHITE, 25, 5420)
    assert state.flag_at == 25 + 5420


def test_the_second_period_arrives_after_move_40():
    events: list[GameEvent] = [started()]
    for ply in range(1, 81):
        events.append(move(ply, float(ply)))  # every move takes one second
    clock = played(CLASSICAL, *events)
    whites = [t for t in clock.timings if t.player == chess.WHITE]
    assert whites[38].clock == 5400 + 39 * 29  # after move 39
    assert whites[39].clock == 5400 + 40 * 29 + 1800  # after move 40: the second period
    assert (whites[39].period, clock.timings[80 - 1].period) == (0, 0)
    more = played(CLASSICAL, *events, move(81, 82.0))
    assert more.timings[-1].period == 1


def test_a_simple_delay_costs_nothing_within_the_delay():
    clock = played(DELAY_5, started(), move(1, 3), move(2, 11))
    assert [t.clock for t in clock.timings] == [5400, 5400 - 3]
    state = played(DELAY_5, started(), move(1, 3)).state()
    assert (state.delay, state.flag_at) == (5, 3 + 5 + 5400)


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    clock = played(BRONSTEIN_5, started(), move(1, 3), move(2, 11))
    assert [t.clock for t in clock.timings] == [5400, 5400 - 8 + 5]


def test_the_e_clock_is_the_authority_and_the_drift_is_kept():
    clock = played(FISCHER_90_30, started(), move(1, 10, clock=5405), move(2, 20), move(3, 40))
    first = clock.timings[0]
    assert (first.clock, first.drift) == (5405, 5405 - 5420)
    assert clock.timings[2].clock == 5405 - 20 + 30  # counted on from the e-clock's value
    assert clock.timings[1].drift is None


def test_without_a_central_start_the_first_move_time_is_unknown():
    clock = played(FISCHER_90_30, move(1, 100), move(2, 160))
    assert [(t.clock, t.spent) for t in clock.timings] == [(5400, None), (5400 - 60 + 30, 60)]


def test_a_pause_stops_the_running_side():
    clock = played(
        FISCHER_90_30,
        started(),
        ClocksPaused(by="arb", reason="noise", at=10),
        ClocksResumed(by="arb", at=100),
        move(1, 105),
    )
    assert clock.timings[0].spent == 15
    paused = played(FISCHER_90_30, started(), ClocksPaused(by="arb", reason="", at=10)).state()
    assert (paused.paused, paused.running, paused.white, paused.flag_at) == (True, None, 5390, None)


def adjust(player: str, change: str, seconds: float, at: float) -> TimeAdjusted:
    return TimeAdjusted(player, change, seconds, ClockChangeCause.ARBITER, "why", "arb", at)


def test_time_changes_for_the_running_and_the_waiting_side():
    events: list[GameEvent] = [
        started(),
        adjust("black", "add", 120, at=5),  # Black waits: plain addition
        adjust("white", "set", 60, at=30),  # White runs: 60 s left at t=30
    ]
    clock = played(FISCHER_90_30, *events)
    assert clock.remaining(chess.BLACK, 40) == 5520
    assert clock.remaining(chess.WHITE, 30) == 60
    assert clock.remaining(chess.WHITE, 40) == 50
    assert played(FISCHER_90_30, *events, move(1, 40)).timings[0].clock == 50 + 30
    with pytest.raises(ClockAdjustmentError):
        played(FISCHER_90_30, started(), adjust("white", "subtract", 6000, at=1))


def test_a_flag_stops_the_clocks_and_is_remembered():
    clock = played(TimeControl((Period(300),)), started(seconds=300), move(1, 10))
    assert clock.state().flag_at == 10 + 300
    clock.apply(FlagFell(player="black", at=310))
    state = clock.state()
    assert (state.flag, state.running, state.black) == ((chess.BLACK, 310), None, 0)


def test_a_takeback_rewinds_the_record_and_the_mover_plays_again():
    clock = played(FISCHER_90_30, started(), move(1, 10), move(2, 20), TakenBack(1, "", 30))
    assert len(clock.timings) == 1
    state = clock.state()
    assert (state.running, state.since) == (chess.BLACK, 30)


def test_an_unknown_time_control_still_shows_the_e_clock():
    clock = played(TimeControl(known=False), move(1, 5, clock=299), move(2, 9))
    assert [t.clock for t in clock.timings] == [299, None]


@given(st.lists(st.floats(min_value=0.0, max_value=120.0), min_size=1, max_size=60))
def test_fischer_time_left_is_start_minus_used_plus_increments(durations):
    at = 0.0
    events: list[GameEvent] = [started()]
    for ply, duration in enumerate(durations, start=1):
        at += duration
        events.append(move(ply, at))
    clock = played(FISCHER_90_30, *events)
    for colour in (chess.WHITE, chess.BLACK):
        own = [d for i, d in enumerate(durations) if (i % 2 == 0) == (colour == chess.WHITE)]
        if own:
            last = [t for t in clock.timings if t.player == colour][-1]
            assert last.clock == pytest.approx(5400 - sum(own) + 30 * len(own))


def test_the_drift_of_each_player_is_their_latest_known():
    clock = played(FISCHER_90_30, started(), move(1, 10, clock=5418), move(2, 20, clock=5419))
    assert (clock.drift(chess.WHITE), clock.drift(chess.BLACK)) == (-2, -1)
    assert played(FISCHER_90_30, started(), move(1, 10)).drift(chess.WHITE) is None


def test_an_arbiters_result_stops_the_clocks():
    clock = played(
        FISCHER_90_30,
        started(),
        move(1, 10),
        ResultSet(Result.WHITE_WINS, "arb", "resigned", at=40),
    )
    state = clock.state()
    assert (state.running, state.black) == (None, 5400 - 30)
    reopened = played(FISCHER_90_30, started(), ResultSet(Result.ONGOING, "arb", "reopened", at=5))
    assert reopened.state().running == chess.WHITE


def sides(*clocks: tuple[int, float]) -> ClockSideDecided:
    return ClockSideDecided("right", "auto", "White pressed the right side", 30.0, clocks)


def test_moves_read_again_from_the_decided_side_take_those_readings():
    # Move 1 was decided while the hub still read White's time on the left: it took
    # Black's 5400 for White's. The decision reads it again: White's side showed 5392.
    events: list[GameEvent] = [started(), move(1, 10, clock=5400), move(2, 25, clock=5415)]
    before = played(FISCHER_90_30, *events)
    assert [t.clock for t in before.timings] == [5400, 5415]
    clock = played(FISCHER_90_30, *events, sides((1, 5392.0)))
    assert [(t.clock, t.spent) for t in clock.timings] == [(5392, 10), (5415, 15)]
    assert clock.drift(chess.WHITE) == 5392 - (5400 - 10 + 30)
    assert clock.state().white == 5392
    # Later moves fold on from the readings as re-read, as if they had been so all along.
    again = played(FISCHER_90_30, started(), move(1, 10, clock=5392), move(2, 25, clock=5415))
    assert clock.state() == again.state()
    assert clock.timings == again.timings


def test_a_decision_without_readings_changes_no_clock():
    events: list[GameEvent] = [started(), move(1, 10, clock=5400)]
    assert played(FISCHER_90_30, *events, sides()).timings == played(FISCHER_90_30, *events).timings


def test_the_reading_goes_to_the_move_standing_at_that_ply():
    corrected = MoveCorrected(2, "0000", "--", "", "0000", at=26, clock=5414)
    clock = played(
        FISCHER_90_30,
        started(),
        move(1, 10, clock=5400),
        move(2, 25, clock=5415),
        corrected,
        sides((1, 5392.0), (2, 5420.0)),
        move(3, 40),
    )
    assert [t.clock for t in clock.timings][:2] == [5392, 5420]
    assert clock.timings[2].clock == 5392 - 14 + 30  # counted from the re-read reading


def test_a_move_after_the_flag_leaves_the_mover_no_time_below_zero():
    """Play goes on after a flag until someone claims; the hub's own count (no e-clock
    reading) stops at zero rather than going negative."""
    clock = played(
        FISCHER_90_30,
        ClocksStarted(white=5400.0, black=10.0, by="arbiter", at=0.0),
        move(1, 5.0),
        FlagFell(player="black", at=20.0),
        move(2, 100.0),
    )
    assert clock.state().black == 0.0
    overrun = played(
        FISCHER_90_30,
        ClocksStarted(white=5400.0, black=10.0, by="arbiter", at=0.0),
        move(1, 5.0),
        move(2, 200.0),
    )
    assert overrun.state().black == 0.0  # 10 - 195 + 30 would be below zero


def test_a_move_keyed_after_it_was_played_charges_no_one():
    # Keyed from paper at the desk: its moment of entry says nothing of the players' times.
    keyed = [
        MoveMade(ply=ply, uci="0000", san="--", fen="", at=100.0 + ply, untimed=True)
        for ply in (1, 2, 3)
    ]
    clock = played(FISCHER_90_30, started(), *keyed)
    assert [(t.clock, t.spent) for t in clock.timings] == [(None, None)] * 3
    state = clock.state()
    assert state.running is None  # nothing runs on a game keyed after the fact
    assert (state.white, state.black) == (5400, 5400)
    # The same moves entered live, on the tablet beside the board, are timed.
    live = played(FISCHER_90_30, started(), *(move(ply, 100.0 + ply) for ply in (1, 2, 3)))
    assert [t.spent for t in live.timings] == [101.0, 1.0, 1.0]
