"""Seed 002's ladder: the points table as data with every boundary, the seed's worked
example, which games count for which ladder, and a small ladder replayed by hand."""

from __future__ import annotations

import re
from datetime import date

import pytest

from relay.domain.ladder.rules import (
    ClubResult,
    Ladder,
    LadderError,
    LadderRate,
    counted_games,
    ladder_table,
)
from relay.domain.results import Result
from relay.domain.tournament.ratings import LADDER_LAST_ROW, LADDER_ROWS, ladder_change
from tests.data_files import seed_extract

STANDARD, RAPID, ALL = LadderRate.STANDARD, LadderRate.RAPID, LadderRate.ALL
WHITE, BLACK, DRAW = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def seed_rows() -> list[tuple[int, int | None, int, int, int]]:
    """The seed's table as printed: (low, high or None for "or over", high win, low win,
    draw), "-" read as 0."""
    rows = []
    for line in seed_extract("002-ladder-points-table.txt").splitlines():
        found = re.fullmatch(r"(\d+)(?: - (\d+)| or over)\t(\d+)\t(\d+)\t(\d+|-)", line)
        if found:
            low, high, high_win, low_win, draw = found.groups()
            rows.append(
                (
                    int(low),
                    None if high is None else int(high),
                    int(high_win),
                    int(low_win),
                    0 if draw == "-" else int(draw),
                )
            )
    return rows


def test_the_seed_table_is_the_code_table_with_32_in_the_28_to_32_row():
    rows = seed_rows()
    assert len(rows) == 19
    # The seed prints "28 - 32" then "32 - 37": 32 would be in both. The rows go in fives
    # (0-2, 3-7, 8-12, ...), so 32 belongs to "28 - 32" and the next row starts at 33.
    assert rows[6][:2] == (28, 32)
    assert rows[7][:2] == (32, 37)
    read = [(low if n != 7 else 33, high, *points) for n, (low, high, *points) in enumerate(rows)]
    for (low, _high, *_points), (_, previous_high, *_) in zip(read[1:], read, strict=False):
        assert previous_high is not None
        assert low == previous_high + 1  # no gap, no overlap once 32 is settled
    code = [(limit, *points) for limit, *points in LADDER_ROWS]
    assert [(high, *points) for low, high, *points in read[:-1]] == code
    assert read[-1] == (88, None, *LADDER_LAST_ROW[1:])


# Each boundary of each row: the difference, and the high win, low win and draw moved.
BOUNDARIES = [
    (0, 10, 10, 0), (2, 10, 10, 0), (3, 9, 11, 1), (7, 9, 11, 1), (8, 8, 12, 2),
    (12, 8, 12, 2), (13, 7, 13, 3), (17, 7, 13, 3), (18, 6, 14, 4), (22, 6, 14, 4),
    (23, 5, 15, 5), (27, 5, 15, 5), (28, 4, 16, 6), (32, 4, 16, 6), (33, 3, 17, 7),
    (37, 3, 17, 7), (38, 2, 18, 8), (42, 2, 18, 8), (43, 1, 19, 9), (47, 1, 19, 9),
    (48, 1, 20, 10), (52, 1, 20, 10), (53, 1, 21, 11), (57, 1, 21, 11), (58, 1, 22, 12),
    (62, 1, 22, 12), (63, 1, 23, 13), (67, 1, 23, 13), (68, 1, 24, 14), (72, 1, 24, 14),
    (73, 1, 25, 15), (77, 1, 25, 15), (78, 1, 26, 16), (82, 1, 26, 16), (83, 1, 27, 17),
    (87, 1, 27, 17), (88, 1, 28, 18), (200, 1, 28, 18),
]  # fmt: skip


def test_the_boundaries_are_every_rows_ends():
    rows = seed_rows()
    ends = {low for low, *_ in rows} | {high for _, high, *_ in rows if high is not None}
    # 32 starts no row (see above): 33 does; and far beyond the last row's start.
    assert {d for d, *_ in BOUNDARIES} == ends | {33, 200}


@pytest.mark.parametrize(("difference", "high_win", "low_win", "draw"), BOUNDARIES)
def test_every_boundary(difference, high_win, low_win, draw):
    high, low = 40 + difference, 40
    assert ladder_change(high, low, 1) == high_win
    assert ladder_change(low, high, 0) == -high_win
    assert ladder_change(low, high, 1) == low_win
    assert ladder_change(high, low, 0) == -low_win
    if difference == 0:
        assert ladder_change(high, low, 0.5) == 0
    else:
        assert ladder_change(low, high, 0.5) == draw
        assert ladder_change(high, low, 0.5) == -draw


def test_the_seeds_worked_example_60_against_50():
    # "Say I have 60 points and you have 50 points ... falls on the row 8 - 12."
    me, you = 60, 50
    assert ladder_change(you, me, 1) == 12
    assert ladder_change(me, you, 0) == -12
    assert ladder_change(me, you, 1) == 8
    assert ladder_change(you, me, 0) == -8
    assert ladder_change(you, me, 0.5) == 2
    assert ladder_change(me, you, 0.5) == -2
    ladder = Ladder(STANDARD, date(2024, 9, 1), date(2024, 9, 30), initial_points=50)
    # Through a table: A (1) starts by beating B (2): A 60, B 40; then C (3), on 50, meets A.
    base = [ClubResult(1, date(2024, 9, 2), STANDARD, 1, 2, WHITE)]
    for result, a, c in ((BLACK, 48, 62), (WHITE, 68, 42), (DRAW, 58, 52)):
        game = ClubResult(2, date(2024, 9, 3), STANDARD, 1, 3, result)
        points = {s.player: s.points for s in ladder_table(ladder, [*base, game])}
        assert (points[1], points[3]) == (a, c)


