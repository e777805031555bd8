"""Standings over HTTP for a round robin whose player withdraws (seed 004 ch. 12): under
half the games played, the player and every result against him go; otherwise his remaining
games are lost by default."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from relay.domain.formats.trf import parse_trf
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


def test_places_are_shared_and_rating_tie_breaks_leave_with_unrated_players(client):
    """A quad whose player 4 is unrated: C.07 article 10 drops ARO from the order (the
    rules say so), no ARO is shown beside it, and the places the API gives are shared by
    players equal on points and every tie-break left."""
    header = (
        '[tournament]\nname = "Quad"\nrounds = 3\npairing_system = "round-robin"\n'
        'tie_breaks = ["ARO", "WIN"]\n'
    )
    text = event_file(header, 4).replace("rating = 2300\n", "")
    tournament_id, arbiter = load(client, text)
    rules = client.get(f"/api/tournaments/{tournament_id}/rules").json()
    assert (rules["tie_breaks"], rules["tie_breaks_left_out"]) == (["ARO", "WIN"], ["ARO"])
    paired = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
    finish(client, paired.json()["round_id"], arbiter, ["1-0", "1/2-1/2"])
    rows = client.get(f"/api/tournaments/{tournament_id}/standings", headers=arbiter).json()
    assert all("ARO" not in row["tie_breaks"] for row in rows)
    # 1 beat 4; 2 and 3 drew: 2 and 3 are equal on points and WIN.
    assert [(row["start_number"], row["rank"], row["place"]) for row in rows] == [
        (1, 1, "1"),
        (2, 2, "2="),
        (3, 2, "2="),
        (4, 4, "4"),
    ]


def test_the_tournament_report_ranks_as_the_standings_do(client):
    header = '[tournament]\nname = "Quad"\nrounds = 3\npairing_system = "round-robin"\n'
    tournament_id, arbiter = load(client, event_file(header, 4))
    paired = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
    finish(client, paired.json()["round_id"], arbiter, ["0-1", "1/2-1/2"])
    rows = client.get(f"/api/tournaments/{tournament_id}/standings", headers=arbiter).json()
    report = client.get(f"/api/tournaments/{tournament_id}/report.trf", headers=arbiter)
    ranks = {p.start_number: p.rank for p in parse_trf(report.text).players}
    assert ranks == {row["start_number"]: row["rank"] for row in rows}
    # 4 beat 1 (with Black); 2 and 3 drew: equal on every tie-break but BPG, which 3 has.
    assert ranks == {4: 1, 3: 2, 2: 3, 1: 4}
