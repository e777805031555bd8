"""Penalties by the Laws: the illegal move's two minutes (one in rapid and blitz) and its
increment taken back; a wrong claim's two minutes."""

from __future__ import annotations

import pytest

from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.clock.penalties import (
    PenaltyError,
    ProposedChange,
    illegal_move_changes,
    wrong_claim_change,
)
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.game.events import IllegalMoveCompleted, MoveMade
from relay.domain.game.record import GameRecord


def record(*events) -> GameRecord:
    return GameRecord.from_events(events)


def illegal(player: str, count: int = 1) -> IllegalMoveCompleted:
    return IllegalMoveCompleted(
        player=player,
        count=count,
        penalty="add-time" if count == 1 else "loss",
        seconds=120,
        reason="king left in check",
        at=5.0,
    )


E4 = MoveMade(ply=1, uci="e2e4", san="e4", fen="", at=1.0)


def test_an_illegal_move_in_standard_chess():
    changes = illegal_move_changes(record(E4, illegal("black")), parse_time_control("90+30"))
    assert changes == [
        ProposedChange(
            "white",
            "add",
            120,
            ClockChangeCause.ILLEGAL_MOVE,
            "black completed an illegal move: king left in check",
        ),
        ProposedChange(
            "black",
            "subtract",
            30,
            ClockChangeCause.INCREMENT,
            "the increment earned by the illegal move's press",
        ),
    ]


@pytest.mark.parametrize(("control", "seconds"), [("15+10", 60), ("3+2", 60), ("90+30", 120)])
def test_rapid_and_blitz_give_one_minute(control, seconds):
    changes = illegal_move_changes(record(illegal("white")), parse_time_control(control))
    assert changes[0].seconds == seconds
    assert wrong_claim_change("white", parse_time_control(control)).seconds == seconds


def test_no_increment_to_take_back_without_fischer():
    for control in ("G/90; d5", "90 min", "5 min + 3 s Bronstein"):
        changes = illegal_move_changes(record(illegal("white")), parse_time_control(control))
        assert [c.cause for c in changes] == ["illegal-move"]


def test_a_second_illegal_move_is_a_result_not_a_penalty():
    with pytest.raises(PenaltyError, match="loses the game"):
        illegal_move_changes(record(illegal("white", 2)), parse_time_control("90+30"))
    with pytest.raises(PenaltyError, match="no illegal move"):
        illegal_move_changes(record(E4), parse_time_control("90+30"))


def test_a_wrong_claim_gives_the_opponent_time():
    change = wrong_claim_change("black", parse_time_control("40/5400+30:1800+30"))
    assert (change.player, change.change, change.seconds, change.cause) == (
        "white",
        "add",
        120,
        "wrong-claim",
    )
