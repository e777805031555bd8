"""Berger tables against seed 004's appendix 1, read from the seed's own text (a verbatim
extract in tests/data/seeds/), and the rules every round robin keeps."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.tournament.berger import BergerError, berger_rounds, double_round_robin
from tests.data_files import seed_extract

#: Seed 004 lines 563-669: the blank crosstables and Berger tables of appendix 1.
SEED_TABLES = "004-appendix-1-berger.txt"

#: Misprints in the seed's tables, by (players, round, board): what it prints, and what the
#: rule (and FIDE C.05 Annex 1) has there.
MISPRINTS = {
    (14, 8, 6): ((2, 6), (3, 6)),  # player 2 twice in round 8
    (14, 10, 6): ((5, 7), (4, 7)),  # player 5 twice in round 10
    (16, 10, 1): ((16, 3), (16, 13)),
    (16, 10, 2): ((14, 13), (14, 12)),
    (16, 10, 3): ((1, 12), (15, 11)),
    (16, 10, 4): ((2, 11), (1, 10)),
    (16, 10, 5): ((3, 10), (2, 9)),
    (16, 10, 6): ((4, 9), (3, 8)),
    (16, 10, 7): ((5, 8), (4, 7)),
    (16, 10, 8): ((6, 7), (5, 6)),  # round 10 is printed as a copy of round 12
}


def seed_tables() -> dict[int, list[list[tuple[int, int]]]]:
    """The single round robins in the seed's appendix 1, by number of players (the double
    round robin example comes after them)."""
    part = seed_extract(SEED_TABLES).replace("**", "")
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    rounds: list[list[tuple[int, int]]] = []
    for found in re.finditer(
        r"(?:^|\s|\.)(?:Round )?(\d+):?[ \t]+((?:\d+[v-]\d+(?:,? *\t*)?)+)", part, re.M
    ):
        number = int(found[1])
        pairs = [tuple(int(x) for x in p) for p in re.findall(r"(\d+)[v-](\d+)", found[2])]
        if number == 1 and rounds:
            tables[max(max(p) for p in rounds[0])] = rounds
            rounds = []
        if number == len(rounds) + 1:
            rounds.append(pairs)  # type: ignore[arg-type]
    if rounds:
        tables[max(max(p) for p in rounds[0])] = rounds
    return tables


def test_the_seeds_tables_are_all_read():
    # 3-4, 7-8, 9-10, 11-12, 13-14 and 15-16 players; for 5-6 the seed prints a blank
    # crosstable without its pairings (the property test below covers every size).
    assert sorted(seed_tables()) == [4, 8, 10, 12, 14, 16]


@pytest.mark.parametrize("players", [4, 8, 10, 12, 14, 16])
def test_equal_to_the_seeds_tables_but_for_its_misprints(players):
    printed = seed_tables()[players]
    ours = berger_rounds(players)
    assert len(printed) == len(ours) == players - 1
    for number, (theirs, mine) in enumerate(zip(printed, ours, strict=True), start=1):
        for board, (pair, our_pair) in enumerate(zip(theirs, mine, strict=True), start=1):
            misprint = MISPRINTS.get((players, number, board))
            if misprint is not None:
                assert (pair, our_pair) == misprint
            else:
                assert pair == our_pair, f"{players} players, round {number}, board {board}"


def test_odd_fields_meet_the_highest_number_for_a_bye():
    assert berger_rounds(3) == berger_rounds(4)
    byes = [next(p for p in boards if 4 in p) for boards in berger_rounds(3)]
    assert sorted(p for pair in byes for p in pair if p != 4) == [1, 2, 3]


def test_the_seeds_double_round_robin_example():
    printed = [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "4-8 5-3 6-2 7-1",
        "8-7 1-6 2-5 3-4",
        "8-1 7-2 6-3 5-4",
        "5-8 4-6 3-7 2-1",
        "8-2 1-3 7-4 6-5",
        "6-8 5-7 4-1 3-2",
        "8-3 2-4 1-5 7-6",
        "8-4 3-5 2-6 1-7",
        "7-8 6-1 5-2 4-3",
    ]
    expected = [[tuple(map(int, p.split("-"))) for p in line.split()] for line in printed]
    assert double_round_robin(8) == expected


@given(st.integers(min_value=2, max_value=40))
def test_everyone_meets_everyone_once_and_colours_balance(players):
    n = players + players % 2
    rounds = berger_rounds(players)
    met = [frozenset(pair) for boards in rounds for pair in boards]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    for boards in rounds:
        seen = [p for pair in boards for p in pair]
        assert sorted(seen) == list(range(1, n + 1))
    for player in range(1, n + 1):
        whites = sum(1 for boards in rounds for white, _ in boards if white == player)
        assert abs(whites - (n - 1 - whites)) <= 1


def test_a_round_robin_needs_two_players():
    with pytest.raises(BergerError):
        berger_rounds(1)
