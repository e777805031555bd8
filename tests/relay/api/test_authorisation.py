"""Who may do what, generated from the app's own routes, not from a list kept by hand.

Every route that changes something must name its role (a ``RoleCheck`` among its
dependencies); each such route, and every read that needs a role, is tried with no token, a
revoked token and a token of each role. Every websocket is tried the same way. A round with
a transmission delay shows its moves on no anonymous route, feed, PGN, websocket or page
until the delay has passed, and then on the routes that show moves.

The values given to path parameters are the only table here: a route with a parameter it
does not know fails the test until the parameter is added.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from sqlmodel import Session
from starlette.routing import Route
from starlette.websockets import WebSocketDisconnect

from relay.api.app import create_app
from relay.api.route_roles import MUTATING, api_routes, role_of
from relay.config import Settings
from relay.store.access import ROLES, create_token, revoke_tokens
from tests.pairings import paired_round
from tests.relay.api.helpers import hub_of, play
from tests.stores import migrated_sqlite

#: The moves the delayed round's game has: none of these may reach the public early.
MOVES = ("Nf3", "Nc6", "g3")
SECRETS = ("Nf3", "Nc6", "g1f3", "b8c6", "5N2", "2n5")
DELAY = 900


class World:
    """A tournament with a published delayed round (moves played), an unpublished round,
    and a token for each identity."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        hub = hub_of(client)
        with Session(hub.engine) as session:
            self.round_id, (self.game_id, *_) = paired_round(
                session, games=2, ports=["sim://1", "sim://2"], delay=DELAY
            )
            self.hidden_round_id, (self.hidden_game_id, *_) = paired_round(
                session, games=1, name="Hidden Open", published=False
            )
            self.headers: dict[str, dict[str, str]] = {"none": {}}
            for role in ROLES:
                token = create_token(session, user=f"{role} user", role=role)
                self.headers[role] = {"Authorization": f"Bearer {token}"}
            revoked = create_token(session, user="gone", role="admin")
            revoke_tokens(session, user="gone")
            session.commit()
            self.headers["revoked"] = {"Authorization": f"Bearer {revoked}"}
        play(client, self.round_id, self.game_id, *MOVES)
        for tournament_id in (1, 2):  # the LiveChess feed, of the delayed and the hidden round
            hub.outputs.enable_livechess(tournament_id)

    def values(self, hidden: bool = False) -> dict[str, str]:
        """A value for every path parameter the API has."""
        round_id = self.hidden_round_id if hidden else self.round_id
        game_id = self.hidden_game_id if hidden else self.game_id
        return {
            "game_id": str(game_id),
            "round_id": str(round_id),
            "tournament_id": "2" if hidden else "1",
            "eboard_id": "1",
            "start_number": "1",
            "number": "2",
            "round_number": "1",
            "board": "1",
            "token": "no-such-change",
            # Club ladders (docs/ladders.md): the club routes admit the admin (and club keys,
            # tested in test_ladders_api.py); no club exists here, so the admin gets a 4xx.
            "club_id": "1",
            "ladder_id": "1",
            "member_id": "1",
            "club_game_id": "1",
        }

    def path(self, template: str, hidden: bool = False) -> str:
        values = self.values(hidden)

        def value(found: re.Match[str]) -> str:
            name = found[1]
            assert name in values, f"{template}: no test value for {{{name}}}; add one here"
            return values[name]

        return re.sub(r"\{(\w+)\}", value, template)


@pytest.fixture
def world(tmp_path) -> Iterator[World]:
    # A stream with nothing to send pings soon: what it sends first comes before that.
    settings = Settings(
        db_url=migrated_sqlite(tmp_path / "matrix.db"), rate_limit=0, heartbeat_seconds=0.2
    )
    with TestClient(create_app(settings)) as client:
        yield World(client)


def http_routes(client: TestClient) -> list[APIRoute]:
    return [r for r in api_routes(client.app) if isinstance(r, APIRoute)]  # type: ignore[arg-type]


def test_every_route_that_changes_anything_names_its_role(world):
    routes = http_routes(world.client)
    mutating = [(m, r) for r in routes for m in sorted(r.methods or ()) if m in MUTATING]
    assert len(mutating) > 25
    unnamed = [
        f"{method} {route.path}" for method, route in mutating if not role_of(route.dependant)
    ]
    assert unnamed == [], "routes that change something without a role (add OperatorDep, ...)"


def allowed(identity: str, role: str) -> bool:
    return identity in ROLES and ROLES.index(identity) >= ROLES.index(role)


