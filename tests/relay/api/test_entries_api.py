"""Moves entered by hand through the API: the keyer role, a device's queue sent twice, the
conflicts in words, the fitting moves of an illegal entry, and a game an e-board follows."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session

from drivers.fake import ScriptedBoard
from relay.store.access import create_token, read_audit
from relay.store.event_log import read_events
from tests.pairings import paired_round
from tests.relay.api.helpers import hub_of, setup_round, token


def enter(client: TestClient, game_id: int, ply: int, move: str, headers: dict[str, str]):
    return client.post(
        f"/api/games/{game_id}/entries", json={"ply": ply, "move": move}, headers=headers
    )


def stored_kinds(client: TestClient, game_id: int) -> list[str]:
    with Session(hub_of(client).engine) as session:
        return [item.kind for item in read_events(session, game_id=game_id)]


def test_a_keyer_enters_a_game_to_its_mate(client):
    _, game_id = setup_round(client)
    keyer = token(client, "keyer", "Desk 1")
    for ply, move in enumerate(["f3", "e7-e5", "g2g4"], start=1):
        answer = enter(client, game_id, ply, move, keyer)
        assert answer.status_code == 200, answer.text
        assert (answer.json()["ply"], answer.json()["repeated"]) == (ply, False)
    mate = enter(client, game_id, 4, "Qh4", keyer).json()
    assert (mate["san"], mate["plies"], mate["result"]) == ("Qh4#", 4, "0-1")
    assert stored_kinds(client, game_id) == ["move"] * 4 + ["end"]
    game = client.get(f"/api/games/{game_id}").json()
    assert (game["ply"], game["result"], game["termination"]) == (4, "0-1", "checkmate")


def test_a_queue_sent_again_is_acknowledged_not_played_twice(client):
    _, game_id = setup_round(client)
    keyer = token(client, "keyer")
    queue = [(1, "e4"), (2, "e5"), (3, "Nf3")]
    first = [enter(client, game_id, ply, move, keyer).json() for ply, move in queue]
    again = [enter(client, game_id, ply, move, keyer).json() for ply, move in queue]
    assert [answer["repeated"] for answer in first] == [False] * 3
    assert [answer["repeated"] for answer in again] == [True] * 3
    assert [answer["v"] for answer in again] == [None] * 3
    assert stored_kinds(client, game_id) == ["move"] * 3
    with Session(hub_of(client).engine) as session:
        entered = [entry for entry in read_audit(session) if entry.action == "enter-move"]
    assert len(entered) == 3  # the repeats left no trace


def test_conflicts_are_refused_in_words(client):
    _, game_id = setup_round(client)
    keyer = token(client, "keyer")
    for ply, move in enumerate(["e4", "e5", "Nf3"], start=1):
        enter(client, game_id, ply, move, keyer)
    other = enter(client, game_id, 3, "Nc3", keyer)
    assert other.status_code == 409
    assert other.json()["detail"] == "ply 3 already holds Nf3; this entry says Nc3"
    ahead = enter(client, game_id, 6, "Nc6", keyer)
    assert ahead.status_code == 409
    assert "the next entry is for ply 4" in ahead.json()["detail"]
    assert stored_kinds(client, game_id) == ["move"] * 3


def test_an_illegal_entry_comes_back_with_the_moves_that_fit(client):
    _, game_id = setup_round(client)
    keyer = token(client, "keyer")
    for ply, move in enumerate(["e4", "d5"], start=1):
        enter(client, game_id, ply, move, keyer)
    answer = enter(client, game_id, 3, "Nxd5", keyer)
    assert answer.status_code == 422
    body = answer.json()
    assert "'Nxd5' is not a legal move here" in body["detail"]
    assert body["fitting"][0] == {"san": "exd5", "words": "the pawn from e4 takes on d5"}
    assert stored_kinds(client, game_id) == ["move"] * 2


def test_who_may_enter_moves(client):
    _, game_id = setup_round(client)
    assert enter(client, game_id, 1, "e4", {}).status_code == 401
    assert enter(client, game_id, 1, "e4", token(client, "operator")).status_code == 200
    assert enter(client, game_id, 2, "e5", token(client, "keyer")).status_code == 200
    # A keyer may not do what an operator may: the scoresheet's draw offers stay operator's.
    draw = client.post(
        f"/api/games/{game_id}/draw",
        json={"player": "white", "action": "offer"},
        headers=token(client, "keyer"),
    )
    assert draw.status_code == 403


def test_a_game_an_eboard_follows_takes_its_moves_from_the_board(client):
    _, game_id = setup_round(client)
    hub = hub_of(client)

    async def follow() -> None:
        await hub.attach_link(game_id=game_id, link=ScriptedBoard())

    assert client.portal is not None
    client.portal.call(follow)
    answer = enter(client, game_id, 1, "e4", token(client, "keyer"))
    assert answer.status_code == 409
    assert "followed by its electronic board" in answer.json()["detail"]


def device_token(client: TestClient, game_id: int, user: str = "Board 1 tablet") -> dict[str, str]:
    with Session(hub_of(client).engine) as session:
        value = create_token(session, user=user, role="keyer", game_id=game_id)
        session.commit()
    return {"Authorization": f"Bearer {value}"}


def test_a_device_token_enters_its_own_game_only_and_reads_as_the_public(client):
    with Session(hub_of(client).engine) as session:
        round_id, (mine, other) = paired_round(session, games=2, published=False)
    tablet = device_token(client, mine)
    assert enter(client, mine, 1, "e4", tablet).status_code == 200
    refused = enter(client, other, 1, "e4", tablet)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Board 1 tablet's token is bound to game " + str(mine)
    # The round is not published: staff see it, a tablet sees what the public sees.
    assert (
        client.get(f"/api/rounds/{round_id}/games", headers=token(client, "keyer")).status_code
        == 200
    )
    assert client.get(f"/api/rounds/{round_id}/games", headers=tablet).status_code == 404
    assert client.get(f"/api/rounds/{round_id}/games").status_code == 404
    # The tablet beside the board offers draws for its own game (9.1.2), no other's.
    offer = {"player": "white", "action": "offer"}
    assert client.post(f"/api/games/{mine}/draw", json=offer, headers=tablet).status_code == 200
    assert client.post(f"/api/games/{other}/draw", json=offer, headers=tablet).status_code == 403


def test_moves_keyed_after_the_game_carry_no_clock_times_and_live_ones_do(client):
    # Both games' clocks were started centrally; neither has an electronic board, so the
    # hub counts their times. The desk keys game 2 from its paper scoresheet afterwards.
    with Session(hub_of(client).engine) as session:
        round_id, (live, keyed) = paired_round(session, games=2)
    arbiter = token(client, "arbiter", user="Chief")
    keyer = token(client, "keyer", user="Desk")
    started = client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter)
    assert [r["outcome"] for r in started.json()["reports"]] == ["timed by the hub"] * 2
    for ply, move in enumerate(("e4", "e5"), start=1):
        assert enter(client, live, ply, move, keyer).status_code == 200
        after = {"ply": ply, "move": move, "timed": False}
        answer = client.post(f"/api/games/{keyed}/entries", json=after, headers=keyer)
        assert answer.status_code == 200
    assert "%clk" in client.get(f"/api/games/{live}.pgn").text
    keyed_pgn = client.get(f"/api/games/{keyed}.pgn").text
    assert "1. e4 e5" in keyed_pgn
    assert "%clk" not in keyed_pgn
    assert "%emt" not in keyed_pgn