def game(
    n: int,
    day: int,
    white: int,
    black: int,
    result: Result,
    rate: LadderRate = STANDARD,
    month: int = 9,
    year: int = 2024,
) -> ClubResult:
    return ClubResult(n, date(year, month, day), rate, white, black, result)


A, B, C, D = 1, 2, 3, 4
NAMES = {A: "Able, Ann", B: "Baker, Bob", C: "Cole, Cat", D: "Dunn, Dan"}
LADDER = Ladder(STANDARD, date(2024, 9, 1), date(2024, 12, 31), min_games=3)
GAMES = [
    game(1, 5, A, B, WHITE),  # 50 v 50, difference 0: A +10 -> A 60, B 40
    game(2, 5, C, D, DRAW),  # 50 v 50: a draw between equals moves nothing -> C 50, D 50
    game(3, 12, B, A, WHITE),  # B 40 v A 60, difference 20, low win 14 -> B 54, A 46
    game(4, 12, C, A, BLACK),  # C 50 v A 46, difference 4, low win 11 -> A 57, C 39
    game(5, 1, D, B, WHITE, month=10),  # D 50 v B 54, difference 4, low win 11 -> D 61, B 43
    game(6, 2, A, D, WHITE, rate=RAPID, month=10),  # rapid: not this ladder's
    game(7, 1, A, C, WHITE, month=1, year=2025),  # after the period
    game(8, 31, A, C, WHITE, month=8),  # before the period
]


def test_a_small_ladder_replayed_by_hand():
    table = ladder_table(LADDER, GAMES, NAMES)
    # A 57 (3 games, qualified), B 43 (3, qualified), D 61 (2: not qualified, so below the
    # qualified players however many points), C 39 (2).
    assert [(s.player, s.points, s.games, s.qualified, s.place) for s in table] == [
        (A, 57, 3, True, "1"),
        (B, 43, 3, True, "2"),
        (D, 61, 2, False, "3"),
        (C, 39, 2, False, "4"),
    ]
    a = table[0]
    assert (a.wins, a.draws, a.losses) == (2, 0, 1)
    history = [
        (h.game_id, h.opponent, h.colour, h.score, h.before, h.change, h.after) for h in a.history
    ]
    assert history == [
        (1, B, "white", 1, 50, 10, 60),
        (3, B, "black", 0, 60, -14, 46),
        (4, C, "black", 1, 46, 11, 57),
    ]  # fmt: skip
    assert [h.opponent_before for h in a.history] == [50, 40, 50]
    assert sum(s.points for s in table) == 4 * 50  # points only move between players


def test_games_of_one_day_go_in_the_order_entered_whatever_order_they_come_in():
    assert [g.id for g in counted_games(LADDER, reversed(GAMES))] == [1, 2, 3, 4, 5]
    assert ladder_table(LADDER, reversed(GAMES), NAMES) == ladder_table(LADDER, GAMES, NAMES)


def test_the_period_includes_both_ends_and_rate_all_counts_both_rates():
    first = game(1, 1, A, B, WHITE)
    last = game(2, 31, A, B, WHITE, month=12)
    assert [g.id for g in counted_games(LADDER, [first, last])] == [1, 2]
    season = Ladder(ALL, date(2024, 9, 1), date(2025, 6, 30))
    # A game counts for every ladder of its rate whose period contains it: game 5 for both.
    assert [g.id for g in counted_games(season, GAMES)] == [1, 2, 3, 4, 5, 6, 7]
    rapid = Ladder(RAPID, date(2024, 10, 1), date(2024, 10, 31))
    assert [g.id for g in counted_games(rapid, GAMES)] == [6]


def test_players_level_on_points_share_the_place_and_are_listed_by_name():
    ladder = Ladder(STANDARD, date(2024, 9, 1), date(2024, 9, 30), min_games=1)
    games = [game(1, 2, D, C, DRAW), game(2, 3, B, A, DRAW)]
    table = ladder_table(ladder, games, NAMES)
    assert [(s.player, s.place, s.rank) for s in table] == [
        (A, "1=", 1),
        (B, "1=", 1),
        (C, "1=", 1),
        (D, "1=", 1),
    ]
    games.append(game(3, 4, A, B, WHITE))  # A 60, B 40
    table = ladder_table(ladder, games, NAMES)
    assert [(s.player, s.place) for s in table] == [(A, "1"), (C, "2="), (D, "2="), (B, "4")]


def test_what_a_ladder_or_game_cannot_be():
    with pytest.raises(LadderError, match="before it starts"):
        Ladder(STANDARD, date(2024, 9, 2), date(2024, 9, 1))
    with pytest.raises(LadderError, match="not 'all'"):
        game(1, 1, A, B, WHITE, rate=ALL)
    with pytest.raises(LadderError, match="himself"):
        game(1, 1, A, A, WHITE)
    with pytest.raises(LadderError, match="result"):
        game(1, 1, A, B, Result.ONGOING)
    assert LadderRate.parse("rapid") is RAPID
    with pytest.raises(ValueError, match="blitz"):
        LadderRate.parse("blitz")
