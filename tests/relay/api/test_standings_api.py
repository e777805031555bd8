"""Standings over HTTP for a round robin whose player withdraws (seed 004 ch. 12): under
half the games played, the player and every result against him go; otherwise his remaining
games are lost by default."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from relay.domain.tournament.berger import berger_rounds
from tests.relay.api.test_pairings_api import event_file, finish, load

CLOSED = '[tournament]\nname = "Closed"\nrounds = 5\npairing_system = "round-robin"\n'


def play_rounds(client: TestClient, tournament_id: int, arbiter: dict[str, str], rounds: int):
    """Pair and finish ``rounds`` rounds: White wins every game."""
    for _ in range(rounds):
        paired = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
        assert paired.status_code == 200, paired.text
        finish(client, paired.json()["round_id"], arbiter, ["1-0"] * 3)


def expected_points(rounds: int, withdrawn: int, deleted: bool) -> dict[int, float]:
    """White wins every game of the first ``rounds`` Berger rounds; then the withdrawal."""
    points = dict.fromkeys(range(1, 7), 0.0)
    for games in berger_rounds(6)[:rounds]:
        for white, black in games:
            if deleted and withdrawn in (white, black):
                continue
            points[white] += 1
    if deleted:
        del points[withdrawn]
        return points
    for games in berger_rounds(6)[rounds:]:
        for white, black in games:
            if withdrawn in (white, black):
                points[black if white == withdrawn else white] += 1  # won by default
    return points


@pytest.mark.parametrize(("played", "deleted"), [(2, True), (3, False)])
def test_a_round_robin_withdrawal_follows_seed_004(client, played, deleted):
    tournament_id, arbiter = load(client, event_file(CLOSED, 6))
    play_rounds(client, tournament_id, arbiter, played)
    withdrawal = client.put(
        f"/api/tournaments/{tournament_id}/players/6/withdrawal",
        json={"after_round": played},
        headers=arbiter,
    )
    assert withdrawal.is_success
    rows: list[dict[str, Any]] = client.get(
        f"/api/tournaments/{tournament_id}/standings", headers=arbiter
    ).json()
    points = {row["start_number"]: row["points"] for row in rows}
    assert points == expected_points(played, 6, deleted)
    if not deleted:
        six = next(row for row in rows if row["start_number"] == 6)
        assert six["played"] == played


def test_rated_players_see_their_estimated_rating_change(client):
    header = '[tournament]\nname = "Quad"\nrounds = 3\npairing_system = "round-robin"\n'
    tournament_id, arbiter = load(client, event_file(header, 4))  # rated 2375 .. 2300
    paired = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
    assert [(g["white"], g["black"]) for g in paired.json()["games"]] == [(1, 4), (2, 3)]
    finish(client, paired.json()["round_id"], arbiter, ["1-0", "1-0"])
    standings = f"/api/tournaments/{tournament_id}/standings"
    unpublished = client.get(standings).json()
    assert {row["rating_change"] for row in unpublished} == {None}  # the public sees nothing yet
    rows = client.get(standings, headers=arbiter).json()
    change = {row["start_number"]: row["rating_change"] for row in rows}
    # FIDE table 8.1.2: 75 points apart expect .60/.40, 25 apart .53/.47; K 20 below 2400.
    assert change == {1: 8.0, 4: -8.0, 2: 9.4, 3: -9.4}
