"""BH-C1, BH and ARO on the FIDE Women's World Rapid Championship 2024 (New York, 11 rounds).

The file (tests/data/fide-womens-world-rapid-2024-results.pgn) has 605 games without
moves: Round "r.b", White, Black, Result, WhiteElo, BlackElo. Every round has 55 games, and
all 110 players appear in every round, so nobody had a bye or an absence: the C.07 article
16 rules for unplayed rounds do not arise (the test checks that), and the 2024 and 2026
editions of C.07 must give the same values (every test runs under both). A forfeit cannot be told
apart from a played game here (no game has moves), so every game counts as played.

How the expected values are derived, apart from the module: the tag text is read with one
regular expression (not python-chess, which feeds the module), a crosstable is built in
plain dictionaries, and BH (the sum of the 11 opponents' final scores), BH-C1 (that sum less
the smallest) and ARO (the opponents' Elo summed and divided, rounded half up with
``decimal``) are computed by explicit loops. Facts from the official results: Koneru Humpy
won with 8.5/11, alone in first place.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

import chess.pgn
import pytest

from relay.domain.tournament.tie_breaks import Edition, Played, Standing, standings
from tests.data_files import DATA

PGN = DATA / "fide-womens-world-rapid-2024-results.pgn"
TAG = re.compile(r'^\[(\w+) "([^"]*)"\]$', re.MULTILINE)
WHITE_SCORE = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}


Crosstable = tuple[dict[str, float], dict[str, int], dict[str, list[tuple[int, str]]]]


def expected_crosstable() -> Crosstable:
    text = PGN.read_text(encoding="utf-8")
    blocks = [dict(TAG.findall(block)) for block in text.split("[Event ")[1:]]
    assert len(blocks) == 605
    rows = [
        (
            b["Round"].split(".")[0],
            b["White"],
            b["Black"],
            b["Result"],
            b["WhiteElo"],
            b["BlackElo"],
        )
        for b in blocks
    ]
    score: dict[str, float] = defaultdict(float)
    elo: dict[str, int] = {}
    met: dict[str, list[tuple[int, str]]] = defaultdict(list)  # player -> [(round, opponent)]
    for round_, white, black, result, white_elo, black_elo in rows:
        score[white] += WHITE_SCORE[result]
        score[black] += 1 - WHITE_SCORE[result]
        elo[white], elo[black] = int(white_elo), int(black_elo)
        met[white].append((int(round_), black))
        met[black].append((int(round_), white))
    return score, elo, met


def our_standings(edition: Edition) -> list[Standing[str]]:
    players: list[str] = []
    games: list[Played[str]] = []
    ratings: dict[str, int | None] = {}
    with PGN.open(encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            white, black = headers["White"], headers["Black"]
            for name, tag in ((white, "WhiteElo"), (black, "BlackElo")):
                if name not in ratings:
                    players.append(name)
                    ratings[name] = int(headers[tag])
            round_ = int(headers["Round"].split(".")[0])
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[headers["Result"]]
            games.append(Played(white, black, result, round_))
    return standings(players, games, ratings, ("BH-C1", "BH", "ARO"), rounds=11, edition=edition)


@pytest.fixture(scope="module", params=list(Edition), ids=lambda e: e.value)
def both(request):
    return expected_crosstable(), {row.player: row for row in our_standings(request.param)}


def test_everyone_played_every_round(both):
    (_, _, met), _ = both
    assert len(met) == 110
    for rounds in met.values():
        assert sorted(r for r, _ in rounds) == list(range(1, 12))


def test_the_official_winner(both):
    (score, _, _), ours = both
    ranked = sorted(score, key=lambda p: -score[p])
    assert ranked[0] == "Koneru, Humpy"
    assert score["Koneru, Humpy"] == 8.5
    assert score[ranked[1]] == 8.0  # she finished half a point clear
    assert ours["Koneru, Humpy"].points == 8.5
    assert next(iter(ours)) == "Koneru, Humpy"


def test_buchholz_and_cut_one(both):
    (score, _, met), ours = both
    for player, rounds in met.items():
        total, lowest = 0.0, float("inf")
        for _, opponent in rounds:
            total += score[opponent]
            lowest = min(lowest, score[opponent])
        assert ours[player].tie_breaks["BH"] == total, player
        assert ours[player].tie_breaks["BH-C1"] == total - lowest, player


def test_average_rating_of_opponents(both):
    (_, elo, met), ours = both
    for player, rounds in met.items():
        total = Decimal(0)
        for _, opponent in rounds:
            total += elo[opponent]
        aro = (total / len(rounds)).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        assert ours[player].tie_breaks["ARO"] == int(aro), player


def test_the_standings_order_follows_points_then_bh_c1_then_bh(both):
    _, ours = both
    keys = [(-r.points, -r.tie_breaks["BH-C1"], -r.tie_breaks["BH"]) for r in ours.values()]
    assert keys == sorted(keys)
