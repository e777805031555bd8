from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator

import chess
import chess.pgn
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.api import streams
from relay.api.app import create_app
from relay.bus.messages import Published
from relay.config import Settings
from relay.domain.game.events import MoveMade, event_data
from relay.hub.hub import Hub
from relay.store.games import (
    append_events,
    create_game,
    create_round,
    create_tournament,
    read_events,
)


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'api.db'}")
    with TestClient(create_app(settings)) as client:
        yield client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def setup_round(client: TestClient) -> tuple[int, int]:
    with Session(hub_of(client).engine) as session:
        tournament = create_tournament(session, name="Test Open", site="Oslo")
        assert tournament.id is not None
        round_ = create_round(session, tournament_id=tournament.id, number=4)
        assert round_.id is not None
        game = create_game(
            session, round_id=round_.id, board=1, white="Moss, M", black="Lee, H", white_elo=1500
        )
        assert game.id is not None
        return round_.id, game.id


def play(
    client: TestClient, round_id: int, game_id: int, *sans: str, board: chess.Board | None = None
) -> chess.Board:
    board = board or chess.Board()
    events = []
    for san in sans:
        move = board.push_san(san)
        events.append(MoveMade(ply=board.ply(), uci=move.uci(), san=san, fen=board.fen(), at=1.0))
    hub = hub_of(client)

    async def record() -> None:
        await hub.recorder.record(round_id=round_id, game_id=game_id, events=events)

    assert client.portal is not None
    client.portal.call(record)
    return board


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
    summary = client.get("/api/games").json()[0]
    assert summary["ply"] == 3
    assert summary["fen"] == board.fen()
    assert summary["last_san"] == "Nf3"
    assert summary["white_elo"] == 1500
    assert summary["v"] == 3
    detail = client.get(f"/api/games/{game_id}").json()
    assert [m["san"] for m in detail["moves"]] == ["e4", "c5", "Nf3"]
    assert client.get(f"/api/rounds/{round_id}/games").json()[0]["id"] == game_id
    assert client.get("/api/rounds").json() == [{"id": round_id, "tournament_id": 1, "number": 4}]


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
    round_text = client.get(f"/api/rounds/{round_id}/games.pgn").text
    assert round_text == response.text + "\n\n"


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


def test_event_committed_while_a_client_joins_is_sent_once(client, monkeypatch):
    round_id, game_id = setup_round(client)
    board = play(client, round_id, game_id, "e4")
    hub = hub_of(client)
    assert client.portal is not None
    loop = client.portal.call(running_loop)
    reads = 0

    def read_with_a_commit_first(session, *, game_id, after=0):
        # Another board move is committed and published after the client joined the room
        # but before its replay is read: it reaches the client both ways.
        nonlocal reads
        reads += 1
        if reads == 1:
            reply = board.copy()
            move = reply.push_san("e5")
            data = event_data(MoveMade(2, move.uci(), "e5", reply.fen(), 2.0))
            with Session(hub.engine) as other:
                append_events(other, game_id=game_id, events=[("move", data)], recorded_at=2.0)
            loop.call_soon_threadsafe(
                hub.bus.publish, Published(round_id, game_id, 2, "move", data)
            )
        return read_events(session, game_id=game_id, after=after)

    monkeypatch.setattr(streams, "read_log", read_with_a_commit_first)
    with client.websocket_connect(f"/api/games/{game_id}/stream") as ws:
        replayed = [json.loads(ws.receive_text()) for _ in range(2)]
        board.push_san("e5")
        play(client, round_id, game_id, "Nf3", board=board)
        live = json.loads(ws.receive_text())
    assert [m["v"] for m in replayed] == [1, 2]
    assert (live["v"], live["data"]["san"]) == (3, "Nf3")  # not e5 a second time


def test_client_ahead_of_the_log_is_told_to_reload(client):
    round_id, game_id = setup_round(client)
    play(client, round_id, game_id, "e4")
    with client.websocket_connect(f"/api/games/{game_id}/stream?since=40") as ws:
        assert json.loads(ws.receive_text()) == {"type": "reload"}
        assert json.loads(ws.receive_text())["v"] == 1


async def running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()
