"""Authenticated actions: roles, results, corrections, audit, publication and delays."""

from __future__ import annotations

import json

import chess.pgn
import pytest
from fastapi.testclient import TestClient

from relay.api.app import create_app
from relay.config import Settings
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay.api.helpers import play, setup_round, token
from tests.stores import migrated_sqlite


def test_actions_need_a_token_of_the_right_role(client):
    _, game_id = setup_round(client)
    body = {"result": "1-0", "reason": "resigned"}
    missing = client.post(f"/api/games/{game_id}/result", json=body)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    bad = client.post(
        f"/api/games/{game_id}/result", json=body, headers={"Authorization": "Bearer rly_nope"}
    )
    assert bad.status_code == 401
    operator = client.post(
        f"/api/games/{game_id}/result", json=body, headers=token(client, "operator")
    )
    assert operator.status_code == 403
    assert "needs arbiter" in operator.json()["detail"]
    admin = client.post(f"/api/games/{game_id}/result", json=body, headers=token(client, "admin"))
    assert admin.status_code == 200


def test_result_entered_verified_and_audited(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4", "e5")
    arbiter = token(client, "arbiter", user="Jane Doe")
    entered = client.post(
        f"/api/games/{game_id}/result",
        json={"result": "1/2-1/2", "reason": "draw agreed, both signed"},
        headers=arbiter,
    )
    assert entered.json() == {
        "game_id": game_id,
        "v": 3,
        "result": "1/2-1/2",
        "verified": False,
        "ply": 2,
        "fen": entered.json()["fen"],
    }
    stale = client.post(f"/api/games/{game_id}/verify", json={"result": "1-0"}, headers=arbiter)
    assert stale.status_code == 409
    verified = client.post(
        f"/api/games/{game_id}/verify", json={"result": "1/2-1/2"}, headers=arbiter
    )
    assert verified.json()["verified"] is True
    summary = client.get(f"/api/rounds/{round_id}/games").json()[0]
    assert (summary["result"], summary["verified"]) == ("1/2-1/2", True)
    (game,) = read_all(client.get(f"/api/games/{game_id}.pgn").text)
    assert game.headers["Result"] == "1/2-1/2"
    trail = client.get("/api/audit", headers=arbiter).json()
    assert [(e["action"], e["user"], e["reason"]) for e in trail] == [
        ("verify", "Jane Doe", ""),
        ("set-result", "Jane Doe", "draw agreed, both signed"),
    ]
    assert client.get("/api/audit").status_code == 401


def test_moves_corrected_from_a_ply(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "d4", "d5", "c4")
    arbiter = token(client, "arbiter")
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"ply": 3, "san": ["Nf3", "Nf6"], "reason": "scoresheets"},
        headers=arbiter,
    )
    assert response.status_code == 200
    detail = client.get(f"/api/games/{game_id}").json()
    assert [m["san"] for m in detail["moves"]] == ["d4", "d5", "Nf3", "Nf6"]
    illegal = client.post(
        f"/api/games/{game_id}/moves", json={"ply": 3, "san": ["Ke3"]}, headers=arbiter
    )
    assert illegal.status_code == 409
    assert "'Ke3' is not a legal move" in illegal.json()["detail"]
    missing = client.post("/api/games/999/moves", json={"ply": 1, "san": []}, headers=arbiter)
    assert missing.status_code == 404


def test_an_unpublished_round_is_hidden_from_the_public(client):
    round_id, game_id = setup_round(client, published=False)
    arbiter = token(client, "arbiter")
    assert client.get("/api/rounds").json() == []
    assert client.get(f"/api/rounds/{round_id}/games.pgn").status_code == 404
    assert client.get(f"/api/games/{game_id}").status_code == 404
    assert client.get(f"/api/rounds/{round_id}/games.pgn", headers=arbiter).status_code == 200
    published = client.post(
        f"/api/rounds/{round_id}/publish", json={"published": True}, headers=arbiter
    )
    assert published.json()["published"] is True
    assert [r["id"] for r in client.get("/api/rounds").json()] == [round_id]


