"""Team scores and the knock-out board count, on seed 004 chapter 13's own examples."""

from __future__ import annotations

import pytest

from relay.domain.tournament.team_tie_breaks import (
    Match,
    Winner,
    board_count,
    knockout_winner,
    match_points,
    team_standings,
)

# Seed 004 chapter 13, "Team Knockout Matches": the Organisers (home) against the Players,
# the home team's points board by board.
RESULT_1 = (1.0, 0.0, 0.0, 1.0, 1.0, 0.0)
RESULT_2 = (0.5, 0.0, 1.0, 1.0, 0.0, 0.5)


def test_result_1_lower_board_count_wins():
    # "The Organisers win on 1, 4 and 5. Total 10. The Players win on 2, 3 and 6. Total 11.
    # The Organisers are declared the winners."
    assert board_count(RESULT_1) == (10, 11)
    assert knockout_winner(RESULT_1) is Winner.HOME


def test_result_2_end_board_elimination():
    # "The Organisers win on 3 and 4. Total 7. The Players win on 2 and 5. Total 7. ... Board
    # 6 is a draw. The Players win on Board 5. Thus the Organisers again triumph."
    assert board_count(RESULT_2) == (7, 7)
    assert knockout_winner(RESULT_2) is Winner.HOME
    # The mirror image makes the Players (away) win.
    assert knockout_winner(tuple(1.0 - b for b in RESULT_2)) is Winner.AWAY


def test_game_points_decide_first_and_a_full_tie_stays():
    assert knockout_winner((1.0, 1.0, 0.0, 0.5)) is Winner.HOME  # 2.5-1.5
    assert knockout_winner((0.5, 0.5)) is Winner.NONE


def test_match_points_and_standings():
    matches = [
        Match("X", "Y", (1.0, 0.5, 0.5, 0.0)),  # 2-2: one match point each
        Match("Y", "Z", (1.0, 1.0, 1.0, 0.5)),  # Y 3.5-0.5
        Match("Z", "X", (1.0, 1.0, 0.0, 0.0)),  # 2-2
        Match("W", "X", (0.0, 1.0, 0.5, 1.0)),  # W 2.5-1.5
    ]
    assert match_points(matches[1]) == (2, 0)
    # MP: X 1 + 1 + 0 = 2, Y 1 + 2 = 3, Z 0 + 1 = 1, W 2.
    # GP: X 2 + 2 + 1.5 = 5.5, Y 2 + 3.5 = 5.5, Z .5 + 2 = 2.5, W 2.5.
    rows = team_standings(["X", "Y", "Z", "W"], matches)
    assert [(r.team, r.match_points, r.game_points) for r in rows] == [
        ("Y", 3, 5.5),
        ("X", 2, 5.5),  # X and W tie on MP; game points (seed: "game points scored") split
        ("W", 2, 2.5),
        ("Z", 1, 2.5),
    ]
    # Ranked on game points, match points break the tie: Y (3) before X (2), W (2) before Z.
    rows = team_standings(["X", "Y", "Z", "W"], matches, primary="GP")
    assert [r.team for r in rows] == ["Y", "X", "W", "Z"]


def test_refusals():
    with pytest.raises(ValueError, match="each board"):
        Match("X", "Y", (2.0,))
    with pytest.raises(ValueError, match="not listed"):
        team_standings(["X"], [Match("X", "Y", (1.0,))])
    with pytest.raises(ValueError, match="MP or GP"):
        team_standings(["X"], [], primary="BC")


def test_the_primary_score_decides():
    # S wins twice narrowly (MP 4, GP 2.5 + 2.5 = 5); T draws and wins big (MP 3, GP 2 + 4 = 6).
    matches = [
        Match("S", "A", (1.0, 1.0, 0.5, 0.0)),
        Match("S", "B", (1.0, 0.5, 1.0, 0.0)),
        Match("T", "A", (1.0, 1.0, 0.0, 0.0)),
        Match("T", "B", (1.0, 1.0, 1.0, 1.0)),
    ]
    teams = ["A", "B", "S", "T"]
    assert [r.team for r in team_standings(teams, matches)][:2] == ["S", "T"]
    assert [r.team for r in team_standings(teams, matches, primary="GP")][:2] == ["T", "S"]
