"""Building blocks for API tests: a round in the app's database, moves, tokens."""

from __future__ import annotations

import chess
from fastapi.testclient import TestClient
from sqlmodel import Session

from relay.domain.game.events import MoveMade
from relay.hub.hub import Hub
from relay.store.access import create_token
from tests.pairings import paired_round


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def setup_round(client: TestClient, **options) -> tuple[int, int]:
    with Session(hub_of(client).engine) as session:
        round_id, (game_id, *_) = paired_round(session, number=4, **options)
        return round_id, game_id


def token(client: TestClient, role: str, user: str = "someone") -> dict[str, str]:
    with Session(hub_of(client).engine) as session:
        value = create_token(session, user=user, role=role)
        session.commit()
    return {"Authorization": f"Bearer {value}"}


def play(
    client: TestClient, round_id: int, game_id: int, *sans: str, board: chess.Board | None = None
) -> chess.Board:
    board = board or chess.Board()
    events = []
    for san in sans:
        move = board.push_san(san)
        events.append(
            MoveMade(
                ply=board.ply(),
                uci=move.uci(),
                san=san,
                fen=board.fen(),
                at=1.0,
                clock=5400.0 - board.ply(),
            )
        )
    hub = hub_of(client)

    async def record() -> None:
        await hub.recorder.record(round_id=round_id, game_id=game_id, events=events)

    assert client.portal is not None
    client.portal.call(record)
    return board
