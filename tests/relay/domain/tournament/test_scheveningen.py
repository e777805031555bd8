"""Scheveningen tables against seed 004's appendix 2, read from the seed's own text (a
verbatim extract in tests/data/seeds/), and the rules every Scheveningen match keeps."""

from __future__ import annotations

import re
from itertools import groupby

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.tournament.scheveningen import (
    Game,
    ScheveningenError,
    Seat,
    Team,
    blocks,
    scheveningen_rounds,
)
from tests.data_files import seed_extract

#: Seed 004 lines 698-872: appendix 2, up to the page footer before appendix 3.
SEED_TABLES = "004-appendix-2-scheveningen.txt"

Table = list[list[str]]  # rounds of games, board by board, as "A1-B1"
GRID_GAME = re.compile(r"([AB]\d+)\t([AB]\d+)")


def seed_tables() -> dict[int, Table]:
    """Appendix 2's tables by number of boards. Four to nine boards are printed as grids
    (a row per board, a column per round); the ten-board table comes a round at a time
    ("Rnd 1", then "A1 B1" per board), and the page cuts rounds 6-10 after board 3: their
    other boards follow after round 10, round by round."""
    part = seed_extract(SEED_TABLES)
    tables: dict[int, Table] = {}
    grids, ten = part.split("devised by Geurt Gijssen")
    for found in re.finditer(r"Match on \w+ Boards\n\n(Rd\..*\n)((?:[AB]\d.*\n)+)", grids):
        rows = [re.findall(r"[AB]\d+-[AB]\d+", line) for line in found[2].splitlines()]
        tables[len(rows)] = [list(column) for column in zip(*rows, strict=True)]
    rounds: Table = []
    for paragraph in ten.split("\n\n"):
        lines = paragraph.strip().splitlines()
        games = [f"{m[1]}-{m[2]}" for m in map(GRID_GAME.fullmatch, lines) if m is not None]
        if lines and (header := re.fullmatch(r"Rnd\t(\d+)", lines[0])):
            assert int(header[1]) == len(rounds) + 1
            rounds.append(games)
        elif games:
            next(r for r in rounds if len(r) < len(rounds)).extend(games)
    tables[len(rounds)] = rounds
    return tables


def ours(boards: int) -> Table:
    return [[str(game) for game in games] for games in scheveningen_rounds(boards)]


def test_the_seeds_tables_are_all_read():
    tables = seed_tables()
    assert sorted(tables) == [4, 6, 8, 9, 10]
    for boards, rounds in tables.items():
        assert len(rounds) == boards
        assert all(len(games) == boards for games in rounds)


@pytest.mark.parametrize("boards", [4, 6, 8, 9, 10])
def test_equal_to_the_seeds_tables(boards):
    assert ours(boards) == seed_tables()[boards]


def test_the_six_board_table_as_printed_keeps_the_rules():
    """It follows no rule (see the module), so it is kept as printed: check it is sound."""
    assert_scheveningen(6, scheveningen_rounds(6))


def parse(game: str) -> Game:
    white, black = game.split("-")
    return Game(Seat(Team(white[0]), int(white[1:])), Seat(Team(black[0]), int(black[1:])))


def assert_scheveningen(boards: int, rounds: list[list[Game]]) -> None:
    """Ai on board i (Bi if B has every White); each round everyone plays once; A meets each
    B once; colours level (one apart at most with an odd number of boards)."""
    assert len(rounds) == boards
    everyone = {Seat(team, number) for team in Team for number in range(1, boards + 1)}
    met = set()
    colours: dict[Seat, str] = {}
    for games in rounds:
        b_has_every_white = all(game.white.team is Team.B for game in games)
        for board, game in enumerate(games, start=1):
            a, b = (
                (game.white, game.black) if game.white.team is Team.A else (game.black, game.white)
            )
            assert a.team is Team.A
            assert b.team is Team.B
            assert (b if b_has_every_white else a).number == board
            met.add((a.number, b.number))
            colours[game.white] = colours.get(game.white, "") + "W"
            colours[game.black] = colours.get(game.black, "") + "B"
        assert {seat for game in games for seat in (game.white, game.black)} == everyone
    assert len(met) == boards * boards
    assert len(colours) == 2 * boards
    for history in colours.values():
        assert abs(history.count("W") - history.count("B")) <= boards % 2


@given(st.integers(min_value=1, max_value=40))
def test_every_match_keeps_the_rules(boards):
    assert_scheveningen(boards, scheveningen_rounds(boards))


@given(st.integers(min_value=1, max_value=40))
def test_nobody_has_one_colour_three_times_running(boards):
    histories: dict[Seat, str] = {}
    for games in scheveningen_rounds(boards):
        for game in games:
            histories[game.white] = histories.get(game.white, "") + "W"
            histories[game.black] = histories.get(game.black, "") + "B"
    for history in histories.values():
        assert max(len(list(run)) for _, run in groupby(history)) <= 2


def test_the_blocks():
    assert blocks(4) == (2, 2)
    assert blocks(8) == (2, 4)
    assert blocks(9) == (1, 9)
    assert blocks(10) == (5, 2)
    assert blocks(6) == (3, 2)
    assert blocks(12) == (2, 6)


def test_a_match_needs_a_board():
    with pytest.raises(ScheveningenError):
        scheveningen_rounds(0)
