"""The tracker's state machine and bookkeeping, transition by transition."""

from __future__ import annotations

import chess
import pytest

from relay.domain.game.placement import START, Placement
from relay.domain.game.tracker_state import TRAIL, ClockPresses, Pending, Stage
from relay.domain.results import Result

W, B = chess.WHITE, chess.BLACK


def after(*sans: str) -> Placement:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return Placement.of_board(board)


# Stages


@pytest.mark.parametrize(
    ("stage", "following"),
    [
        (Stage.FRESH, Stage.SETTLED),
        (Stage.SETTLED, Stage.RECOVERED),
        (Stage.RECOVERED, Stage.DONE),
        (Stage.DONE, Stage.DONE),
    ],
)
def test_each_stage_leads_to_the_next_and_done_stays(stage, following):
    assert stage.next() is following


def test_a_change_on_the_board_starts_judging_afresh():
    pending = Pending()
    pending.shown(after("e4"), frozenset(), 5.0)
    assert pending.advance() is Stage.FRESH  # the stage judged is the one left
    assert pending.advance() is Stage.SETTLED
    pending.wait_for_hands()
    pending.shown(after("d4"), frozenset({Result.WHITE_WINS}), 7.5)
    assert (pending.placement, pending.markers, pending.since) == (
        after("d4"),
        frozenset({"1-0"}),
        7.5,
    )
    assert pending.stage is Stage.FRESH
    assert not pending.waiting
    assert pending.trail == [after("e4"), after("d4")]


def test_give_up_judge_afresh_and_settled_on():
    pending = Pending()
    pending.shown(after("e4"), frozenset(), 1.0)
    pending.give_up()
    assert pending.stage is Stage.DONE
    pending.judge_afresh()
    assert pending.stage.value == "fresh"
    pending.settled_on(START)
    assert (pending.placement, pending.stage) == (START, Stage.DONE)
    pending.clear()
    assert pending.placement is None


def test_the_trail_is_bounded_and_forgotten_when_the_game_changes():
    pending = Pending()
    for n in range(TRAIL + 10):
        pending.shown(after("e4") if n % 2 else after("d4"), frozenset(), float(n))
    assert len(pending.trail) == TRAIL
    assert pending.trail[-1] == after("e4")  # the newest kept
    pending.forget()
    assert pending.trail == []
    assert pending.placement == after("e4")  # what the board shows is still judged


# Presses


def test_the_last_movers_press_is_a_hand_over_and_later_presses_count():
    presses = ClockPresses()
    presses.count_from_here(to_move=W, turn=B)  # White moved (decided), White's clock runs
    assert (presses.presses, presses.handed_over) == (0, False)
    presses.count(to_move=B, turn=B)  # White presses: hands over
    assert (presses.presses, presses.handed_over) == (0, True)
    presses.count(to_move=W, turn=B)  # Black moved and pressed: a move not decided
    presses.count(to_move=B, turn=B)  # and White again
    assert presses.presses == 2


def test_a_press_by_the_side_to_move_counts_at_once():
    presses = ClockPresses()
    presses.count_from_here(to_move=B, turn=B)  # the clock already runs for Black
    assert presses.handed_over
    presses.count(to_move=W, turn=B)
    assert presses.presses == 1
    fresh = ClockPresses()
    fresh.count_from_here(to_move=None, turn=W)  # no reading yet
    fresh.count(to_move=B, turn=W)  # White pressed: their move is not decided
    assert (fresh.presses, fresh.handed_over) == (1, True)


def test_presses_are_counted_only_while_readings_keep_coming():
    presses = ClockPresses()
    assert not presses.counting(running=True, now=0.0, silence=2.5)  # never read
    presses.read(10.0, silence=2.5)
    assert presses.counting(running=True, now=11.0, silence=2.5)
    assert not presses.counting(running=False, now=11.0, silence=2.5)
    assert not presses.counting(running=True, now=13.0, silence=2.5)  # gone quiet
    presses.read(14.0, silence=2.5)  # a gap: readings (and presses?) went missing
    assert presses.silent
    assert not presses.counting(running=True, now=14.0, silence=2.5)
    presses.count_from_here(to_move=W, turn=W)  # the game changed: counting afresh
    assert presses.counting(running=True, now=14.5, silence=2.5)


def test_a_press_keeps_what_the_board_showed_since_until_judged():
    presses = ClockPresses()
    presses.shown(after("e4"), 1.0)
    assert presses.since_press == []  # no press waiting: nothing kept
    presses.pressed(W, 2.0, after("e4"))
    presses.shown(after("e4", "e5"), 2.1)
    assert (presses.press, presses.presser) == (2.0, W)
    assert presses.since_press == [after("e4"), after("e4", "e5")]
    presses.judged()
    assert presses.press is None


def test_an_unexplained_press_is_taken_once():
    presses = ClockPresses()
    presses.unexplained(B)
    assert presses.take_pressed_on() == B
    assert presses.take_pressed_on() is None


def test_a_change_within_the_grace_is_a_late_sweep_and_forget_clears_it():
    presses = ClockPresses()
    presses.may_sweep_late(until=5.0)
    presses.shown(after("e4"), 4.0)
    assert presses.late_sweep
    assert presses.sweep_grace is None
    presses.may_sweep_late(until=5.0)
    presses.shown(after("e4"), 6.0)  # too late: the opponent's hand
    assert not presses.late_sweep
    presses.swept_late()
    presses.pressed(W, 7.0, None)
    presses.unexplained(W)
    presses.forget()
    assert (presses.press, presses.pressed_on, presses.sweep_grace, presses.late_sweep) == (
        None,
        None,
        None,
        False,
    )


def test_presses_that_decided_nothing_are_counted_until_the_game_changes():
    presses = ClockPresses()
    assert [presses.decided_nothing(), presses.decided_nothing()] == [1, 2]
    presses.forget()
    assert presses.decided_nothing() == 1
