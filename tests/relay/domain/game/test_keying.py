"""The game-input desk's rules: to key, keyed, checked by a second keyer; notes; the result a
keyer proposes; a keying slip taken back; and any change to the moves making a keyed game
one to key again."""

from __future__ import annotations

import chess
import pytest

from relay.domain.game.events import (
    InputStatusSet,
    MoveMade,
    MovesReplaced,
    NoteAdded,
    ResultSet,
    event_data,
    event_from_data,
)
from relay.domain.game.keying import (
    KeyingError,
    add_note,
    legal_moves,
    mark_checked,
    mark_keyed,
    positions,
    progress,
    propose_result,
    take_back,
)
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from tests.records import record_of


def test_a_game_goes_from_to_key_to_keyed_to_checked():
    record = record_of("e4", "e5")
    assert record.input_status == "to-key"
    record.apply(mark_keyed(record, by="Ann", at=2.0))
    assert (record.input_status, record.keyed_by, record.checked_by) == ("keyed", "Ann", None)
    record.apply(mark_checked(record, by="Bob", at=3.0))
    assert (record.input_status, record.keyed_by, record.checked_by) == ("checked", "Ann", "Bob")


def test_the_keyer_who_keyed_a_game_cannot_check_it():
    record = record_of("e4")
    record.apply(mark_keyed(record, by="Ann", at=2.0))
    with pytest.raises(KeyingError, match=r"^Ann keyed this game: a different keyer checks it"):
        mark_checked(record, by="Ann", at=3.0)
    assert record.input_status == "keyed"


@pytest.mark.parametrize(
    ("steps", "rule", "message"),
    [
        ((), mark_keyed, "nothing is keyed yet: no moves and no result"),
        ((), mark_checked, "the game is not keyed yet: it is checked once it is keyed"),
        (("keyed",), mark_keyed, r"the game is keyed already \(by Ann\)"),
        (("keyed", "checked"), mark_keyed, r"the game is checked already \(by Bob\)"),
        (("keyed", "checked"), mark_checked, r"the game is checked already \(by Bob\)"),
    ],
)
def test_a_status_out_of_turn_is_refused_in_words(steps, rule, message):
    record = record_of() if not steps else record_of("d4")
    for status, by in zip(steps, ("Ann", "Bob"), strict=False):
        record.apply(InputStatusSet(status=status, by=by, at=1.0))
    with pytest.raises(KeyingError, match=f"^{message}$"):
        rule(record, by="Cy", at=2.0)


def test_a_game_with_a_proposed_result_and_no_moves_can_be_keyed():
    record = GameRecord()
    record.apply(propose_result(record, result=Result.WHITE_WINS, at=1.0))
    assert record.proposed_result is Result.WHITE_WINS
    assert mark_keyed(record, by="Ann", at=2.0).status == "keyed"


def test_any_change_to_the_moves_makes_the_game_one_to_key_again():
    record = record_of("e4", "e5", "Nf3")
    record.apply(InputStatusSet(status="keyed", by="Ann", at=1.0))
    record.apply(InputStatusSet(status="checked", by="Bob", at=2.0))
    record.apply(MovesReplaced(ply=3, uci=("b1c3",), by="Chief", reason="sheet", at=3.0))
    assert (record.input_status, record.keyed_by, record.checked_by) == ("to-key", None, None)
    record.apply(InputStatusSet(status="keyed", by="Ann", at=4.0))
    record.apply(take_back(record, ply=2, at=5.0))
    assert record.input_status == "to-key"
    assert len(record.moves) == 2
    record.apply(InputStatusSet(status="keyed", by="Ann", at=6.0))
    board = record.board.copy()
    move = board.push_san("Nf3")
    record.apply(MoveMade(3, move.uci(), "Nf3", board.fen(), 7.0))
    assert record.input_status == "to-key"


def test_a_result_does_not_undo_the_keying():
    record = record_of("e4")
    record.apply(InputStatusSet(status="keyed", by="Ann", at=1.0))
    record.apply(ResultSet(result=Result.DRAW, by="Chief", reason="", at=2.0))
    assert record.input_status == "keyed"


def test_a_slip_is_taken_back_but_not_in_a_checked_game_or_one_with_a_result():
    record = record_of("e4", "e5", "Nc3")
    back = take_back(record, ply=2, at=1.0)
    assert back.fen == record_of("e4", "e5").board.fen()
    with pytest.raises(KeyingError, match="takes back nothing"):
        take_back(record, ply=3, at=1.0)
    record.apply(InputStatusSet(status="keyed", by="Ann", at=1.0))
    record.apply(InputStatusSet(status="checked", by="Bob", at=2.0))
    with pytest.raises(KeyingError, match=r"^the game is checked \(by Bob\): an arbiter"):
        take_back(record, ply=1, at=3.0)
    decided = record_of("f3", "e5", "g4", "Qh4#")
    decided.apply(ResultSet(result=Result.BLACK_WINS, by="Chief", reason="", at=1.0))
    with pytest.raises(KeyingError, match=r"^the game has a result \(0-1\)"):
        take_back(decided, ply=2, at=2.0)


def test_notes_are_kept_in_order_with_their_ply():
    record = record_of("e4", "e5")
    record.apply(add_note(record, ply=2, text="  (=)  ", by="Ann", at=1.0))
    record.apply(add_note(record, ply=0, text="rest of score\nindecipherable", by="Ann", at=2.0))
    assert [(n.ply, n.text) for n in record.notes] == [
        (2, "(=)"),
        (0, "rest of score indecipherable"),
    ]
    with pytest.raises(KeyingError, match=r"^ply 3 is not in the game"):
        add_note(record, ply=3, text="time", by="Ann", at=3.0)
    with pytest.raises(KeyingError, match=r"^an empty note$"):
        add_note(record, ply=1, text=" \t", by="Ann", at=3.0)
    with pytest.raises(KeyingError, match="at most 200 characters"):
        add_note(record, ply=1, text="x" * 201, by="Ann", at=3.0)


def test_a_keyer_proposes_a_decided_result_while_the_game_has_none():
    record = record_of("e4")
    proposed = propose_result(record, result=Result.DRAW, at=1.0)
    assert (proposed.result, proposed.gesture) == (Result.DRAW, "scoresheet")
    with pytest.raises(KeyingError, match="1-0, 0-1 or 1/2-1/2"):
        propose_result(record, result=Result.ONGOING, at=1.0)
    record.apply(ResultSet(result=Result.DRAW, by="Chief", reason="", at=2.0))
    with pytest.raises(KeyingError, match=r"^the game's result is 1/2-1/2 \(set by Chief\)"):
        propose_result(record, result=Result.WHITE_WINS, at=3.0)


def test_the_new_events_are_stored_and_read_back():
    for event in (
        NoteAdded(ply=3, text="(=)", by="Ann", at=1.5),
        InputStatusSet(status="checked", by="Bob", at=2.0),
    ):
        assert event_from_data(event.kind, event_data(event)) == event


def test_positions_legal_moves_and_progress():
    record = record_of("e4")
    assert positions(record) == [chess.STARTING_FEN, record.moves[0].fen]
    assert len(legal_moves(record)) == 20
    assert "e5" in legal_moves(record)
    record.apply(ResultSet(result=Result.DRAW, by="Chief", reason="", at=2.0))
    assert legal_moves(record) == []
    assert progress(["to-key", "keyed", "keyed", "checked"]) == {
        "to-key": 1,
        "keyed": 2,
        "checked": 1,
    }
