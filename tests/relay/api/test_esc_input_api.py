"""The electronic scoresheet as an input device, through the API: the device token (a
keyer's bound to one game) on the draw, claim and result-agreement routes (its own game
allowed, another game 403, a keyer's token without a game 403, the public 401), and what
each route records."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.store.access import create_token, read_audit
from relay.store.event_log import read_events
from tests.pairings import paired_round
from tests.relay.api.helpers import hub_of, token

#: The start position comes back a third time with Black's 4... Ng8.
KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]

ROUTES: list[tuple[str, dict[str, Any]]] = [
    ("draw", {"player": "white", "action": "offer"}),
    ("claims", {"ply": 1, "rule": "threefold", "move": None}),
    ("result-agreement", {"result": "1-0", "signed": ["white", "black"]}),
]


@pytest.fixture
def games(client: TestClient) -> tuple[int, int]:
    """Two games of one published round: the tablet's, and the next board's."""
    with Session(hub_of(client).engine) as session:
        _, (mine, other) = paired_round(session, games=2)
    return mine, other


def device(client: TestClient, game_id: int, user: str = "Board 1 tablet") -> dict[str, str]:
    with Session(hub_of(client).engine) as session:
        value = create_token(session, user=user, role="keyer", game_id=game_id)
        session.commit()
    return {"Authorization": f"Bearer {value}"}


def post(client: TestClient, game_id: int, route: str, body: dict[str, Any], headers):
    return client.post(f"/api/games/{game_id}/{route}", json=body, headers=headers)


def enter(client: TestClient, game_id: int, sans: list[str], headers: dict[str, str]) -> None:
    for ply, san in enumerate(sans, start=1):
        answer = post(client, game_id, "entries", {"ply": ply, "move": san}, headers)
        assert answer.status_code == 200, answer.text


def kinds(client: TestClient, game_id: int) -> list[str]:
    with Session(hub_of(client).engine) as session:
        return [item.kind for item in read_events(session, game_id=game_id)]


@pytest.mark.parametrize(("route", "body"), ROUTES, ids=[route for route, _ in ROUTES])
def test_the_device_token_acts_for_its_own_game_only(client, games, route, body):
    mine, other = games
    tablet = device(client, mine)
    allowed = post(client, mine, route, body, tablet)
    assert allowed.status_code == 200, allowed.text
    refused = post(client, other, route, body, tablet)
    assert refused.status_code == 403
    assert refused.json()["detail"] == f"Board 1 tablet's token is bound to game {mine}"
    # The other game's own tablet may.
    assert post(client, other, route, body, device(client, other, "Board 2")).status_code == 200
    assert kinds(client, other) != []


@pytest.mark.parametrize(("route", "body"), ROUTES, ids=[route for route, _ in ROUTES])
def test_the_public_and_a_keyer_without_a_game_are_refused(client, games, route, body):
    mine, _ = games
    public = post(client, mine, route, body, {})
    assert public.status_code == 401
    desk = post(client, mine, route, body, token(client, "keyer", "Desk 1"))
    assert desk.status_code == 403
    assert desk.json()["detail"] == "Desk 1 is keyer; this needs operator"
    assert kinds(client, mine) == []
    # Staff from the operator up act for any game's players.
    assert post(client, mine, route, body, token(client, "operator")).status_code == 200


def test_a_correct_claim_with_the_move_proposes_the_draw(client, games):
    mine, _ = games
    tablet = device(client, mine)
    enter(client, mine, KNIGHTS, tablet)
    claim = {"ply": 8, "rule": "threefold", "move": "Ng8"}
    answer = post(client, mine, "claims", claim, tablet)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["player"], body["san"], body["correct"], body["repeated"]) == (
        "black",
        "Ng8",
        True,
        False,
    )
    assert (body["plies"], body["proposed_result"], body["result"]) == (7, "1/2-1/2", "*")
    assert kinds(client, mine)[-2:] == ["alert", "result-proposed"]
    again = post(client, mine, "claims", claim, tablet).json()
    assert (again["repeated"], again["v"], again["correct"]) == (True, None, True)
    game = client.get(f"/api/games/{mine}").json()
    assert (game["proposed_result"], game["alerts"][-1]) == ("1/2-1/2", "draw-claim")
    with Session(hub_of(client).engine) as session:
        claimed = [entry for entry in read_audit(session) if entry.action == "claim-draw"]
    assert [entry.user for entry in claimed] == ["Board 1 tablet"]


def test_a_wrong_claim_plays_the_move_and_an_illegal_move_is_refused_with_fitting(client, games):
    mine, _ = games
    tablet = device(client, mine)
    enter(client, mine, KNIGHTS[:3], tablet)
    illegal = post(client, mine, "claims", {"ply": 4, "rule": "threefold", "move": "Ng6"}, tablet)
    assert illegal.status_code == 422
    assert illegal.json()["fitting"][0] == {"san": "Nh5", "words": "the knight from f6 to h5"}
    wrong = post(client, mine, "claims", {"ply": 4, "rule": "threefold", "move": "Nc6"}, tablet)
    body = wrong.json()
    assert (body["correct"], body["plies"], body["proposed_result"]) == (False, 4, None)
    assert "the move stands and the arbiter gives White time (9.5.3)" in body["words"]
    assert kinds(client, mine)[-2:] == ["alert", "move"]
    late = post(client, mine, "claims", {"ply": 2, "rule": "threefold", "move": None}, tablet)
    assert late.status_code == 409
    assert "a claim goes with the next move, ply 5" in late.json()["detail"]


def test_the_result_agreed_by_both_players_is_proposed_once(client, games):
    mine, _ = games
    tablet = device(client, mine)
    enter(client, mine, ["e4", "e5"], tablet)
    one = {"result": "0-1", "signed": ["white"]}
    lonely = post(client, mine, "result-agreement", one, tablet)
    assert lonely.status_code == 409
    assert "White first, then Black" in lonely.json()["detail"]
    both = {"result": "0-1", "signed": ["white", "black"]}
    agreed = post(client, mine, "result-agreement", both, tablet).json()
    assert (agreed["proposed_result"], agreed["result"]) == ("0-1", "*")
    assert agreed["v"] is not None
    again = post(client, mine, "result-agreement", both, tablet).json()
    assert again["v"] is None
    assert kinds(client, mine) == ["move", "move", "result-proposed"]
