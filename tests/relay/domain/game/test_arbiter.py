from __future__ import annotations

import chess
import pytest

from relay.domain.game.arbiter import (
    ArbiterActionError,
    replace_moves,
    set_result,
    verify_result,
)
from relay.domain.game.events import (
    GameEnded,
    ResultVerified,
    event_data,
    event_from_data,
)
from relay.domain.game.record import GameLogError
from relay.domain.results import Result
from tests.records import record_of


def test_an_arbiter_result_overrides_the_board_and_needs_verifying_again():
    record = record_of("f3", "e5", "g4", "Qh4#")
    record.apply(GameEnded(Result.BLACK_WINS, "checkmate", 2.0))
    record.apply(verify_result(record, result=Result.BLACK_WINS, by="Jane", at=3.0))
    assert (record.result, record.verified, record.result_by) == ("0-1", True, None)
    record.apply(set_result(record, result=Result.WHITE_WINS, by="Jane", reason="appeal", at=4.0))
    assert (record.result, record.termination, record.verified) == ("1-0", "arbiter", False)
    with pytest.raises(ArbiterActionError, match="result is 1-0, not 0-1"):
        verify_result(record, result=Result.BLACK_WINS, by="Jane", at=5.0)


def test_nothing_to_verify_and_unknown_results_are_refused():
    record = record_of("e4")
    with pytest.raises(ArbiterActionError, match="no result"):
        verify_result(record, result=Result.WHITE_WINS, by="Jane", at=1.0)
    with pytest.raises(ArbiterActionError, match="not one of"):
        set_result(record, result="1-1", by="Jane", reason="", at=1.0)  # type: ignore[arg-type]


def test_replacing_moves_rewrites_the_game_from_a_ply():
    record = record_of("e4", "e5", "Nf3", "Nc6")
    event = replace_moves(
        record, ply=3, san=["Bc4", "Bc5", "Qh5"], by="Jane", reason="sheet", at=5.0
    )
    assert event.uci == ("f1c4", "f8c5", "d1h5")
    record.apply(event)
    assert [m.san for m in record.moves] == ["e4", "e5", "Bc4", "Bc5", "Qh5"]
    expected = chess.Board()
    for san in ("e4", "e5", "Bc4", "Bc5", "Qh5"):
        expected.push_san(san)
    assert record.board == expected


def test_an_empty_replacement_is_a_takeback_and_an_illegal_one_is_refused():
    record = record_of("d4", "d5", "c4")
    record.apply(replace_moves(record, ply=3, san=[], by="J", reason="", at=1.0))
    assert [m.san for m in record.moves] == ["d4", "d5"]
    with pytest.raises(ArbiterActionError, match="ply 4: 'Ke3' is not a legal move"):
        replace_moves(record, ply=3, san=["c4", "Ke3"], by="J", reason="", at=1.0)
    with pytest.raises(ArbiterActionError, match="ply 9"):
        replace_moves(record, ply=9, san=[], by="J", reason="", at=1.0)


def test_replaced_moves_drop_the_board_result_but_not_the_arbiters():
    record = record_of("f3", "e5", "g4", "Qh4#")
    record.apply(GameEnded(Result.BLACK_WINS, "checkmate", 2.0))
    record.apply(replace_moves(record, ply=4, san=["Qe7"], by="J", reason="", at=3.0))
    assert record.result == "*"
    record.apply(set_result(record, result=Result.DRAW, by="J", reason="agreed", at=4.0))
    record.apply(replace_moves(record, ply=4, san=["Qf6"], by="J", reason="", at=5.0))
    assert record.result == "1/2-1/2"


def test_arbiter_events_survive_storage():
    record = record_of("e4")
    for event in (
        set_result(record, result=Result.WHITE_WINS, by="J", reason="r", at=1.0),
        replace_moves(record, ply=2, san=["e5", "Nf3"], by="J", reason="r", at=1.0),
    ):
        assert event_from_data(event.kind, event_data(event)) == event


def test_a_verification_that_does_not_match_the_log_is_a_broken_log():
    record = record_of("e4")
    record.apply(GameEnded(Result.WHITE_WINS, "flag", 1.0))
    with pytest.raises(GameLogError):
        record.apply(ResultVerified(Result.BLACK_WINS, "J", 2.0))
