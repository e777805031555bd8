"""The laws module against python-chess's own (slower) answers, and on hand-made cases."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.clock.time_control import GameClass
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.game import laws
from relay.domain.game.laws import BothFlagsRule, Repetitions, Rules


@st.composite
def shuffling_games(draw: st.DrawFn) -> list[chess.Move]:
    """Random games that often go back and forth, so positions repeat."""
    board = chess.Board()
    moves: list[chess.Move] = []
    for _ in range(draw(st.integers(min_value=1, max_value=50))):
        if board.outcome() is not None:
            break
        legal = list(board.legal_moves)
        back = None
        if len(board.move_stack) >= 2:
            before = board.move_stack[-2]
            candidate = chess.Move(before.to_square, before.from_square)
            if candidate in legal:
                back = candidate
        move = back if back is not None and draw(st.booleans()) else draw(st.sampled_from(legal))
        board.push(move)
        moves.append(move)
    return moves


@given(shuffling_games())
def test_repetition_counts_and_claims_agree_with_python_chess(moves):
    board = chess.Board()
    table = Repetitions(board)
    for move in moves:
        board.push(move)
        table.push(board)
        assert (table.current >= 5) == board.is_fivefold_repetition()
        threefold = [c for c in laws.claims(board, table) if c.rule == "threefold"]
        assert bool(threefold) == board.can_claim_threefold_repetition()
        if threefold and not threefold[0].now:
            for san in threefold[0].moves:
                board.push_san(san)
                assert board.is_repetition(3)
                board.pop()
    while board.move_stack:  # popping keeps the table in step
        board.pop()
        table.pop()
        assert (table.current >= 3) == board.is_repetition(3)


@pytest.mark.parametrize(
    ("fen", "claimable", "now"),
    [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", True, False),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", True, True),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 98 80", False, False),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80", True, False),  # the king can still move quietly
    ],
)
def test_fifty_moves_claimable_now_or_with_a_move(fen, claimable, now):
    board = chess.Board(fen)
    found = [c for c in laws.claims(board, Repetitions(board)) if c.rule == "fifty-moves"]
    assert bool(found) == claimable == board.can_claim_fifty_moves()
    if found:
        assert found[0].now == now


@pytest.mark.parametrize(
    ("fen", "locked"),
    [
        ("8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1", True),
        ("8/4k3/1p1p3p/pPpP3P/P1P1P1P1/8/4K3/8 w - - 0 1", False),  # a way in on the f-file
        ("8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/7B w - - 0 1", False),  # a bishop
        ("8/8/4k3/4p3/4P3/4K3/8/8 w - - 0 1", False),  # kings can walk round and take
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", False),  # no pawns: a material question
    ],
)
def test_locked_positions_are_flagged(fen, locked):
    assert laws.locked_position(chess.Board(fen)) == locked


@pytest.mark.parametrize(
    ("time_class", "count", "penalty"),
    [
        (GameClass.STANDARD, 1, ("add-time", 120)),
        (GameClass.RAPID, 1, ("add-time", 60)),
        (GameClass.BLITZ, 1, ("add-time", 60)),
        (GameClass.STANDARD, 2, ("loss", 0)),
        (GameClass.BLITZ, 2, ("loss", 0)),
    ],
)
def test_illegal_move_penalties(time_class, count, penalty):
    assert laws.illegal_move_penalty(Rules(time_class=time_class), count) == penalty


@pytest.mark.parametrize(
    ("fen", "fallen", "result"),
    [
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", chess.WHITE, "1/2-1/2"),  # a bare black king
        ("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", chess.WHITE, "0-1"),  # a pawn can still mate
        ("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", chess.BLACK, "1/2-1/2"),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", chess.BLACK, "1-0"),
    ],
)
def test_flag_fall_results(fen, fallen, result):
    assert laws.flag_result(chess.Board(fen), fallen)[0] == result


@pytest.mark.parametrize(
    ("control", "rules"),
    [
        ("90+30", Rules(GameClass.STANDARD)),
        ("15 min + 10 s/move", Rules(GameClass.RAPID)),
        ("3+2", Rules(GameClass.BLITZ)),
        ("?", Rules(GameClass.STANDARD)),
        # Lightning (seed 003): both flags down is a draw; a move needs the clock press.
        ("G/1", Rules(GameClass.BLITZ, BothFlagsRule.DRAW, moves_need_press=True)),
        ("60", Rules(GameClass.BLITZ, BothFlagsRule.DRAW, moves_need_press=True)),
    ],
)
def test_a_time_control_brings_its_rules(control, rules):
    assert laws.rules_for(parse_time_control(control)) == rules
