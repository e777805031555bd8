"""Moves entered by hand: the next ply, a repeat, a conflict, and an illegal entry with the
legal moves that fit it."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.game.entries import (
    Accepted,
    EntryConflictError,
    IllegalEntryError,
    Repeated,
    describe,
    entry_events,
    fitting_moves,
    judge_entry,
    parse_entry,
)
from relay.domain.game.events import GameEnded, MoveMade, ResultSet
from relay.domain.game.record import GameRecord
from relay.domain.results import Result


def game(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def test_the_next_ply_is_accepted_with_its_san_and_position():
    board = game("e4", "e5")
    judged = judge_entry(board, 3, "Ng1-f3")
    assert isinstance(judged, Accepted)
    assert (judged.ply, judged.san, judged.move.uci()) == (3, "Nf3", "g1f3")
    assert judged.fen == game("e4", "e5", "Nf3").fen()
    assert len(board.move_stack) == 2  # the game as recorded is not changed


@pytest.mark.parametrize(
    ("written", "san"),
    [("Nf3+", "Nf3"), ("g1f3", "Nf3"), ("Nf3!?", "Nf3"), (" Nf3 ", "Nf3")],
)
def test_scoresheet_spellings_are_read(written, san):
    assert judge_entry(game("e4", "e5"), 3, written).san == san


def test_castling_and_promotion_as_written_on_paper():
    board = chess.Board("4k3/P7/8/8/8/8/8/4K2R w K - 0 1")
    assert parse_entry(board, "0-0") == chess.Move.from_uci("e1g1")
    assert parse_entry(board, "a8Q") == chess.Move.from_uci("a7a8q")
    assert parse_entry(board, "a8=N") == chess.Move.from_uci("a7a8n")


def test_an_entry_sent_again_is_a_repeat_not_a_second_move():
    board = game("e4", "e5", "Nf3")
    judged = judge_entry(board, 3, "Nf3")
    assert judged == Repeated(3, "Nf3")
    assert judge_entry(board, 1, "e2e4") == Repeated(1, "e4")


def test_another_move_at_an_entered_ply_is_a_conflict_in_words():
    with pytest.raises(EntryConflictError, match="ply 3 already holds Nf3; this entry says Nc3"):
        judge_entry(game("e4", "e5", "Nf3"), 3, "Nc3")


def test_an_entry_beyond_the_next_ply_is_a_conflict():
    with pytest.raises(EntryConflictError, match="the next entry is for ply 3"):
        judge_entry(game("e4", "e5"), 5, "Nf3")
    with pytest.raises(EntryConflictError, match="count from 1"):
        judge_entry(game(), 0, "e4")


def test_a_different_rook_going_to_d1_is_offered():
    # Rooks on a1 and f1; "Rad1" was written as "Rhd1" (no rook on h1).
    board = chess.Board("r3k2r/8/8/8/8/8/8/R4RK1 w kq - 0 1")
    with pytest.raises(IllegalEntryError) as refused:
        parse_entry(board, "Rhd1")
    assert refused.value.fitting[:2] == ("Rad1", "Rfd1")
    assert refused.value.hints[:2] == ("the rook from a1 to d1", "the rook from f1 to d1")
    assert "did you mean Rad1, Rfd1" in str(refused.value)


def test_a_slip_of_one_square_offers_the_neighbouring_moves():
    board = game("e4", "e5")
    fitting = [board.san(move) for move in fitting_moves(board, "Nf4")]
    assert fitting[0] == "Nf3"  # the knight, one rank away
    assert "Nh3" not in fitting[:1]


def test_a_piece_to_a_square_another_piece_can_reach():
    board = game("e4", "d5")
    fitting = [board.san(move) for move in fitting_moves(board, "Nxd5")]
    assert fitting[0] == "exd5"  # no knight reaches d5; the pawn does


def test_words_for_captures_castling_and_promotion():
    board = chess.Board("1r2k3/P7/8/8/8/8/8/4K2R w K - 0 1")
    assert describe(board, chess.Move.from_uci("a7b8q")) == (
        "the pawn from a7 takes on b8, promoting to a queen"
    )
    assert describe(board, chess.Move.from_uci("e1g1")) == "castling kingside"


def test_nonsense_is_refused_with_nothing_to_offer():
    with pytest.raises(IllegalEntryError) as refused:
        parse_entry(game(), "hello")
    assert refused.value.fitting == ()
    with pytest.raises(IllegalEntryError, match="empty"):
        parse_entry(game(), "  ")


@given(st.data())
def test_every_legal_move_in_san_or_uci_is_accepted_and_a_repeat_is_recognised(data):
    board = chess.Board()
    for _ in range(data.draw(st.integers(0, 30))):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(data.draw(st.sampled_from(legal)))
    legal = list(board.legal_moves)
    if not legal:
        return
    move = data.draw(st.sampled_from(legal))
    text = data.draw(st.sampled_from([board.san(move), move.uci()]))
    ply = len(board.move_stack) + 1
    judged = judge_entry(board, ply, text)
    assert isinstance(judged, Accepted)
    assert judged.move == move
    board.push(move)
    assert judge_entry(board, ply, text) == Repeated(ply, judged.san)


def recorded(*sans: str) -> GameRecord:
    board = chess.Board()
    events = []
    for at, san in enumerate(sans, start=1):
        move = board.push_san(san)
        events.append(MoveMade(ply=board.ply(), uci=move.uci(), san=san, fen=board.fen(), at=at))
    return GameRecord.from_events(events)


def test_an_entry_becomes_a_move_event_and_a_mate_ends_the_game():
    judged, events = entry_events(recorded("f3", "e5", "g4"), 4, "Qh4", at=9.0)
    assert isinstance(judged, Accepted)
    move, end = events
    assert isinstance(move, MoveMade)
    assert (move.ply, move.san, move.uci, move.at) == (4, "Qh4#", "d8h4", 9.0)
    assert isinstance(end, GameEnded)
    assert (end.result, end.termination) == (Result.BLACK_WINS, "checkmate")


def test_after_the_end_a_repeat_is_acknowledged_and_a_new_move_refused():
    record = recorded("f3", "e5", "g4", "Qh4#")
    record.apply(GameEnded(result=Result.BLACK_WINS, termination="checkmate", at=5.0))
    assert entry_events(record, 4, "Qh4#", at=6.0) == (Repeated(4, "Qh4#"), [])
    with pytest.raises(EntryConflictError, match="the game is over"):
        entry_events(_ended(recorded("e4", "e5")), 3, "Nf3", at=1.0)


def _ended(record: GameRecord) -> GameRecord:
    record.apply(ResultSet(result=Result.DRAW, by="arbiter", reason="agreed", at=3.0))
    return record
