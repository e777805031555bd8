"""The result both players confirm on the scoresheet (two taps, White then Black): proposed
for the arbiter only then; a result the game has or already proposed is acknowledged, another
one refused in words."""

from __future__ import annotations

import pytest

from relay.domain.game.events import GameEnded, MoveMade, ResultProposed
from relay.domain.game.record import GameRecord
from relay.domain.game.result_agreement import ResultAgreementError, agreed_result
from relay.domain.results import Result


def started() -> GameRecord:
    return GameRecord.from_events([MoveMade(ply=1, uci="e2e4", san="e4", fen="", at=1.0)])


def test_both_confirmations_propose_the_result_for_the_arbiter():
    record = started()
    proposal = agreed_result(record, result=Result.BLACK_WINS, signed=["white", "black"], at=2.0)
    assert proposal == ResultProposed(result=Result.BLACK_WINS, gesture="agreed", at=2.0)
    assert proposal is not None
    record.apply(proposal)
    assert (record.proposed_result, record.result) == ("0-1", "*")
    # Sent again (the answer was lost): nothing more to record.
    assert agreed_result(record, result=Result.BLACK_WINS, signed=["white", "black"], at=3) is None


@pytest.mark.parametrize(
    "signed", [[], ["white"], ["black"], ["black", "white"], ["white", "white"]]
)
def test_one_confirmation_or_the_wrong_order_proposes_nothing(signed):
    with pytest.raises(ResultAgreementError, match="White first, then Black"):
        agreed_result(started(), result=Result.DRAW, signed=signed, at=2.0)


def test_no_result_and_another_result_than_the_games_are_refused():
    with pytest.raises(ResultAgreementError, match="1-0, 0-1 or 1/2-1/2"):
        agreed_result(started(), result=Result.ONGOING, signed=["white", "black"], at=2.0)
    mated = started()
    mated.apply(GameEnded(result=Result.WHITE_WINS, termination="checkmate", at=3.0))
    same = agreed_result(mated, result=Result.WHITE_WINS, signed=["white", "black"], at=4.0)
    assert same is None  # the players sign what the hub already has
    with pytest.raises(ResultAgreementError, match="the game ended 1-0, checkmate, not 0-1"):
        agreed_result(mated, result=Result.BLACK_WINS, signed=["white", "black"], at=4.0)
