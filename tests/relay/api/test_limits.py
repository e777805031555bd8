"""The limits that hold against a client that hammers the hub or guesses tokens: applied
before any token is checked, failed authentications far tighter than reads, valid staff
tokens generous but limited, streams per client bounded, the client behind a proxy the one
the trusted proxy names."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
from collections import Counter

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import relay.api.deps
from relay.api.app import create_app
from relay.api.limits import Limits, LimitSettings
from relay.config import Settings
from tests.live_server import LiveServer, live_server
from tests.relay.api.helpers import setup_round, token
from tests.stores import migrated_sqlite

INVENTED = {"Authorization": "Bearer rly_invented-by-someone-guessing"}


@pytest.fixture
def counted_lookups(monkeypatch) -> Counter[str]:
    """How often a token is looked up in the database."""
    calls: Counter[str] = Counter()
    identify = relay.api.deps.identify  # type: ignore[attr-defined]

    def counting(session, token):
        calls["lookups"] += 1
        return identify(session, token)

    monkeypatch.setattr(relay.api.deps, "identify", counting)
    return calls


def test_300_requests_with_an_invented_token_from_one_client_get_429s(
    tmp_path, caplog, counted_lookups
):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "limits.db"))  # the defaults
    with TestClient(create_app(settings)) as client, caplog.at_level(logging.WARNING):
        staff = token(client, "arbiter")
        codes = [client.get("/api/me", headers=INVENTED).status_code for _ in range(300)]
        # Refused before the token is looked at: a valid token from the client too ...
        assert client.get("/api/me", headers=staff).status_code == 429
        # ... but reading without a token goes on.
        assert client.get("/api/rounds").status_code == 200
        lookups = counted_lookups["lookups"]
    assert codes[: settings.auth_failures] == [401] * settings.auth_failures
    assert Counter(codes[settings.auth_failures :]) == {429: 300 - settings.auth_failures}
    # Each refused token was looked up twice (the limit, then the route); none after that.
    assert lookups == 2 * settings.auth_failures
    bursts = [r.getMessage() for r in caplog.records if r.name == "relay.api"]
    assert bursts == [
        "rate limit: 10 failed authentications from testclient within 60 s; its requests "
        "with a token are refused (429) until the window moves on"
    ]


def test_a_refused_answer_says_when_to_come_back(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "limits.db"), auth_failures=1)
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/rounds", headers=INVENTED).status_code == 401
        answer = client.get("/api/rounds", headers=INVENTED)
    assert answer.status_code == 429
    assert answer.json() == {"detail": "too many requests; slow down"}
    assert 1 <= int(answer.headers["retry-after"]) <= 60


def test_valid_staff_tokens_get_a_generous_limit_not_none(tmp_path, still_time):
    settings = Settings(
        db_url=migrated_sqlite(tmp_path / "limits.db"),
        rate_limit=0.1,  # windows of 30 s: a slow machine stays inside them
        rate_burst=3,
        staff_rate_limit=1,  # bursts of 30 in the same 30 s window
    )
    with TestClient(create_app(settings)) as client:
        setup_round(client)
        staff = token(client, "operator")
        public = [client.get("/api/rounds").status_code for _ in range(5)]
        codes = [client.get("/api/rounds", headers=staff).status_code for _ in range(40)]
    assert public == [200, 200, 200, 429, 429]
    assert codes[:30] == [200] * 30
    assert set(codes[30:]) == {429}


def test_limits_can_be_turned_off_for_tests_and_benchmarks(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "limits.db"), rate_limit=0)
    with TestClient(create_app(settings)) as client:
        codes = {client.get("/api/me", headers=INVENTED).status_code for _ in range(100)}
    assert codes == {401}


# -- the budgets, by client and by user ---------------------------------------------------------


def admitted(limits: Limits, client: str, token: str | None, users: dict[str, str]) -> bool:
    async def identify(token: str) -> str | None:
        return users.get(token)

    wait, _ = asyncio.run(limits.admit(client, token, identify))
    return wait == 0


def test_a_valid_tokens_budget_is_its_users_whatever_the_address():
    limits = Limits(LimitSettings(rate=1, burst=2, staff_rate=2, staff_burst=4))
    users = {"t1": "jane", "t2": "jane", "t3": "bob"}
    # Jane's two tokens from two addresses share one budget of 4.
    jane = [admitted(limits, f"10.0.0.{n}", f"t{n % 2 + 1}", users) for n in range(6)]
    assert jane == [True, True, True, True, False, False]
    assert admitted(limits, "10.0.0.1", "t3", users)  # Bob has his own
    # The public budget is the address's: 2 here, 2 there.
    assert [admitted(limits, "10.0.0.9", None, users) for _ in range(3)] == [True, True, False]
    assert admitted(limits, "10.0.0.8", None, users)


def test_failed_authentications_lock_the_address_only():
    limits = Limits(LimitSettings(failures=3, failure_window=60))
    for _ in range(3):
        assert admitted(limits, "10.0.0.1", "bad", {})
    assert not admitted(limits, "10.0.0.1", "bad", {})
    assert not admitted(limits, "10.0.0.1", "good", {"good": "jane"})
    assert admitted(limits, "10.0.0.1", None, {})
    assert admitted(limits, "10.0.0.2", "good", {"good": "jane"})


def test_a_token_revoked_after_it_was_seen_counts_as_a_failure():
    limits = Limits(LimitSettings(failures=1))
    assert admitted(limits, "10.0.0.1", "t", {"t": "jane"})
    limits.revoked("10.0.0.1", "t")
    assert not admitted(limits, "10.0.0.1", "t", {"t": "jane"})


def test_streams_per_client_are_counted_and_given_back():
    limits = Limits(LimitSettings(streams=2))
    assert limits.open_stream("a")
    assert limits.open_stream("a")
    assert not limits.open_stream("a")
    assert limits.open_stream("b")
    limits.close_stream("a")
    assert limits.open_stream("a")
    assert limits.streams_of("a") == 2


# -- streams ------------------------------------------------------------------------------------


def test_a_client_holds_a_bounded_number_of_streams(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "limits.db"), streams_per_client=2)
    with TestClient(create_app(settings)) as client:
        round_id, _ = setup_round(client)
        path = f"/api/rounds/{round_id}/stream"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            one.receive_text()
            two.receive_text()
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(path) as ws,
            ):
                ws.receive_text()
            assert refused.value.code == 1013
        with client.websocket_connect(path) as again:  # given back when they closed
            assert json.loads(again.receive_text())["type"] == "snapshot"


def test_a_stream_with_an_invented_token_counts_as_a_failed_authentication(tmp_path):
    settings = Settings(db_url=migrated_sqlite(tmp_path / "limits.db"), auth_failures=2)
    with TestClient(create_app(settings)) as client:
        round_id, _ = setup_round(client)
        path = f"/api/rounds/{round_id}/stream?token=rly_invented"
        codes = []
        for _ in range(4):
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(path) as ws:
                ws.receive_text()
            codes.append(closed.value.code)
    assert codes == [4401, 4401, 1013, 1013]


async def handshake(live: LiveServer, path: str, forwarded_for: str | None = None) -> bytes:
    """Open a stream by hand; the server's answer to the handshake (101 or an error)."""
    port = int(live.base.rsplit(":", 1)[1].split("/")[0])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16))
    extra = b"X-Forwarded-For: %s\r\n" % forwarded_for.encode() if forwarded_for else b""
    writer.write(
        b"GET %s HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n"
        % (path.encode(), key, extra)
    )
    with anyio.fail_after(5):
        head = await reader.readuntil(b"\r\n\r\n")
        if head.startswith(b"HTTP/1.1 101"):
            live.held.append(writer)  # type: ignore[attr-defined]
            return head
        body = await reader.read()
    writer.close()
    return head + body


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("proxy", "separate"),
    [(None, False), ("127.0.0.1", True), ("10.9.9.9", False)],
    ids=["no-proxy", "trusted-proxy", "untrusted-proxy"],
)
async def test_streams_are_bounded_per_client_as_the_trusted_proxy_names_it(
    tmp_path, proxy, separate
):
    async with live_server(
        tmp_path, rate_limit=20, streams_per_client=1, forwarded_allow_ips=proxy
    ) as live:
        live.held = []  # type: ignore[attr-defined]
        path = f"/api/rounds/{live.round_id}/stream"
        first = await handshake(live, path, forwarded_for="203.0.113.7")
        assert first.startswith(b"HTTP/1.1 101")
        # The same client again: over its bound.
        again = await handshake(live, path, forwarded_for="203.0.113.7")
        assert again.startswith(b"HTTP/1.1 429 ")
        detail = json.loads(again.partition(b"\r\n\r\n")[2])["detail"]
        shown = "203.0.113.7" if separate else "127.0.0.1"
        assert detail == f"too many streams open from {shown} (at most 1); close one first"
        # Another address, as the proxy says: a client of its own only behind a trusted proxy.
        other = await handshake(live, path, forwarded_for="198.51.100.2")
        assert other.startswith(b"HTTP/1.1 101") is separate
        for writer in live.held:  # type: ignore[attr-defined]
            writer.close()


def test_a_club_keys_requests_are_limited_like_the_publics(tmp_path, still_time):
    from sqlmodel import Session

    from relay.store.access import create_token
    from relay.store.clubs import create_club
    from tests.relay.api.helpers import hub_of

    settings = Settings(
        db_url=migrated_sqlite(tmp_path / "limits.db"),
        rate_limit=0.1,  # 3 in any 30 s
        rate_burst=3,
        staff_rate_limit=1,
    )
    with TestClient(create_app(settings)) as client:
        with Session(hub_of(client).engine) as session:
            club = create_club(session, name="Hexham CC").id
            key = create_token(session, user=f"club {club}: Captain", role="club-officer",
                               club_id=club)  # fmt: skip
            session.commit()
        headers = {"Authorization": f"Bearer {key}"}
        codes = [
            client.get(f"/api/clubs/{club}/members", headers=headers).status_code for _ in range(5)
        ]
        # ... counted by address: the public's reads from it are spent too.
        public = client.get("/api/rounds").status_code
    assert codes == [200, 200, 200, 429, 429]
    assert public == 429
