"""Conditional moves (IECG 6.4, C 4.E and 6.E): a proposal checked move by move, the
recipient's message played against it, and the days charged on each move."""

from __future__ import annotations

import random
from datetime import date

import chess
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from relay.domain.correspondence.conditional import (
    ConditionalMoveError,
    ConditionalPositionError,
    Followed,
    PlyKind,
    answer,
    follow,
    from_stored,
    propose,
    stored_steps,
)

RECEIVED, MAILED = date(2002, 3, 2), date(2002, 3, 6)
RUY_LOPEZ = [("Nc6", "Bb5"), ("a6", "Ba4"), ("Nf6", "O-O")]


def game(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def test_a_conditional_sequence_accepted_then_deviated():
    # White mails 2.Nf3 with "if 2...Nc6 then 3.Bb5, if 3...a6 then 4.Ba4, if 4...Nf6 then
    # 5.O-O". Black receives it on 2 March and mails on 6 March "2...Nc6 3...a6 4...d6":
    # he accepts two steps and deviates from the third (4...d6, not 4...Nf6).
    board = game("e4", "e5", "Nf3")
    sequence = propose(board, RUY_LOPEZ)
    assert sequence.proposer == chess.WHITE
    run = answer(board, sequence, ["Nc6", "a6", "d6"], received_on=RECEIVED, mailed_on=MAILED)
    # 6.E: no time on the accepted and automatic moves; Black's reflection, 6 - 2 = 4 days,
    # goes on his answering move 4...d6.
    assert [(p.san, p.colour, p.move_number, p.kind, p.days) for p in run.plies] == [
        ("Nc6", chess.BLACK, 2, PlyKind.ACCEPTED, 0),
        ("Bb5", chess.WHITE, 3, PlyKind.AUTOMATIC, 0),
        ("a6", chess.BLACK, 3, PlyKind.ACCEPTED, 0),
        ("Ba4", chess.WHITE, 4, PlyKind.AUTOMATIC, 0),
        ("d6", chess.BLACK, 4, PlyKind.ANSWER, 4),
    ]
    assert run.accepted == 2
    assert run.automatic == (chess.Move.from_uci("f1b5"), chess.Move.from_uci("b5a4"))
    assert run.deviated
    # The deviation ends the sequence: 5.O-O no longer binds White, who is to move.
    assert run.remaining is None
    # The 4 days count as used by Black's move 2, the first of the message.
    assert run.counts_from_move == 2
    for ply in run.plies:
        board.push(ply.move)
    assert board.turn == chess.WHITE
    assert board.fen() == game("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "d6").fen()


def test_a_message_that_only_accepts_leaves_the_rest_binding_and_charges_later():
    board = game("e4", "e5", "Nf3")
    sequence = propose(board, RUY_LOPEZ)
    first = answer(board, sequence, ["Nc6"], received_on=RECEIVED, mailed_on=date(2002, 3, 3))
    # Black accepted 2...Nc6; 3.Bb5 is played for White, and Black is to move again.
    assert [(p.san, p.kind, p.days) for p in first.plies] == [
        ("Nc6", PlyKind.ACCEPTED, 0),
        ("Bb5", PlyKind.AUTOMATIC, 0),
    ]
    assert not first.deviated
    remaining = first.remaining
    assert remaining is not None
    assert remaining.proposer == chess.WHITE
    assert len(remaining.steps) == 2
    for ply in first.plies:
        board.push(ply.move)
    assert remaining.fen == board.fen()
    # Black then plays the rest of the sequence and goes on with 5...b5 on 12 March. His
    # time still runs from the proposal's receipt on 2 March: 12 - 2 = 10 days, charged on
    # 5...b5, a move after the whole sequence, so not a deviation.
    second = answer(
        board, remaining, ["a6", "Nf6", "b5"], received_on=RECEIVED, mailed_on=date(2002, 3, 12)
    )
    assert [(p.san, p.kind, p.days) for p in second.plies] == [
        ("a6", PlyKind.ACCEPTED, 0),
        ("Ba4", PlyKind.AUTOMATIC, 0),
        ("Nf6", PlyKind.ACCEPTED, 0),
        ("O-O", PlyKind.AUTOMATIC, 0),
        ("b5", PlyKind.ANSWER, 10),
    ]
    assert (second.accepted, second.deviated, second.remaining) == (2, False, None)
    assert second.counts_from_move == 3


def test_a_deviation_on_the_first_move_plays_nothing_automatically():
    board = game("e4", "e5", "Nf3")
    run = answer(board, propose(board, RUY_LOPEZ), ["Nf6"], received_on=RECEIVED, mailed_on=MAILED)
    assert [(p.san, p.kind, p.days) for p in run.plies] == [("Nf6", PlyKind.ANSWER, 4)]
    assert (run.accepted, run.automatic, run.deviated, run.remaining) == (0, (), True, None)


def test_every_move_of_a_proposal_must_be_legal_in_its_turn():
    board = game("e4", "e5", "Nf3")
    # Step 1 (2...Nc6 3.Bb5) is legal; in step 2, after 3...a6, 4.Ra3 is not: the a1 rook
    # would jump over its own pawn on a2.
    with pytest.raises(ConditionalMoveError, match="step 2, then: 'Ra3'"):
        propose(board, [("Nc6", "Bb5"), ("a6", "Ra3")])
    # A "then" written for the wrong side: after 2...Nc6 it is White's move, not Black's.
    with pytest.raises(ConditionalMoveError, match="step 1, then"):
        propose(board, [("Nc6", "Nf6")])
    with pytest.raises(ConditionalMoveError, match="step 1, if: 'Xy9' is not a legal move"):
        propose(board, [("Xy9", "Bb5")])
    with pytest.raises(ConditionalMoveError, match="one step at least"):
        propose(board, [])


def test_no_proposal_after_the_game_is_over():
    mated = game("f3", "e5", "g4", "Qh4")  # Fool's mate
    with pytest.raises(ConditionalPositionError, match="over"):
        propose(mated, [("Kf2", "Qxh2")])


def test_a_sequence_applies_only_in_its_own_position():
    board = game("e4", "e5", "Nf3")
    sequence = propose(board, RUY_LOPEZ)
    elsewhere = game("e4", "e5", "Nf3", "Nc6")
    with pytest.raises(ConditionalPositionError):
        answer(elsewhere, sequence, ["Bb5"], received_on=RECEIVED, mailed_on=MAILED)


def test_an_answer_must_be_legal_end_at_the_deviation_and_not_predate_the_proposal():
    board = game("e4", "e5", "Nf3")
    sequence = propose(board, RUY_LOPEZ)
    with pytest.raises(ConditionalMoveError, match=r"move 2 \(a6\): the proposer is to move"):
        answer(board, sequence, ["d6", "a6"], received_on=RECEIVED, mailed_on=MAILED)
    with pytest.raises(ConditionalMoveError, match="move 1: 'Ke3'"):
        answer(board, sequence, ["Ke3"], received_on=RECEIVED, mailed_on=MAILED)
    with pytest.raises(ConditionalMoveError, match="no move"):
        answer(board, sequence, [], received_on=RECEIVED, mailed_on=MAILED)
    with pytest.raises(ConditionalMoveError, match="before the proposal"):
        answer(board, sequence, ["Nc6"], received_on=MAILED, mailed_on=RECEIVED)


def random_line(rng: random.Random, board: chess.Board, plies: int) -> list[chess.Move]:
    """Up to ``plies`` random legal moves from ``board``, stopping at the end of the game."""
    line = board.copy()
    moves = []
    for _ in range(plies):
        legal = list(line.legal_moves)
        if not legal or line.is_game_over():
            break
        moves.append(rng.choice(legal))
        line.push(moves[-1])
    return moves


@given(
    rng=st.randoms(use_true_random=False),
    opening=st.integers(min_value=1, max_value=30),
    steps=st.integers(min_value=1, max_value=5),
    data=st.data(),
)
def test_accepted_steps_are_answered_and_the_first_other_move_ends_the_sequence(
    rng: random.Random, opening: int, steps: int, data: st.DataObject
):
    board = chess.Board()
    for move in random_line(rng, board, opening):
        board.push(move)
    assume(not board.is_game_over())
    line = random_line(rng, board, 2 * steps)
    assume(len(line) >= 2)
    line = line[: len(line) // 2 * 2]
    sans, replay = [], board.copy()
    for move in line:
        sans.append(replay.san(move))
        replay.push(move)
    sequence = propose(board, list(zip(sans[0::2], sans[1::2], strict=True)))
    accepted = data.draw(st.integers(min_value=0, max_value=len(sequence.steps)))
    # The recipient plays the first `accepted` "if" moves, then one move of his own.
    position = board.copy()
    for move in line[: 2 * accepted]:
        position.push(move)
    expected = sequence.steps[accepted].if_move if accepted < len(sequence.steps) else None
    own = [move for move in position.legal_moves if move != expected]
    assume(own and not position.is_game_over())
    mine = rng.choice(own)
    message = [*sans[0 : 2 * accepted : 2], position.san(mine)]
    run = answer(board, sequence, message, received_on=RECEIVED, mailed_on=MAILED)
    assert run.accepted == accepted
    assert run.automatic == tuple(step.then_move for step in sequence.steps[:accepted])
    assert run.deviated == (accepted < len(sequence.steps))
    assert run.remaining is None
    assert [ply.move for ply in run.plies] == [*line[: 2 * accepted], mine]
    # Only the answering move carries time (6.E): the 4 days from receipt to mailing.
    assert [ply.days for ply in run.plies] == [0] * (2 * accepted) + [4]
    assert {ply.colour for ply in run.plies if ply.kind is PlyKind.AUTOMATIC} <= {sequence.proposer}


def test_a_kept_sequence_follows_the_expected_move_and_ends_on_another():
    # White sent 1.e4 with "if 1...e5 then 2.Nf3; if 2...Nc6 then 3.Bb5" (4.E), kept as UCI.
    board = chess.Board()
    board.push_san("e4")
    kept = stored_steps(propose(board, [("e5", "Nf3"), ("Nc6", "Bb5")]))
    assert kept == [("e7e5", "g1f3"), ("b8c6", "f1b5")]
    line = from_stored(True, board.fen(), kept)
    followed = follow(line, board.fen(), "e5")
    assert followed.reply == "g1f3"
    assert followed.remaining is not None
    board.push_san("e5")
    board.push_san("Nf3")
    assert followed.remaining.fen == board.fen()
    assert follow(followed.remaining, board.fen(), "b8c6").reply == "f1b5"  # UCI too
    deviated = follow(followed.remaining, board.fen(), "Nf6")
    assert (deviated.reply, deviated.remaining) == (None, None)
    # A sequence kept for a position the game has left does nothing.
    assert follow(line, board.fen(), "Nc6") == Followed(None, None)
