from __future__ import annotations

import chess
import pytest

from relay.domain.game.events import (
    EventFormatError,
    GameEnded,
    GameEvent,
    MoveMade,
    event_data,
    event_from_data,
)
from relay.domain.game.record import GameLogError, GameRecord


def moves(*sans: str) -> list[GameEvent]:
    board = chess.Board()
    out: list[GameEvent] = []
    for ply, san in enumerate(sans, start=1):
        move = board.push_san(san)
        out.append(MoveMade(ply=ply, uci=move.uci(), san=san, fen=board.fen(), at=float(ply)))
    return out


def test_events_round_trip_through_their_stored_form():
    for event in [*moves("e4"), GameEnded(result="1-0", termination="checkmate", at=3.5)]:
        assert event_from_data(event.kind, event_data(event)) == event


def test_unknown_kind_and_bad_fields_raise():
    with pytest.raises(EventFormatError):
        event_from_data("teleport", {})
    with pytest.raises(EventFormatError):
        event_from_data("move", {"ply": 1})


def test_fold_gives_board_moves_and_result():
    log = [*moves("f3", "e5", "g4", "Qh4#"), GameEnded("0-1", "checkmate", 5.0)]
    record = GameRecord.from_events(log)
    assert record.board.is_checkmate()
    assert [m.san for m in record.moves] == ["f3", "e5", "g4", "Qh4#"]
    assert record.result == "0-1"
    assert record.last_move == log[3]


def test_gap_in_plies_is_rejected():
    first, _, third = moves("e4", "e5", "Nf3")
    with pytest.raises(GameLogError):
        GameRecord.from_events([first, third])


def test_illegal_move_in_log_is_rejected():
    bad = MoveMade(ply=1, uci="e2e5", san="e5", fen="", at=0.0)
    with pytest.raises(GameLogError):
        GameRecord.from_events([bad])
