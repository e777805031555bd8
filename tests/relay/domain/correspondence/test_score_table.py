"""The score table of a correspondence event (C.14): points and Sonneborn-Berger, worked by
hand from the article's words; forfeits after a withdrawal (9.B) count like wins."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.score_table import score_table
from relay.domain.correspondence.withdrawal import EventGame, TableGame, withdraw
from relay.domain.results import Result

W, B, D, U = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.ONGOING


def test_points_and_sonneborn_berger_of_a_round_robin_of_four():
    # 1 beats 2, draws 3, loses to 4; 2 beats 3 and 4; 3 draws 4.
    # Points: 1: 1.5, 2: 2, 3: 1, 4: 1.5.
    # SB (C.14: all of a beaten opponent's points, half a drawn one's):
    #   1: 2 (beat 2) + 0.5 (drew 3: 1/2) = 2.5;  4: 1.5 (beat 1) + 0.5 (drew 3) = 2;
    #   2: 1 (beat 3) + 1.5 (beat 4) = 2.5;       3: 0.75 (drew 1) + 0.75 (drew 4) = 1.5.
    games = [
        TableGame(1, 2, W, False), TableGame(3, 1, D, False), TableGame(4, 1, W, False),
        TableGame(2, 3, W, False), TableGame(4, 2, B, False), TableGame(3, 4, D, False),
    ]  # fmt: skip
    table = score_table([1, 2, 3, 4], games)
    assert [(t.place, t.player, t.points, t.sonneborn_berger) for t in table] == [
        (1, 2, Fraction(2), Fraction(5, 2)),
        (2, 1, Fraction(3, 2), Fraction(5, 2)),
        (3, 4, Fraction(3, 2), Fraction(2)),
        (4, 3, Fraction(1), Fraction(3, 2)),
    ]


def test_a_40_percent_withdrawal_turns_finished_games_into_forfeits_on_the_table():
    # Player 1 of six (five games) withdraws with two finished (40%, at most 50%: 9.B.a):
    # he beat 2 and drew 3, but the table scores all five as forfeit wins for the others.
    games = [
        EventGame(1, 2, W), EventGame(3, 1, D), EventGame(1, 4, U), EventGame(5, 1, U),
        EventGame(1, 6, U),
    ]  # fmt: skip
    withdrawal = withdraw(1, games)
    table = {line.player: line for line in score_table([1, 2, 3, 4, 5, 6], withdrawal.table)}
    assert table[1].points == 0
    assert table[1].forfeits_lost == 5
    assert table[2].points == 1
    assert table[2].forfeits_won == 1
    assert table[3].points == 1  # the draw became a win
    # ... and the rating run keeps the real results of the two finished games.
    assert [(g.white, g.black, g.result) for g in withdrawal.rated] == [(1, 2, W), (3, 1, D)]


def test_equal_points_and_sonneborn_berger_share_a_place():
    table = score_table([1, 2], [TableGame(1, 2, D, False)])
    assert [(t.place, t.points) for t in table] == [(1, Fraction(1, 2)), (1, Fraction(1, 2))]


results = st.sampled_from([W, B, D, U])


@given(st.lists(results, min_size=6, max_size=6))
def test_the_points_add_up_to_the_finished_games(outcomes):
    pairs = [(1, 2), (3, 4), (1, 3), (2, 4), (4, 1), (2, 3)]
    games = [TableGame(w, b, r, False) for (w, b), r in zip(pairs, outcomes, strict=True)]
    table = score_table([1, 2, 3, 4], games)
    assert sum(t.points for t in table) == sum(r is not U for r in outcomes)
    assert [t.place for t in table] == sorted(t.place for t in table)
    assert all(t.sonneborn_berger <= t.points * 6 for t in table)
