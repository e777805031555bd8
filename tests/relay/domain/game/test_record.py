from __future__ import annotations

import json

import chess
import pytest

from relay.domain.game.events import (
    ArbiterAlert,
    BoardRotated,
    Claim,
    ClaimsChanged,
    ClockSideDecided,
    EventFormatError,
    GameEnded,
    GameEvent,
    IllegalMoveCompleted,
    MoveCorrected,
    MoveMade,
    NewGame,
    ResultProposed,
    TakenBack,
    Waiting,
    event_data,
    event_from_data,
    is_logged,
)
from relay.domain.game.record import GameLogError, GameRecord
from relay.domain.results import Result


def moves(*sans: str) -> list[GameEvent]:
    board = chess.Board()
    out: list[GameEvent] = []
    for ply, san in enumerate(sans, start=1):
        move = board.push_san(san)
        out.append(MoveMade(ply=ply, uci=move.uci(), san=san, fen=board.fen(), at=float(ply)))
    return out


EVERY_KIND: list[GameEvent] = [
    *moves("e4"),
    MoveCorrected(ply=1, uci="e2e3", san="e3", fen="f", replaced="e2e4", at=1.0),
    TakenBack(ply=0, fen=chess.STARTING_FEN, at=2.0),
    NewGame(rotated=True, at=2.5),
    GameEnded(result=Result.WHITE_WINS, termination="checkmate", at=3.5),
    ResultProposed(result=Result.DRAW, gesture="kings", at=4.0),
    IllegalMoveCompleted(player="black", count=2, penalty="loss", seconds=0, reason="r", at=5.0),
    ClaimsChanged(
        ply=8,
        claims=(Claim("threefold", False, ("Ng8", "Nh6")), Claim("fifty-moves", True)),
        at=6.0,
    ),
    ArbiterAlert(alert="illegal-position", detail="d", ply=3, at=7.0),
    ClockSideDecided(
        white_on="right", source="auto", reason="r", at=7.5, clocks=((1, 5391.0), (3, 5377.0))
    ),
    Waiting(missing=("g1", "f1"), at=8.0),
    BoardRotated(rotated=False, at=9.0),
]


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda event: event.kind)
def test_events_round_trip_through_their_stored_form(event):
    stored = json.loads(json.dumps(event_data(event)))  # as the database gives it back
    assert event_from_data(event.kind, stored) == event


def test_notices_are_not_logged():
    assert [e.kind for e in EVERY_KIND if not is_logged(e)] == ["waiting", "rotated"]


def test_unknown_kind_and_bad_fields_raise():
    with pytest.raises(EventFormatError):
        event_from_data("teleport", {})
    with pytest.raises(EventFormatError):
        event_from_data("move", {"ply": 1})


def test_fold_gives_board_moves_and_result():
    log = [*moves("f3", "e5", "g4", "Qh4#"), GameEnded(Result.BLACK_WINS, "checkmate", 5.0)]
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


def test_correction_replaces_the_last_move():
    log = [*moves("e4", "e5", "Nf3")]
    log.append(MoveCorrected(ply=3, uci="g1h3", san="Nh3", fen="x", replaced="g1f3", at=4.0))
    record = GameRecord.from_events(log)
    assert [m.san for m in record.moves] == ["e4", "e5", "Nh3"]
    assert record.board.piece_at(chess.H3) == chess.Piece.from_symbol("N")


def test_takeback_withdraws_moves_and_claims():
    log = [*moves("e4", "e5", "Nf3"), ClaimsChanged(3, (Claim("fifty-moves", True),), 4.0)]
    record = GameRecord.from_events([*log, TakenBack(ply=1, fen="x", at=5.0)])
    assert [m.san for m in record.moves] == ["e4"]
    assert record.claims == ()
    with pytest.raises(GameLogError):
        GameRecord.from_events([*log, TakenBack(ply=4, fen="x", at=5.0)])


def test_new_game_restarts_an_unfinished_game_but_never_a_finished_one():
    unfinished = GameRecord.from_events([*moves("e4", "e5"), NewGame(rotated=False, at=3.0)])
    assert unfinished.moves == []
    assert unfinished.restarts == 1
    ended = GameEnded(result=Result.WHITE_WINS, termination="resignation", at=3.0)
    finished = GameRecord.from_events([*moves("e4"), ended, NewGame(rotated=False, at=4.0)])
    assert len(finished.moves) == 1
    assert finished.result == "1-0"


def test_the_clock_side_is_the_last_decided_and_stays_for_the_next_game():
    left = ClockSideDecided(white_on="left", source="auto", reason="a", at=1.0)
    right = ClockSideDecided(white_on="right", source="setting", reason="b", at=3.0)
    record = GameRecord.from_events([left, *moves("e4"), right, NewGame(rotated=False, at=4.0)])
    assert record.clock_side == right
    assert GameRecord.from_events(moves("e4")).clock_side is None


def test_a_clock_side_with_unreadable_clocks_is_refused():
    with pytest.raises(EventFormatError):
        event_from_data(
            "clock-side",
            {"white_on": "left", "source": "auto", "reason": "", "at": 1.0, "clocks": [[1]]},
        )


def test_proposals_alerts_and_illegal_moves_are_kept_for_the_arbiter():
    illegal = IllegalMoveCompleted("white", 1, "add-time", 120, "r", 2.0)
    alert = ArbiterAlert("illegal-position", "d", 1, 2.0)
    record = GameRecord.from_events(
        [*moves("e4"), illegal, alert, ResultProposed(Result.WHITE_WINS, "marker", 3.0)]
    )
    assert record.illegal_moves == [illegal]
    assert record.alerts == [alert]
    assert record.proposed_result == "1-0"
    assert record.result == "*"