def test_public_views_lag_by_the_delay_and_arbiters_see_live(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4", "c5")
    arbiter = token(client, "arbiter")
    response = client.put(
        f"/api/rounds/{round_id}/delay",
        json={"seconds": 900, "reason": "anti-cheating"},
        headers=arbiter,
    )
    assert response.json()["delay_seconds"] == 900
    public = client.get(f"/api/rounds/{round_id}/games").json()[0]
    live = client.get(f"/api/rounds/{round_id}/games", headers=arbiter).json()[0]
    assert (public["ply"], public["v"]) == (0, 0)
    assert (live["ply"], live["v"]) == (2, 2)
    (public_game,) = read_all(client.get(f"/api/rounds/{round_id}/games.pgn").text)
    assert list(public_game.mainline_moves()) == []
    with client.websocket_connect(f"/api/rounds/{round_id}/stream") as ws:
        snapshot = json.loads(ws.receive_text())
        assert snapshot["games"][0]["ply"] == 0
    assert (
        client.put(
            f"/api/rounds/{round_id}/delay", json={"seconds": 4000}, headers=arbiter
        ).status_code
        == 422
    )


def test_the_delay_survives_a_restart(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "delay.db"))
    with TestClient(create_app(settings)) as first:
        round_id, game_id = setup_round(first)
        play(first, round_id, game_id, "e4")
        first.put(
            f"/api/rounds/{round_id}/delay", json={"seconds": 600}, headers=token(first, "arbiter")
        )
    with TestClient(create_app(settings)) as second:
        assert second.get(f"/api/rounds/{round_id}").json()["delay_seconds"] == 600
        assert second.get(f"/api/rounds/{round_id}/games").json()[0]["ply"] == 0


def test_an_event_file_loads_through_the_api(client):
    admin = token(client, "admin")
    text = (
        '[tournament]\nname = "API Open"\n'
        '[[player]]\nnumber = 1\nname = "A, B"\n[[player]]\nnumber = 2\nname = "C, D"\n'
        "[[round]]\nnumber = 1\npairings = [[1, 2]]\n"
    )
    headers = {**admin, "Content-Type": "application/toml"}
    loaded = client.post("/api/event", content=text, headers=headers)
    assert loaded.status_code == 200, loaded.text
    assert (loaded.json()["games"], loaded.json()["created"]) == (1, True)
    round_id = client.get("/api/rounds").json()[0]["id"]
    games = client.get(f"/api/rounds/{round_id}/games").json()
    assert [(g["white"]["name"], g["black"]["name"]) for g in games] == [("A, B", "C, D")]
    bad = client.post("/api/event", content="[tournament\n", headers=headers)
    assert bad.status_code == 422
    assert "not valid TOML" in bad.json()["detail"]
    conflict = client.post(
        "/api/event", content=text.replace("[[1, 2]]", "[[2, 1]]"), headers=headers
    )
    assert conflict.status_code == 409
    assert (
        client.post("/api/event", content=text, headers=token(client, "arbiter")).status_code == 403
    )


def test_boards_are_assigned_and_attached_by_operators(client):
    round_id, game_id = setup_round(client, ports=["/dev/relay-test-no-such-port"])
    operator = token(client, "operator")
    health = client.get(f"/api/rounds/{round_id}/boards").json()
    assert health == [
        {
            "game_id": game_id,
            "board": 1,
            "eboard": 1,
            "eboard_id": health[0]["eboard_id"],
            "url": None,  # ports are not shown to the public
            "clock_setting": "auto",
            "attached": False,
            "connected": False,
            "unsaved": 0,
        }
    ]
    (listed,) = client.get("/api/tournaments/1/eboards", headers=operator).json()
    assert (listed["id"], listed["number"], listed["driver"]) == (health[0]["eboard_id"], 1, "dgt")
    assert client.get("/api/tournaments/1/eboards").status_code == 401
    assert client.get("/api/me", headers=operator).json() == {"user": "someone", "role": "operator"}
    assert client.get("/api/me").json() == {"user": None, "role": None}
    attach = client.post(f"/api/games/{game_id}/attach", headers=operator)
    assert attach.status_code == 503
    assert "relay-test-no-such-port" in attach.json()["detail"]
    assert client.post(f"/api/games/{game_id}/detach", headers=operator).status_code == 409
    unassigned = client.put(
        f"/api/games/{game_id}/board", json={"eboard_id": None}, headers=operator
    )
    assert unassigned.json() == {"game_id": game_id, "eboard_id": None}
    assert client.post(f"/api/games/{game_id}/attach", headers=operator).status_code == 409
    missing = client.put(f"/api/games/{game_id}/board", json={"eboard_id": 99}, headers=operator)
    assert missing.status_code == 404


def test_public_requests_are_rate_limited_per_client(tmp_path, still_time):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "rate.db"), rate_limit=0.1, rate_burst=3)
    with TestClient(create_app(settings)) as client:
        codes = [client.get("/api/health").status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200]
        assert 429 in codes[3:]
        limited = client.get("/api/health")
        assert limited.status_code == 429
        assert int(limited.headers["retry-after"]) >= 1
        assert client.get("/api/rounds", headers=token(client, "operator")).status_code == 200


def test_streams_send_heartbeats_when_nothing_happens(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "beat.db"), heartbeat_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        round_id, _ = setup_round(client)
        with client.websocket_connect(f"/api/rounds/{round_id}/stream") as ws:
            assert json.loads(ws.receive_text())["type"] == "snapshot"
            assert json.loads(ws.receive_text()) == {"type": "ping"}


