"""Draws claimed on the scoresheet (9.2, 9.3), with the move to be played or without: a
correct claim proposes the draw and plays nothing, a wrong one plays the move and leaves
the arbiter an alert for the penalty (9.5.3); a claim sent again is acknowledged. Also:
moves entered by hand record the draws claimable, as a board's do."""

from __future__ import annotations

import chess
import pytest

from relay.domain.game.draw_claims import CORRECT, WRONG, DrawClaimError, claim_events
from relay.domain.game.entries import IllegalEntryError, entry_events
from relay.domain.game.events import (
    ArbiterAlert,
    Claim,
    ClaimsChanged,
    GameEnded,
    GameEvent,
    MoveMade,
    ResultProposed,
)
from relay.domain.game.record import GameRecord
from relay.domain.results import Result

#: After these eight plies the start position stands for the third time (White to move).
KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]


def entered(*sans: str) -> GameRecord:
    """A record built by entering ``sans`` one by one, as the hub does."""
    record = GameRecord()
    for ply, san in enumerate(sans, start=1):
        _, events = entry_events(record, ply, san, float(ply))
        for event in events:
            record.apply(event)
    return record


def applied(record: GameRecord, events: list[GameEvent]) -> GameRecord:
    for event in events:
        record.apply(event)
    return record


def test_entries_record_the_draws_claimable_as_a_board_does():
    record = GameRecord()
    changes = {}
    for ply, san in enumerate(KNIGHTS, start=1):
        _, events = entry_events(record, ply, san, float(ply))
        applied(record, events)
        changes.update({e.ply: e.claims for e in events if isinstance(e, ClaimsChanged)})
    # After 4. Ng1 Black may claim with Ng8 (the start position a third time); after it,
    # White may claim now.
    assert changes == {
        7: (Claim(rule="threefold", now=False, moves=("Ng8",)),),
        8: (Claim(rule="threefold", now=True),),
    }
    assert record.claims == (Claim(rule="threefold", now=True),)
    _, events = entry_events(record, 9, "e4", 9.0)
    assert events[-1] == ClaimsChanged(ply=9, claims=(), at=9.0)


def test_a_correct_threefold_claim_with_the_move_proposes_the_draw_and_plays_nothing():
    record = entered(*KNIGHTS[:7])
    verdict, events = claim_events(record, ply=8, rule="threefold", move="Ng8", at=9.0)
    assert (verdict.correct, verdict.player, verdict.san, verdict.repeated) == (
        True,
        "black",
        "Ng8",
        False,
    )
    assert verdict.words.startswith("Black claims a draw by threefold repetition with 4... Ng8:")
    assert "correct, the position occurs for the third time" in verdict.words
    assert events == [
        ArbiterAlert(alert=CORRECT, detail=verdict.words, ply=8, at=9.0),
        ResultProposed(result=Result.DRAW, gesture="claim", at=9.0),
    ]
    applied(record, events)
    assert (len(record.moves), record.proposed_result, record.result) == (7, "1/2-1/2", "*")


def test_a_threefold_claim_now_needs_the_third_occurrence_on_the_board():
    record = entered(*KNIGHTS)
    verdict, events = claim_events(record, ply=9, rule="threefold", move=None, at=9.0)
    assert verdict.correct
    assert verdict.san is None
    assert [type(event) for event in events] == [ArbiterAlert, ResultProposed]
    early = entered(*KNIGHTS[:4])
    wrong, events = claim_events(early, ply=5, rule="threefold", move=None, at=5.0)
    assert not wrong.correct
    assert "wrong, the position has occurred twice" in wrong.words
    assert "the arbiter gives Black time (9.5.3)" in wrong.words
    assert events == [ArbiterAlert(alert=WRONG, detail=wrong.words, ply=5, at=5.0)]


def test_a_wrong_claim_with_a_move_plays_the_move_and_alerts_the_arbiter():
    record = entered(*KNIGHTS[:5])
    verdict, events = claim_events(record, ply=6, rule="threefold", move="Nc6", at=6.0)
    assert not verdict.correct
    assert "wrong, the position would occur once" in verdict.words
    assert "the move stands and the arbiter gives White time (9.5.3)" in verdict.words
    assert events[0] == ArbiterAlert(alert=WRONG, detail=verdict.words, ply=6, at=6.0)
    assert isinstance(events[1], MoveMade)
    assert (events[1].ply, events[1].san) == (6, "Nc6")
    applied(record, events)
    assert [move.san for move in record.moves][-1] == "Nc6"
    assert record.proposed_result is None


