"""Team standings over HTTP (seed 004 ch. 13): a match is every game of a round between two
teams; match points 2-1-0 on game points, game points as the next key; a match counts once
all its games have results."""

from __future__ import annotations

from fastapi.testclient import TestClient

from relay.domain.tournament.scheveningen import scheveningen_rounds
from tests.relay.api.test_pairings_api import finish, load

TEAMS = ("Hradec", "Liberec", "Opava")


def event_file() -> str:
    """Three teams of two; round 1: Hradec-Liberec on boards 1-2, Opava rests."""
    lines = ['[tournament]\nname = "League"\nrounds = 3\n']
    number = 0
    for team in TEAMS:
        for board in (1, 2):
            number += 1
            lines += ["[[player]]", f"number = {number}", f'name = "{team}, Board{board}"']
            lines += [f'team = "{team}"', f"rating = {2300 - 10 * number}", ""]
    lines += ["[[round]]", "number = 1", "pairings = [[1, 3], [4, 2]]", ""]
    lines += ["[[round]]", "number = 2", "pairings = [[5, 1], [2, 6]]", ""]
    return "\n".join(lines)


def rounds(client: TestClient, arbiter: dict[str, str]) -> list[int]:
    return [r["id"] for r in client.get("/api/rounds", headers=arbiter).json()]


def test_matches_give_match_points_then_game_points(client):
    tournament_id, arbiter = load(client, event_file())
    one, two = rounds(client, arbiter)
    # Round 1: Hradec 1½-½ Liberec (board 1: 1-0 for Hradec's White; board 2: a draw).
    finish(client, one, arbiter, ["1-0", "1/2-1/2"])
    standings = f"/api/tournaments/{tournament_id}/team-standings"
    rows = client.get(standings).json()
    assert [(r["team"], r["match_points"], r["game_points"]) for r in rows] == [
        ("Hradec", 2.0, 1.5),
        ("Liberec", 0.0, 0.5),
        ("Opava", 0.0, 0.0),
    ]
    assert rows[0]["matches"] == [{"home": "Hradec", "away": "Liberec", "boards": [1.0, 0.5]}]
    # Round 2, half played: Opava-Hradec counts for nobody yet.
    games = client.get(f"/api/rounds/{two}/games", headers=arbiter).json()
    body = {"result": "1-0", "reason": "scoresheet"}
    client.post(f"/api/games/{games[0]['id']}/result", json=body, headers=arbiter)
    pending = client.get(standings, headers=arbiter).json()
    assert [r["match_points"] for r in pending] == [2.0, 0.0, 0.0]
    client.post(f"/api/games/{games[1]['id']}/result", json=body, headers=arbiter)
    # Opava 1-1 Hradec: board 1 won by Opava's White, board 2 by Hradec's White.
    done = {r["team"]: r for r in client.get(standings, headers=arbiter).json()}
    assert (done["Hradec"]["match_points"], done["Hradec"]["game_points"]) == (3.0, 2.5)
    assert (done["Opava"]["match_points"], done["Opava"]["game_points"]) == (1.0, 1.0)
    # The public sees verified results only: round 2 is not verified.
    public = {r["team"]: r["match_points"] for r in client.get(standings).json()}
    assert public == {"Hradec": 2.0, "Liberec": 0.0, "Opava": 0.0}
    by_games = client.get(standings + "?primary=GP", headers=arbiter).json()
    assert [r["team"] for r in by_games] == ["Hradec", "Opava", "Liberec"]


def test_a_scheveningen_match_is_paired_by_the_seeds_table(client):
    header = '[tournament]\nname = "Match"\npairing_system = "scheveningen"\n'
    lines = [header]
    for number in range(1, 9):  # Hradec: 1, 3, 5, 7 (A1-A4); Liberec: 2, 4, 6, 8 (B1-B4)
        team = "Hradec" if number % 2 else "Liberec"
        lines += ["[[player]]", f"number = {number}", f'name = "{team}, Board{number}"']
        lines += [f'team = "{team}"', ""]
    tournament_id, arbiter = load(client, "\n".join(lines))
    seat = {f"A{n}": 2 * n - 1 for n in range(1, 5)} | {f"B{n}": 2 * n for n in range(1, 5)}
    met = set()
    for table_round in scheveningen_rounds(4):
        paired = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
        assert paired.status_code == 200, paired.text
        view = paired.json()
        expected = [(seat[str(g.white)], seat[str(g.black)]) for g in table_round]
        assert [(g["white"], g["black"]) for g in view["games"]] == expected
        met |= {frozenset(pair) for pair in expected}
        finish(client, view["round_id"], arbiter, ["1/2-1/2"] * 4)
    assert len(met) == 16  # each of Hradec's players met each of Liberec's
    over = client.post(f"/api/tournaments/{tournament_id}/rounds/next", headers=arbiter)
    assert over.status_code == 409
    assert "has 4 rounds" in over.json()["detail"]
    rows = client.get(f"/api/tournaments/{tournament_id}/team-standings", headers=arbiter).json()
    assert [(r["match_points"], r["game_points"]) for r in rows] == [(4.0, 8.0), (4.0, 8.0)]
