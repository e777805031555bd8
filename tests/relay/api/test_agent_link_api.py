"""The venue agents' websocket: who may connect, inputs acknowledged once committed and
kept once, a broken order refused in words, and a game following an agent's board on the
venue's time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from drivers.event_codec import encode
from drivers.events import Beep as BeepCommand
from drivers.events import FieldChange, PositionSnapshot
from relay.api.app import create_app
from relay.config import Settings
from relay.store.models import AgentInput
from tests.relay.api.helpers import hub_of, setup_round, token
from tests.stores import migrated_sqlite

BEEP = {"kind": "Beep", "duration_ms": 1}
HELLO = {"type": "hello", "agent": "hall", "boards": [{"board": "1", "port": "/dev/ttyACM0"}]}


def connect(client: TestClient, role: str = "operator") -> WebSocketTestSession:
    return client.websocket_connect("/api/agent", headers=token(client, role, user=role))


def greet(ws: WebSocketTestSession) -> int:
    ws.send_text(json.dumps(HELLO))
    welcome = json.loads(ws.receive_text())
    assert welcome["type"] == "welcome"
    return int(welcome["acked"])


def inputs(*items: tuple[int, float, dict[str, Any]], board: str = "1") -> str:
    return json.dumps(
        {
            "type": "inputs",
            "items": [
                {"seq": seq, "board": board, "mono": mono, "wall": 1e9 + mono, "event": event}
                for seq, mono, event in items
            ],
        }
    )


def stored(client: TestClient) -> list[int]:
    with Session(hub_of(client).engine) as session:
        return sorted(row.seq for row in session.exec(select(AgentInput)))


@pytest.mark.parametrize(
    ("headers", "code"),
    [({}, 4401), ({"Authorization": "Bearer nonsense"}, 4401), ("keyer", 4403)],
)
def test_only_an_operator_may_run_an_agent(
    client: TestClient, headers: dict[str, str] | str, code: int
) -> None:
    sent = token(client, headers) if isinstance(headers, str) else headers
    with (
        client.websocket_connect("/api/agent", headers=sent) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_text()
    assert closed.value.code == code


def test_inputs_are_acknowledged_once_kept_and_kept_once(client: TestClient) -> None:
    with connect(client) as ws:
        assert greet(ws) == 0
        ws.send_text(inputs((1, 0.1, BEEP), (2, 0.2, BEEP)))
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 2}
    assert stored(client) == [1, 2]
    with connect(client) as ws:
        assert greet(ws) == 2  # a new connection starts from what the hub holds
        ws.send_text(inputs((2, 0.2, BEEP), (3, 0.3, BEEP)))  # the ack of 2 was lost
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 3}
    assert stored(client) == [1, 2, 3]
    assert hub_of(client).agents.status()[0] | {"since": None, "last_heard": None} == {
        "agent": "hall",
        "connected": False,
        "silent": False,
        "since": None,
        "last_heard": None,
        "acked": 3,
        "backlog": 0,
        "boards": [{"board": "1", "port": "/dev/ttyACM0", "followed": False}],
    }


def test_the_backlog_at_the_venue_is_what_the_agent_queued_beyond_the_acknowledgement(
    client: TestClient,
) -> None:
    operator = token(client, "operator", user="operator")

    def backlog() -> int:
        (agent,) = client.get("/api/agents", headers=operator).json()
        return int(agent["backlog"])

    with connect(client) as ws:
        ws.send_text(json.dumps({**HELLO, "queued": 5}))  # back after an outage, 5 queued
        assert json.loads(ws.receive_text()) == {"type": "welcome", "acked": 0}
        assert backlog() == 5
        sent = json.loads(inputs((1, 0.1, BEEP), (2, 0.2, BEEP)))
        ws.send_text(json.dumps({**sent, "queued": 6}))  # one more came meanwhile
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 2}
        assert backlog() == 4
        sent = json.loads(inputs((3, 0.3, BEEP), (4, 0.4, BEEP), (5, 0.5, BEEP), (6, 0.6, BEEP)))
        ws.send_text(json.dumps({**sent, "queued": 6}))
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 6}
        assert backlog() == 0


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (inputs((2, 0.1, BEEP)), "sent input 2 after 0: inputs come in order"),
        (inputs((1, 0.1, BEEP), board="9"), "input 1 is for board '9', which the agent lacks"),
        (inputs((1, 0.1, {"kind": "Explode"})), "input 1: event: unknown kind 'Explode'"),
        (inputs((1, float("nan"), BEEP)), "mono is a finite number"),
        ("{not json", "a message is one JSON object"),
        (json.dumps({"type": "shout"}), "unknown message type 'shout'"),
        (
            json.dumps({**json.loads(inputs((1, 0.1, BEEP))), "queued": -1}),
            "queued is a whole number from 0, not -1",
        ),
        (json.dumps({"type": "inputs", "items": []}), "items is a list of 1 to 1000"),
        (inputs((10**400, 0.1, BEEP)), "seq is a whole number from 1"),
        (inputs((1, 0.1, BEEP)).replace('"mono": 0.1', '"mono": 1' + "0" * 400), "mono is a"),
        (inputs((1, 0.1, {"kind": "Beep", "duration_ms": 10**400})), "a whole number up to"),
    ],
)
def test_a_message_the_protocol_does_not_allow_closes_the_link_in_words(
    client: TestClient, message: str, words: str
) -> None:
    with connect(client) as ws:
        greet(ws)
        ws.send_text(message)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 1008
    assert words in closed.value.reason
    assert stored(client) == []


@pytest.mark.parametrize(
    ("first", "words"),
    [
        ("[1]", "the first message is the agent's hello"),
        ("{}", "the first message is the agent's hello"),
    ],
)
def test_a_link_that_does_not_start_with_hello_is_closed_in_words(
    client: TestClient, first: str, words: str
) -> None:
    with connect(client) as ws:
        ws.send_text(first)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert (closed.value.code, closed.value.reason) == (1008, words)


def test_bytes_on_the_link_close_it_in_words(client: TestClient) -> None:
    with connect(client) as ws:
        greet(ws)
        ws.send_bytes(b"\x00\x01")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert (closed.value.code, closed.value.reason) == (1008, "messages are JSON text, not bytes")


def test_a_second_connection_of_an_agent_lets_the_first_go(client: TestClient) -> None:
    with connect(client) as first, connect(client) as second:
        greet(first)
        greet(second)
        first.send_text(inputs((1, 0.1, BEEP)))
        with pytest.raises(WebSocketDisconnect) as closed:
            first.receive_text()
        assert "agent hall connected again" in closed.value.reason
        second.send_text(inputs((1, 0.1, BEEP)))
        assert json.loads(second.receive_text()) == {"type": "ack", "seq": 1}


def test_a_command_goes_only_to_a_board_the_agent_named(client: TestClient) -> None:
    # A typo in the event file (agent://hall/9) must not break the link the agent's other
    # boards share: the hub does not send it, and the game's session hears it failed.
    with connect(client) as ws:
        greet(ws)
        state = hub_of(client).agents.agents["hall"]
        assert not state.send_command("9", BeepCommand(100))
        assert state.send_command("1", BeepCommand(100))
        command = json.loads(ws.receive_text())
    assert command == {
        "type": "command", "id": 1, "board": "1", "command": {"kind": "Beep", "duration_ms": 100}
    }  # fmt: skip


def position(board: chess.Board) -> tuple[str | None, ...]:
    return tuple(
        piece.symbol() if (piece := board.piece_at(square)) else None for square in range(64)
    )


def test_a_game_follows_an_agents_board_on_the_venues_time(client: TestClient) -> None:
    _, game_id = setup_round(client)
    hub = hub_of(client)
    assert client.portal is not None
    client.portal.call(lambda: hub.attach_dgt_board(game_id=game_id, url="agent://hall/1"))
    board = chess.Board()
    start = position(board)
    lifted = tuple(None if square == chess.E2 else piece for square, piece in enumerate(start))
    board.push_san("e4")
    with client.websocket_connect(f"/api/games/{game_id}/stream") as stream, connect(client) as ws:
        greet(ws)
        ws.send_text(
            inputs(
                (1, 10.0, encode(PositionSnapshot(start))),
                (2, 11.0, encode(FieldChange(chess.E2, None, lifted))),
                (3, 11.3, encode(FieldChange(chess.E4, "P", position(board)))),
            )
        )
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 3}
        # Nothing happens on the venue's time until the agent says it has passed.
        for tenth in range(114, 140):
            ws.send_text(json.dumps({"type": "time", "mono": tenth / 10, "wall": 1e9 + tenth / 10}))
        while (message := json.loads(stream.receive_text())).get("kind") != "move":
            pass
        assert hub.board_health(game_id)["connected"] is True
    assert message["data"]["san"] == "e4"
    assert message["data"]["at"] == pytest.approx(1e9 + 11.3 + 0.25, abs=0.5)
    # The agent went away: its board is out of reach, whatever it last said.
    assert hub.board_health(game_id)["connected"] is False


def test_a_restarted_hub_starts_an_agents_board_from_what_it_kept(tmp_path: Path) -> None:
    # The board showed 1. e4 while no game followed it (or just before the hub went down):
    # the hub had kept and acknowledged those inputs, so the agent will not send them again.
    settings = Settings(db_url=migrated_sqlite(tmp_path / "hub.db"))
    board = chess.Board()
    start = position(board)
    board.push_san("e4")
    with TestClient(create_app(settings)) as before, connect(before) as ws:
        greet(ws)
        ws.send_text(
            inputs(
                (1, 10.0, encode(PositionSnapshot(start))),
                (2, 11.0, encode(FieldChange(chess.E4, "P", position(board)))),
            )
        )
        assert json.loads(ws.receive_text()) == {"type": "ack", "seq": 2}
    with TestClient(create_app(settings)) as after:
        _, game_id = setup_round(after)
        hub = hub_of(after)
        assert after.portal is not None
        after.portal.call(lambda: hub.attach_dgt_board(game_id=game_id, url="agent://hall/1"))
        with (
            after.websocket_connect(f"/api/games/{game_id}/stream") as stream,
            connect(after) as ws,
        ):
            assert greet(ws) == 2
            for tenth in range(112, 140):
                ws.send_text(json.dumps({"type": "time", "mono": tenth / 10, "wall": 1e9}))
            while (message := json.loads(stream.receive_text())).get("kind") != "move":
                pass
    assert message["data"]["san"] == "e4"