def test_a_claim_sent_again_is_acknowledged_not_recorded_twice():
    wrong = entered(*KNIGHTS[:5])
    first, events = claim_events(wrong, ply=6, rule="threefold", move="Nc6", at=6.0)
    applied(wrong, events)
    again, events = claim_events(wrong, ply=6, rule="threefold", move="b8c6", at=7.0)
    assert (again.repeated, again.correct, again.words, events) == (True, False, first.words, [])
    right = entered(*KNIGHTS[:7])
    first, events = claim_events(right, ply=8, rule="threefold", move="Ng8", at=9.0)
    applied(right, events)
    again, events = claim_events(right, ply=8, rule="threefold", move="Ng8", at=10.0)
    assert (again.repeated, again.correct, events) == (True, True, [])


def test_claims_that_do_not_fit_are_refused_in_words():
    record = entered(*KNIGHTS[:5])
    with pytest.raises(DrawClaimError, match="a claim goes with the next move"):
        claim_events(record, ply=9, rule="threefold", move="Ng8", at=1.0)
    with pytest.raises(DrawClaimError, match="ply 5 already holds Nf3"):
        claim_events(record, ply=5, rule="threefold", move="Nf3", at=1.0)
    with pytest.raises(IllegalEntryError) as illegal:
        claim_events(record, ply=6, rule="threefold", move="Ng6", at=1.0)
    assert "Nf6" in illegal.value.fitting  # the knight on g8 may go to f6 or h6, not g6
    # A second, different claim while a correct one waits for the arbiter.
    right = entered(*KNIGHTS[:7])
    _, events = claim_events(right, ply=8, rule="threefold", move="Ng8", at=9.0)
    applied(right, events)
    with pytest.raises(DrawClaimError, match="a draw claim waits for the arbiter"):
        claim_events(right, ply=8, rule="fifty-moves", move=None, at=10.0)
    over = applied(entered("f3", "e5", "g4"), [])
    _, mate = entry_events(over, 4, "Qh4", 4.0)
    applied(over, mate)
    assert isinstance(mate[-1], GameEnded)
    with pytest.raises(DrawClaimError, match="the game is over"):
        claim_events(over, ply=5, rule="threefold", move=None, at=5.0)


def quiet_walk(plies: int) -> list[str]:
    """``plies`` moves from the start with no capture and no pawn move, none reaching a
    position a third time: the first such move in UCI order, each time."""
    board = chess.Board()
    seen: dict[str, int] = {board.board_fen() + str(board.turn): 1}
    sans = []
    for _ in range(plies):
        for move in sorted(board.legal_moves, key=chess.Move.uci):
            if board.is_capture(move) or board.piece_type_at(move.from_square) == chess.PAWN:
                continue
            board.push(move)
            key = board.board_fen() + str(board.turn)
            if seen.get(key, 0) < 2 and not board.is_checkmate():
                board.pop()
                break
            board.pop()
        sans.append(board.san(move))
        board.push(move)
        seen[key] = seen.get(key, 0) + 1
    assert board.halfmove_clock == plies
    return sans


def test_fifty_moves_claimed_with_the_hundredth_quiet_ply_or_after_it():
    walk = quiet_walk(100)
    record = entered(*walk[:99])
    verdict, events = claim_events(record, ply=100, rule="fifty-moves", move=walk[99], at=1.0)
    assert verdict.correct, verdict.words
    assert "correct, 50 moves by each player without a capture or a pawn move" in verdict.words
    assert [type(event) for event in events] == [ArbiterAlert, ResultProposed]
    early, _ = claim_events(record, ply=100, rule="fifty-moves", move=None, at=1.0)
    assert not early.correct
    assert "wrong, only 49 moves by each player" in early.words
    now, _ = claim_events(entered(*walk), ply=101, rule="fifty-moves", move=None, at=1.0)
    assert now.correct
