from __future__ import annotations

import asyncio
import io
import json
import threading
from dataclasses import replace

import chess
import chess.pgn
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.api.app import create_app
from relay.config import Settings
from tests.pairings import paired_round
from tests.pgn_check import pgn_extract_problems
from tests.relay.api.helpers import hub_of, play, setup_round
from tests.stores import migrated_sqlite


def test_health_and_openapi(client):
    assert client.get("/api/health").json() == {"status": "ok"}
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/games/{game_id}.pgn" in paths
    assert "/api/rounds/{round_id}/games.pgn" in paths


def test_viewer_page_and_static_files_served(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "viewer.js" in page.text
    assert client.get("/static/viewer.js").status_code == 200


def test_unknown_game_and_round_are_404(client):
    assert client.get("/api/games/5").status_code == 404
    assert client.get("/api/games/5.pgn").status_code == 404
    assert client.get("/api/rounds/5/games").status_code == 404
    assert client.get("/api/rounds/5/games.pgn").status_code == 404


def test_games_folded_from_the_log(client):
    round_id, game_id = setup_round(client)
    board = play(client, round_id, game_id, "e4", "c5", "Nf3")
    summary = client.get(f"/api/rounds/{round_id}/games").json()[0]
    assert summary["id"] == game_id
    assert summary["ply"] == 3
    assert summary["fen"] == board.fen()
    assert summary["last_san"] == "Nf3"
    assert summary["white"] == {
        "start_number": 1,
        "name": "White1, Player",
        "title": None,
        "rating": 2001,
        "fide_id": None,
        "federation": None,
        "team": None,
    }
    assert summary["v"] == 3
    detail = client.get(f"/api/games/{game_id}").json()
    assert [m["san"] for m in detail["moves"]] == ["e4", "c5", "Nf3"]
    assert [r["number"] for r in client.get("/api/rounds").json()] == [4]


@pytest.mark.processes
def test_game_and_round_pgn(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "d4", "Nf6")
    response = client.get(f"/api/games/{game_id}.pgn")
    assert response.headers["content-type"].startswith("application/x-chess-pgn")
    game = chess.pgn.read_game(io.StringIO(response.text))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == ["d2d4", "g8f6"]
    assert game.headers["Round"] == "4.1"
    assert game.headers["Event"] == "Test Open"
    assert game.headers["TimeControl"] == "40/5400+30"
    assert [node.clock() for node in game.mainline()] == [5399.0, 5398.0]
    round_text = client.get(f"/api/rounds/{round_id}/games.pgn").text
    assert round_text == response.text + "\n\n"
    assert pgn_extract_problems(round_text) == ""


def test_game_stream_replays_then_goes_live(client):
    round_id, game_id = setup_round(client)
    board = play(client, round_id, game_id, "e4", "e5")
    with client.websocket_connect(f"/api/games/{game_id}/stream?since=1") as ws:
        replayed = json.loads(ws.receive_text())
        assert (replayed["v"], replayed["kind"], replayed["data"]["san"]) == (2, "move", "e5")
        play(client, round_id, game_id, "Nf3", board=board)
        live = json.loads(ws.receive_text())
        assert (live["v"], live["data"]["san"], live["game"]) == (3, "Nf3", game_id)


def test_round_stream_sends_snapshot_then_events(client):
    round_id, game_id = setup_round(client)
    board = play(client, round_id, game_id, "c4")
    with client.websocket_connect(f"/api/rounds/{round_id}/stream") as ws:
        snapshot = json.loads(ws.receive_text())
        assert snapshot["type"] == "snapshot"
        assert [(g["id"], g["ply"], g["v"]) for g in snapshot["games"]] == [(game_id, 1, 1)]
        play(client, round_id, game_id, "e5", board=board)
        event = json.loads(ws.receive_text())
        assert (event["type"], event["v"], event["data"]["uci"]) == ("event", 2, "e7e5")


def test_stream_of_unknown_game_is_closed(client):
    with client.websocket_connect("/api/games/99/stream") as ws:
        message = ws.receive()
        assert message["type"] == "websocket.close"
        assert message["code"] == 4404


def test_client_ahead_of_the_log_is_told_to_reload(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4")
    with client.websocket_connect(f"/api/games/{game_id}/stream?since=40") as ws:
        assert json.loads(ws.receive_text()) == {"type": "reload"}
        assert json.loads(ws.receive_text())["v"] == 1


async def running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_a_spectator_joins_a_round_while_the_store_thread_is_busy_writing(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "c4")
    hub = client.app.state.hub
    writing = threading.Event()
    release = threading.Event()

    def long_write(session: object) -> None:
        writing.set()
        release.wait(30)

    busy = client.portal.start_task_soon(hub.recorder.run, long_write)
    try:
        assert writing.wait(10)
        # Joining reads the round beside the store thread, not in its queue.
        with client.websocket_connect(f"/api/rounds/{round_id}/stream") as ws:
            snapshot = json.loads(ws.receive_text())
            assert snapshot["type"] == "snapshot"
            assert [g["id"] for g in snapshot["games"]] == [game_id]
            assert not busy.done()
    finally:
        release.set()
    busy.result(timeout=10)


def test_a_page_of_boards_gets_their_snapshot_and_events_alone(client):
    with Session(hub_of(client).engine) as session:
        round_id, games = paired_round(session, number=4, games=5)
    page = client.get(f"/api/rounds/{round_id}/games?boards=2-3").json()
    assert [(g["id"], g["board"]) for g in page] == [(games[1], 2), (games[2], 3)]
    with (
        client.websocket_connect(f"/api/rounds/{round_id}/stream?boards=2-3") as ranged,
        client.websocket_connect(f"/api/rounds/{round_id}/stream") as whole,
    ):
        snapshot = json.loads(ranged.receive_text())
        assert [g["board"] for g in snapshot["games"]] == [2, 3]
        assert snapshot["boards"] == [1, 2, 3, 4, 5]
        assert len(json.loads(whole.receive_text())["games"]) == 5
        play(client, round_id, games[0], "e4")  # board 1: not on the page
        play(client, round_id, games[2], "d4")  # board 3
        event = json.loads(ranged.receive_text())
        assert (event["game"], event["data"]["san"]) == (games[2], "d4")
        seen = [json.loads(whole.receive_text())["game"] for _ in range(2)]
        assert seen == [games[0], games[2]]


def test_a_malformed_board_range_is_refused_in_words(client):
    round_id, _ = setup_round(client)
    refused = client.get(f"/api/rounds/{round_id}/games?boards=9-2")
    assert refused.status_code == 400
    assert "must run upwards" in refused.json()["detail"]
    with client.websocket_connect(f"/api/rounds/{round_id}/stream?boards=x") as ws:
        message = ws.receive()
        assert message["type"] == "websocket.close"
        assert message["code"] == 1008
        assert "must be a range such as 25-48" in message["reason"]


def test_a_banner_tops_every_page_as_text(tmp_path):
    banner = 'Simulation <b>only</b> & "nothing" real'
    settings = Settings(db_url=migrated_sqlite(tmp_path / "api.db"), banner=banner)
    with TestClient(create_app(settings)) as client:
        for path in ("/", "/bulletin", "/arbiter", "/scoresheet"):
            page = client.get(path)
            assert page.status_code == 200
            body = page.text.split("<body", 1)[1].split(">", 1)[1]
            assert body.startswith(
                '<p class="site-banner" role="note">'
                "Simulation &lt;b&gt;only&lt;/b&gt; &amp; &quot;nothing&quot; real</p>"
            )
    for none in (None, "", "  "):
        with TestClient(create_app(replace(settings, banner=none))) as client:
            assert "site-banner" not in client.get("/").text