def test_each_guarded_route_admits_its_role_and_up_and_no_one_else(world):
    client = world.client
    tried = 0
    for route in http_routes(client):
        role = role_of(route.dependant)
        if role is None:
            continue
        for method in sorted(route.methods or ()):
            path = world.path(route.path)
            for identity in ("none", "revoked", *ROLES):
                answer = client.request(method, path, headers=world.headers[identity], json={})
                where = f"{method} {route.path} as {identity}"
                if allowed(identity, role):
                    assert answer.status_code not in (401, 403), where
                    # 503: something it needs cannot be reached (the boards' ports here).
                    assert answer.status_code < 500 or answer.status_code == 503, answer.text
                elif identity in ("none", "revoked"):
                    assert answer.status_code == 401, where
                    assert answer.headers["www-authenticate"] == "Bearer"
                else:
                    assert answer.status_code == 403, where
                    assert f"this needs {role}" in answer.json()["detail"]
                tried += 1
    assert tried >= 30 * 5


def websocket_routes(client: TestClient) -> list[APIWebSocketRoute]:
    """The streams: every websocket but the venue agents' link, whose roles are tested in
    ``test_agent_link_api.py``."""
    routes = [r for r in api_routes(client.app) if isinstance(r, APIWebSocketRoute)]  # type: ignore[arg-type]
    streams = [r for r in routes if r.path != "/api/agent"]
    assert len(streams) == len(routes) - 1 >= 2
    return streams


def close_code(client: TestClient, path: str) -> int | None:
    """How a stream answers: None when it sends its first message, else its close code."""
    try:
        with client.websocket_connect(path) as ws:
            ws.receive_text()
            return None
    except WebSocketDisconnect as closed:
        return closed.code


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


def test_every_websocket_hides_unpublished_rounds_from_the_public_and_refuses_bad_tokens(world):
    client = world.client
    for route in websocket_routes(client):
        hidden = world.path(route.path, hidden=True)
        assert close_code(client, hidden) == 4404, route.path
        revoked = token_of(world.headers["revoked"])
        assert close_code(client, f"{hidden}?token={revoked}") == 4401, route.path
        for role in ROLES:
            token = token_of(world.headers[role])
            assert close_code(client, f"{hidden}?token={token}") is None, (route.path, role)
        # Streams take no commands: whatever a client sends changes nothing and is ignored.
        with client.websocket_connect(world.path(route.path)) as ws:
            ws.receive_text()
            ws.send_text(json.dumps({"type": "result", "result": "1-0"}))
        game = client.get(f"/api/games/{world.game_id}", headers=world.headers["admin"]).json()
        assert game["result"] == "*"


# -- the delay --------------------------------------------------------------------------------


def anonymous_reads(world: World) -> Iterator[tuple[str, str]]:
    """Every route the public may read (its template and a path), pages included."""
    client = world.client
    for route in http_routes(client):
        if "GET" in (route.methods or ()) and role_of(route.dependant) is None:
            yield route.path, world.path(route.path)
    app_routes = client.app.routes  # type: ignore[attr-defined]
    pages = Path(hub_of(client).settings.web_dir)
    for route in app_routes:
        if isinstance(route, Route) and not isinstance(route, APIRoute):
            continue
        if isinstance(route, APIRoute) and route.path in ("/", "/{page}"):
            names = [""] if route.path == "/" else [p.stem for p in pages.glob("*.html")]
            for name in names:
                yield route.path, f"/{name}"


def read(client: TestClient, template: str, path: str) -> str:
    """What the public gets at ``path``; the first chunk of a feed that never ends."""
    if template.endswith("/stream.pgn"):
        with client.stream("GET", path) as answer:
            assert answer.status_code == 200
            return next(answer.iter_text())
    answer = client.get(path)
    assert answer.status_code < 500, f"{path}: {answer.text}"
    return answer.text


def leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def streamed(client: TestClient, path: str) -> str:
    """Everything a stream sends on joining: its messages before the first ping."""
    messages = []
    with client.websocket_connect(path) as ws:
        while (message := ws.receive_text()) != json.dumps({"type": "ping"}):
            messages.append(message)
    return "\n".join(messages)


def test_a_delayed_rounds_moves_reach_the_public_nowhere_until_the_delay_has_passed(
    world, monkeypatch
):
    client = world.client
    staff = world.headers["arbiter"]
    # The staff see the moves live, so the secrets are the right ones to look for.
    assert leaks(client.get(f"/api/games/{world.game_id}", headers=staff).text)
    reads = list(anonymous_reads(world))
    assert len(reads) > 20
    for template, path in reads:
        assert leaks(read(client, template, path)) == [], f"{template} shows the moves early"
    for route in websocket_routes(client):
        path = world.path(route.path)
        assert leaks(streamed(client, path)) == [], f"{route.path} shows the moves early"

    later = time.time() + DELAY + 5
    monkeypatch.setattr(time, "time", lambda: later)
    showing = {template for template, path in reads if leaks(read(client, template, path))}
    assert {
        "/api/games/{game_id}",
        "/api/games/{game_id}.pgn",
        "/api/rounds/{round_id}/games",
        "/api/rounds/{round_id}/games.pgn",
        "/api/rounds/{round_id}/stream.pgn",
        "/api/tournaments/{tournament_id}/games.pgn",
        "/livechess/{tournament_id}/round-{round_number}/game-{board}.json",
    } <= showing
    for route in websocket_routes(client):
        assert leaks(streamed(client, world.path(route.path))), route.path
