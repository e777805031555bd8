"""Tokens never appear in logs, audit entries or answers, whatever happens while they are in
use: work done with them, refusals, malformed requests, streams with a token in their URL,
bursts of failed authentications, and a fault whose own message quotes one."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi.testclient import TestClient
from sqlmodel import Session, select
from starlette.websockets import WebSocketDisconnect

from relay.api.app import create_app
from relay.config import Settings
from relay.store.access import ROLES, create_token, revoke_tokens
from relay.store.models import AuditEntry, GameEventRow, Token
from tests.relay.api.helpers import hub_of, setup_round
from tests.stores import migrated_sqlite


def test_tokens_appear_in_no_log_no_audit_entry_and_no_answer(tmp_path, caplog):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "secrets.db"), auth_failures=3)
    answers: list[Any] = []
    with (
        caplog.at_level(logging.DEBUG),
        TestClient(create_app(settings), raise_server_exceptions=False) as client,
    ):
        round_id, game_id = setup_round(client)
        hub = hub_of(client)
        with Session(hub.engine) as session:
            tokens = {role: create_token(session, user=f"{role} user", role=role) for role in ROLES}
            revoked = create_token(session, user="gone", role="admin")
            revoke_tokens(session, user="gone")
            session.commit()
        bearer = {role: {"Authorization": f"Bearer {value}"} for role, value in tokens.items()}

        # Work done with tokens, and what it leaves behind.
        answers.append(
            client.post(
                f"/api/games/{game_id}/result",
                json={"result": "1-0", "reason": "resigned"},
                headers=bearer["arbiter"],
            )
        )
        answers.append(client.get("/api/audit", headers=bearer["arbiter"]))
        answers.append(client.get("/api/me", headers=bearer["admin"]))
        answers.append(client.get(f"/api/rounds/{round_id}/games", headers=bearer["operator"]))
        # Streams with a token in their URL, valid and not.
        stream = f"/api/rounds/{round_id}/stream?token="
        with client.websocket_connect(stream + tokens["operator"]) as ws:
            answers.append(ws.receive_text())
        try:
            with client.websocket_connect(stream + revoked) as ws:
                ws.receive_text()
        except WebSocketDisconnect as closed:
            answers.append(f"{closed.code} {closed.reason}")
        # Malformed requests that carry a token.
        answers.append(
            client.post(
                f"/api/games/{game_id}/result",
                content=b'{"result": "\xff"}',
                headers={**bearer["arbiter"], "Content-Type": "application/json"},
            )
        )
        answers.append(
            client.post(f"/api/games/{game_id}/moves", json={"ply": "x"}, headers=bearer["admin"])
        )
        # A fault whose own message quotes a token.
        original = hub.views.round

        async def broken(round_id: int) -> Any:
            raise RuntimeError(f"went wrong near {tokens['arbiter']}")

        hub.views.round = broken  # type: ignore[method-assign]
        answers.append(client.get(f"/api/rounds/{round_id}/games", headers=bearer["arbiter"]))
        hub.views.round = original  # type: ignore[method-assign]

        # Refusals, last: a role too low, and a revoked token until the burst is logged.
        answers.append(client.post("/api/event", content="x", headers=bearer["operator"]))
        for _ in range(5):
            answers.append(client.get("/api/me", headers={"Authorization": f"Bearer {revoked}"}))

        with Session(hub.engine) as session:
            stored = [
                json.dumps(row.model_dump(), default=str)
                for model in (AuditEntry, GameEventRow, Token)
                for row in session.exec(select(model)).all()
            ]

    statuses = [answer.status_code for answer in answers if not isinstance(answer, str)]
    assert {200, 401, 403, 422, 429, 500} <= set(statuses)  # every path above was taken
    logged = [record.getMessage() for record in caplog.records]
    assert any("failed authentications from testclient" in line for line in logged)
    assert any(": 500, RuntimeError: went wrong near rly_..." in line for line in logged)
    assert any("audit" in row or "result" in row for row in stored)
    everything = "\n".join(
        [
            *logged,
            caplog.text,
            *stored,
            *(
                answer
                if isinstance(answer, str)
                else answer.text + json.dumps(dict(answer.headers))
                for answer in answers
            ),
        ]
    )
    for secret in [*tokens.values(), revoked]:
        assert secret not in everything
        assert secret.removeprefix("rly_") not in everything
