"""The names routes: an arbiter reads a tournament's clashes and merges two players; keyers
and operators may not (403), bodies that are not a merge are 422, refusals 409 in words;
publishing a round warns of the clashes left and is never refused for them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.relay.api.helpers import token

EVENT = """[tournament]
name = "Names Open"

[[player]]
number = 1
name = "Kramnik, Vladimir"
rating = 2753

[[player]]
number = 2
name = "Carlsen, Magnus"
fide_id = 1503014

[[player]]
number = 3
name = "Kramnik, V"
federation = "RUS"

[[player]]
number = 4
name = "Kramnik, Alexander"

[[round]]
number = 1
published = false
pairings = [[3, 2], [4, 1]]
"""


@pytest.fixture
def tournament(client: TestClient) -> int:
    loaded = client.post("/api/event", content=EVENT, headers=token(client, "admin", "boss"))
    assert loaded.status_code == 200, loaded.text
    (found,) = client.get("/api/tournaments").json()
    tournament_id: int = found["id"]
    return tournament_id


def listed(client: TestClient, tournament_id: int) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = client.get(f"/api/tournaments/{tournament_id}/players").json()
    return answer


def players(client: TestClient, tournament_id: int) -> dict[str, int]:
    return {p["name"]: p["id"] for p in listed(client, tournament_id)}


def test_the_arbiter_sees_the_clash_with_its_reasons(client, tournament):
    arbiter = token(client, "arbiter")
    answer = client.get(f"/api/tournaments/{tournament}/name-clashes", headers=arbiter)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    ids = players(client, tournament)
    (clash,) = body["clashes"]
    assert [p["name"] for p in clash["players"]] == ["Kramnik, Vladimir", "Kramnik, V"]
    assert clash["reasons"] == ["initial V matches Vladimir"]
    assert clash["name"] == "Kramnik, Vladimir"
    # Both play in round 1: two people, flagged for a look, never merged.
    assert clash["refused"].startswith("both play in one round")
    assert body["warning"] is None
    assert {clash["keep"], clash["drop"]} == {ids["Kramnik, Vladimir"], ids["Kramnik, V"]}


def test_merging_makes_one_player_and_publishing_warns_until_then(client, tournament):
    arbiter = token(client, "arbiter")
    round_id = client.get("/api/rounds", headers=arbiter).json()[0]["id"]
    # Board 2 taken away: Kramnik, Vladimir no longer plays round 1.
    client.put(
        f"/api/rounds/{round_id}/pairings",
        json={"games": [[3, 2]], "byes": [{"player": 4, "kind": "half"}]},
        headers=arbiter,
    ).raise_for_status()
    published = client.post(
        f"/api/rounds/{round_id}/publish", json={"published": True}, headers=arbiter
    )
    assert published.status_code == 200
    assert published.json()["published"] is True
    assert published.json()["warnings"] == [
        "2 players may be the same person: Kramnik, Vladimir and Kramnik, V"
    ]
    clashes = client.get(f"/api/tournaments/{tournament}/name-clashes", headers=arbiter).json()
    (clash,) = clashes["clashes"]
    assert clash["refused"] is None
    merged = client.post(
        f"/api/tournaments/{tournament}/players/merge",
        json={"keep": clash["keep"], "drop": clash["drop"], "reason": "typed twice"},
        headers=arbiter,
    )
    assert merged.status_code == 200, merged.text
    assert merged.json()["player"]["name"] == "Kramnik, Vladimir"
    assert (merged.json()["games"], merged.json()["byes"]) == (0, 0)  # the row that goes had none
    # The row that plays stays (start number 3, now 2: number 1 went).
    assert [(p["start_number"], p["name"], p["rating"]) for p in listed(client, tournament)] == [
        (1, "Carlsen, Magnus", None),
        (2, "Kramnik, Vladimir", 2753),
        (3, "Kramnik, Alexander", None),
    ]
    pairings = client.get(f"/api/rounds/{round_id}/games", headers=arbiter).json()
    assert pairings[0]["white"]["name"] == "Kramnik, Vladimir"
    again = client.post(
        f"/api/rounds/{round_id}/publish", json={"published": True}, headers=arbiter
    )
    assert again.json()["warnings"] == []
    audit = client.get("/api/audit", headers=arbiter).json()
    assert [(e["action"], e["reason"]) for e in audit[:3]] == [
        ("publish", ""),
        ("merge-players", "typed twice"),
        ("publish", ""),
    ]


def test_a_merge_refused_says_why(client, tournament):
    arbiter = token(client, "arbiter")
    ids = players(client, tournament)
    both_play = client.post(
        f"/api/tournaments/{tournament}/players/merge",
        json={"keep": ids["Kramnik, Vladimir"], "drop": ids["Kramnik, V"]},
        headers=arbiter,
    )
    assert both_play.status_code == 409
    assert "they are two people" in both_play.json()["detail"]
    missing = client.post(
        f"/api/tournaments/{tournament}/players/merge",
        json={"keep": ids["Kramnik, Vladimir"], "drop": 999},
        headers=arbiter,
    )
    assert missing.status_code == 404
    elsewhere = client.get(f"/api/tournaments/{tournament + 1}/name-clashes", headers=arbiter)
    assert elsewhere.status_code == 404
    empty_name = client.post(
        f"/api/tournaments/{tournament}/players/merge",
        json={"keep": ids["Kramnik, Vladimir"], "drop": ids["Kramnik, Alexander"], "name": ","},
        headers=arbiter,
    )
    assert empty_name.status_code == 422
    assert len(players(client, tournament)) == 4


@pytest.mark.parametrize("role", ["keyer", "operator"])
def test_keyers_and_operators_may_not(client, tournament, role):
    ids = players(client, tournament)
    headers = token(client, role, f"a {role}")
    read = client.get(f"/api/tournaments/{tournament}/name-clashes", headers=headers)
    assert read.status_code == 403
    merge = client.post(
        f"/api/tournaments/{tournament}/players/merge",
        json={"keep": ids["Kramnik, Vladimir"], "drop": ids["Kramnik, Alexander"]},
        headers=headers,
    )
    assert merge.status_code == 403
    assert client.get(f"/api/tournaments/{tournament}/name-clashes").status_code == 401
    assert len(players(client, tournament)) == 4


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"keep": 1},
        {"keep": 0, "drop": 2},
        {"keep": 1, "drop": 2**31},
        {"keep": "one", "drop": 2},
        {"keep": 1, "drop": 2, "name": ""},
        {"keep": 1, "drop": 2, "name": "x" * 201},
        {"keep": 1, "drop": 2, "name": 7},
        {"keep": 1, "drop": 2, "name": "Kramnik\u0000, V"},
        {"keep": 1, "drop": 2, "reason": "line\nbreak"},
        {"keep": 1, "drop": 2, "merge": True},
        {"keep": 1, "drop": 2, "rewrite_published": "maybe"},
        [1, 2],
    ],
)
def test_bodies_that_are_not_a_merge_are_422(client, tournament, body):
    answer = client.post(
        f"/api/tournaments/{tournament}/players/merge", json=body, headers=token(client, "arbiter")
    )
    assert answer.status_code == 422, answer.text
    assert len(players(client, tournament)) == 4


@pytest.mark.parametrize("tournament_id", ["0", "2147483648", "abc"])
def test_ids_out_of_bounds_are_422(client, tournament_id):
    arbiter = token(client, "arbiter")
    assert (
        client.get(f"/api/tournaments/{tournament_id}/name-clashes", headers=arbiter).status_code
        == 422
    )