@pytest.mark.processes
def test_round_archive_and_skeleton(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "f3", "e5", "g4", "Qh4#")
    client.post(
        f"/api/games/{game_id}/result", json={"result": "0-1"}, headers=token(client, "arbiter")
    )
    archive = client.get(f"/api/rounds/{round_id}/archive.pgn").text
    (game,) = read_all(archive)
    assert list(game.headers) == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert "{" not in archive
    assert pgn_extract_problems(archive) == ""
    skeleton = client.get(f"/api/rounds/{round_id}/skeleton.pgn").text
    (empty,) = read_all(skeleton)
    assert (empty.headers["Result"], empty.headers["White"]) == ("*", "White1, Player")
    assert pgn_extract_problems(skeleton) == ""
    assert isinstance(empty, chess.pgn.Game)


IMPORTED = """[Event "Test Open"]
[Round "4.1"]
[White "White1, Player"]
[Black "Black1, Player"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 1/2-1/2

[Event "Test Open"]
[Round "4.5"]
[White "Late, Entry"]
[Black "Black1, Player"]
[Result "*"]

1. e4 *
"""


def test_pgn_import_corrects_and_creates_games(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "d4", "Nf6")
    arbiter = {**token(client, "arbiter"), "Content-Type": "application/x-chess-pgn"}
    response = client.post(
        f"/api/rounds/{round_id}/games.pgn?reason=scoresheets", content=IMPORTED, headers=arbiter
    )
    assert response.json() == {"created": 1, "corrected": 1, "unchanged": 0}, response.text
    games = client.get(f"/api/rounds/{round_id}/games").json()
    assert [(g["board"], g["white"]["name"], g["ply"], g["result"]) for g in games] == [
        (1, "White1, Player", 4, "1/2-1/2"),
        (5, "Late, Entry", 1, "*"),
    ]
    again = client.post(f"/api/rounds/{round_id}/games.pgn", content=IMPORTED, headers=arbiter)
    assert again.json() == {"created": 0, "corrected": 0, "unchanged": 2}


def test_a_bad_pgn_import_changes_nothing(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4")
    arbiter = {**token(client, "arbiter"), "Content-Type": "application/x-chess-pgn"}
    wrong_players = IMPORTED.replace('[Black "Black1, Player"]', '[Black "Someone, Else"]', 1)
    refused = client.post(
        f"/api/rounds/{round_id}/games.pgn", content=wrong_players, headers=arbiter
    )
    assert refused.status_code == 409
    assert "board 1 is White1, Player - Black1, Player" in refused.json()["detail"]
    illegal = client.post(
        f"/api/rounds/{round_id}/games.pgn", content=IMPORTED + "\n1. e4 e4 *\n", headers=arbiter
    )
    assert illegal.status_code == 422
    games = client.get(f"/api/rounds/{round_id}/games").json()
    assert [(g["board"], g["ply"]) for g in games] == [(1, 1)]


def test_public_standings_count_verified_results_only(client):
    round_id, game_id = setup_round(client, games=2)
    tournament_id = client.get(f"/api/rounds/{round_id}").json()["tournament_id"]
    arbiter = token(client, "arbiter")
    second = client.get(f"/api/rounds/{round_id}/games").json()[1]["id"]
    client.post(f"/api/games/{game_id}/result", json={"result": "1-0"}, headers=arbiter)
    client.post(f"/api/games/{second}/result", json={"result": "1/2-1/2"}, headers=arbiter)
    client.post(f"/api/games/{second}/verify", json={"result": "1/2-1/2"}, headers=arbiter)
    public = client.get(f"/api/tournaments/{tournament_id}/standings").json()
    # Equal on points, BH, SB and wins; Black2 had Black (BPG), so Black2 is ahead.
    assert [(r["name"], r["points"], r["played"]) for r in public] == [
        ("Black2, Player", 0.5, 1),
        ("White2, Player", 0.5, 1),
        ("White1, Player", 0.0, 0),
        ("Black1, Player", 0.0, 0),
    ]
    assert list(public[0]["tie_breaks"].items()) == list(
        {
            "BH-C1": 0.0,
            "BH": 0.5,
            "SB": 0.25,
            "WIN": 0.0,
            "BPG": 1.0,
            "ARO": 2002.0,
        }.items()
    )
    live = client.get(f"/api/tournaments/{tournament_id}/standings", headers=arbiter).json()
    assert [(r["name"], r["points"], r["provisional"]) for r in live][:2] == [
        ("White1, Player", 0.0, 1.0),
        ("Black2, Player", 0.5, 0.0),
    ]
    assert client.get("/api/tournaments/99/standings").status_code == 404
