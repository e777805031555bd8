"""No input makes the hub answer 5xx: every route answers bad input with a 4xx and a JSON
body that says what was wrong, never quoting raw bytes back. A 5xx is kept for a real
fault, which logs one line with a request id that the answer carries too.

The routes and their parameters are read from the app, so a new route is covered as soon
as it exists.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine

from relay.api.app import create_app
from relay.api.route_roles import api_routes
from relay.config import Settings
from relay.domain.formats.trf import render_trf
from tests.relay.api.helpers import hub_of, setup_round, token
from tests.relay.api.test_imports_api import stored
from tests.relay.store.test_trf_import import SWISS_MANAGER_TRF16, club_open
from tests.stores import migrated_sqlite

MAX_BODY = 64 * 1024
#: Path values of every size and form.
ODD_IDS = [
    "0",
    "-1",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999",
    "-99999999999999999999",
    "1" * 5000,
    "1e3",
    "1.0",
    "0x10",
    " 1",
    "abc",
    "%00",
    "%FF",
    "%C3%28",
    "%EF%BC%91",  # a fullwidth digit one
    "..%2F..",
    "😀",
]
EVENT = (
    '[tournament]\nname = "Bad Input Open"\n\n[[player]]\nnumber = 1\nname = "Moss, Mary"\n\n'
    '[[player]]\nnumber = 2\nname = "Lee, Hugo"\n\n[[round]]\nnumber = 1\npairings = [[1, 2]]\n'
)
PGN = (
    '[Event "Bad Input Open"]\n[Round "1.1"]\n[White "Moss, Mary"]\n[Black "Lee, Hugo"]\n'
    '[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n'
)


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("bad-input")
    settings = Settings(
        db_url=migrated_sqlite(folder / "bad.db"), rate_limit=0, max_body_bytes=MAX_BODY
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        setup_round(client)
        yield client


@pytest.fixture(scope="module")
def admin(client) -> dict[str, str]:
    return token(client, "admin")


def assert_refused(answer: Any, where: str) -> dict[str, Any]:
    """A 4xx with a JSON object that says what was wrong, no raw bytes in it."""
    assert 400 <= answer.status_code < 500, f"{where}: {answer.status_code} {answer.text[:300]}"
    assert answer.headers["content-type"] == "application/json", where
    answer.content.decode("utf-8")  # valid UTF-8 throughout: bytes sent are escaped
    body = answer.json()
    assert isinstance(body, dict), where
    assert body["detail"], where
    return body


def routes(client: TestClient) -> list[tuple[str, APIRoute]]:
    found = [
        (method, route)
        for route in api_routes(client.app)  # type: ignore[arg-type]
        if isinstance(route, APIRoute)
        for method in sorted(route.methods or ())
    ]
    assert len(found) > 40
    return found


def ask(client: TestClient, method: str, path: str, **kwargs: Any) -> Any:
    """The answer to a request; of a feed that never ends (``stream.pgn``), the head only."""
    with client.stream(method, path, **kwargs) as answer:
        if answer.status_code >= 400 or not path.endswith("/stream.pgn"):
            answer.read()
        return answer


def with_value(template: str, value: str) -> str:
    """The route's path with ``value`` for every parameter but the first, which gets 1."""
    names = re.findall(r"\{(\w+)\}", template)
    path = template
    for n, name in enumerate(names):
        path = path.replace(f"{{{name}}}", value if n == len(names) - 1 else "1")
    return path


def test_path_values_of_any_size_or_form_are_refused_with_4xx(client, admin):
    for method, route in routes(client):
        if "{" not in route.path:
            continue
        for value in ODD_IDS:
            path = with_value(route.path, value)
            anonymous: dict[str, str] = {}
            for headers in (anonymous, admin):
                answer = ask(client, method, path, headers=headers, json={})
                if answer.status_code < 400:
                    continue  # "1.0" may well be read as the id 1
                body = assert_refused(answer, f"{method} {path}")
                assert "\ufffd" not in json.dumps(body), f"{method} {path}: bytes mangled"


@given(value=st.text(min_size=1, max_size=40), n=st.integers(min_value=0))
@settings(suppress_health_check=list(HealthCheck))
def test_any_text_in_any_path_parameter_is_never_a_server_error(client, admin, value, n):
    method, route = [r for r in routes(client) if "{" in r[1].path][n % 40]
    path = with_value(route.path, quote(value, safe=""))
    answer = ask(client, method, path, headers=admin, json={})
    assert answer.status_code < 500, f"{method} {path}: {answer.text[:300]}"
    if answer.status_code >= 400:
        assert_refused(answer, f"{method} {path}")


def body_routes(client: TestClient) -> list[tuple[str, APIRoute, str]]:
    """Routes that take a body, with the media type each expects."""
    found = []
    for method, route in routes(client):
        if route.body_field is not None:
            media = getattr(route.body_field.field_info, "media_type", "application/json")
            found.append((method, route, media))
    assert len(found) > 20
    return found


JUNK_BODIES: list[tuple[str, bytes]] = [
    ("application/json", b""),
    ("application/json", b"\xff\xfe\x00{"),
    ("application/json", b'{"result": "\xc3\x28"}'),
    ("application/json", b"{"),
    ("application/json", b"[" * 100_000),
    ("application/json", b'{"a":' * 900 + b"1" + b"}" * 900),
    ("application/json", b"[" * 500 + b"]" * 500),
    ("application/json", b'{"seconds": NaN, "ply": Infinity, "result": -Infinity}'),
    ("application/json", b"1" * 5000),
    ("application/json", b'"' + b"x" * 50_000 + b'"'),
    ("application/json", b"\x00\x01\x02\x03"),
    ("text/plain", b'{"result": "1-0"}'),
    ("application/x-www-form-urlencoded", b"result=1-0&reason=x"),
    ("multipart/form-data; boundary=xx", b"--xx\r\nContent-Disposition: form-data\r\n\r\n"),
    ("application/toml", b"\xff\xfe\x00\x01"),
    ("application/x-chess-pgn", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
    ("text/plain", b"\x00" * 100),
    ("", b"{}"),
    ("application/json; charset=latin-1", b'{"result": "1-0\xe9"}'),
    ("image/png", b"\x89PNG"),
]


def test_junk_bodies_of_every_kind_are_refused_with_4xx(client, admin):
    for method, route, _ in body_routes(client):
        path = with_value(route.path, "1")
        for content_type, content in JUNK_BODIES:
            headers = {**admin, "Content-Type": content_type} if content_type else admin
            answer = client.request(method, path, headers=headers, content=content)
            if answer.status_code < 400:
                continue  # an empty or optional body may be fine for some routes
            assert_refused(answer, f"{method} {path} ({content_type}, {content[:20]!r})")
            assert b"\xff" not in answer.content
            assert b"\x00" not in answer.content


def test_a_body_over_the_limit_is_413_with_the_limit_in_words(client, admin):
    huge = b'{"reason": "' + b"x" * (MAX_BODY + 1) + b'"}'
    for method, route, _ in body_routes(client):
        path = with_value(route.path, "1")
        answer = client.request(
            method, path, headers={**admin, "Content-Type": "application/json"}, content=huge
        )
        assert answer.status_code == 413, f"{method} {path}"
        assert (
            assert_refused(answer, path)["detail"] == f"the request body is over {MAX_BODY} bytes"
        )

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024

    answer = client.post(
        "/api/event", headers={**admin, "Content-Type": "application/toml"}, content=chunks()
    )
    assert answer.status_code == 413


def test_a_body_that_is_not_utf8_names_the_first_bad_byte(client, admin):
    answer = client.post(
        "/api/games/1/result",
        headers={**admin, "Content-Type": "application/json"},
        content=b'{"result": "1-0 \xff"}',
    )
    assert answer.json() == {"detail": "the body is not UTF-8: byte 0xff at offset 16"}
    answer = client.post(
        "/api/event", headers={**admin, "Content-Type": "application/toml"}, content=b"ab\xfe"
    )
    assert answer.status_code == 422
    (problem,) = answer.json()["detail"]
    assert problem["msg"] == "the body is not UTF-8: byte 0xfe at offset 2"
    assert problem["input"] == "ab\\xfe"


def test_what_was_sent_is_quoted_short_and_numbers_too_large_to_store_are_422(client, admin):
    answer = client.put(
        "/api/games/1/board", headers=admin, json={"eboard_id": 10**30, "x": "y" * 10_000}
    )
    assert answer.status_code == 422
    (problem,) = answer.json()["detail"]
    assert problem["loc"] == ["body", "eboard_id"]
    assert problem["input"].endswith("(a large number)")
    answer = client.get("/api/rounds/99999999999999999999")
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["path", "round_id"]


# -- files -------------------------------------------------------------------------------------

FILES = {
    "/api/event": ("application/toml", EVENT),
    "/api/tournaments.trf": ("text/plain", render_trf(club_open())),
    "/api/tournaments.pgn": ("application/x-chess-pgn", PGN),
    "/api/rounds/1/games.pgn": ("application/x-chess-pgn", PGN),
}


def post_file(client: TestClient, admin: dict[str, str], path: str, content: bytes) -> Any:
    media, _ = FILES[path]
    return client.post(path, headers={**admin, "Content-Type": media}, content=content)


@given(
    path=st.sampled_from(sorted(FILES)),
    cut=st.floats(min_value=0, max_value=1, exclude_max=True),
    junk=st.binary(max_size=64),
)
@settings(suppress_health_check=list(HealthCheck))
def test_truncated_files_and_files_with_junk_are_never_a_server_error(
    client, admin, path, cut, junk
):
    text = FILES[path][1].encode()
    at = int(len(text) * cut)
    for content in (text[:at], text[:at] + junk + text[at:], junk):
        answer = post_file(client, admin, path, content)
        assert answer.status_code < 500, f"{path} {content[:80]!r}: {answer.text[:300]}"
        if answer.status_code >= 400:
            assert_refused(answer, path)


@pytest.mark.parametrize("path", sorted(FILES))
def test_a_binary_file_is_refused_naming_its_first_control_character(client, admin, path):
    before = stored(client)
    text = FILES[path][1]
    content = (text[:40] + "\x00\x01binary" + text[40:]).encode()
    answer = post_file(client, admin, path, content)
    assert answer.status_code == 422
    body = answer.json()
    assert "control character U+0000: this is a binary file, not text" in body["detail"]
    assert body["errors"][0]["line"] == text[:40].count("\n") + 1
    assert stored(client) == before


def test_self_contradictory_files_are_refused_and_store_nothing(client, admin):
    before = stored(client)
    twice = EVENT.replace(
        'name = "Lee, Hugo"', 'name = "Moss, Mary"\n[[player]]\nnumber = 1\nname = "X, Y"'
    )
    unknown = EVENT.replace("pairings = [[1, 2]]", "pairings = [[1, 9], [2, 2]]")
    assert post_file(client, admin, "/api/event", twice.encode()).status_code == 422
    assert post_file(client, admin, "/api/event", unknown.encode()).status_code == 422
    real = SWISS_MANAGER_TRF16.read_text(encoding="utf-8")
    lines = real.splitlines()
    # A player who meets someone absent from the file, and one listed twice.
    broken = "\n".join([*lines, lines[-1]]) + "\n"
    answer = post_file(client, admin, "/api/tournaments.trf", broken.encode())
    assert answer.status_code in (409, 422)
    assert_refused(answer, "TRF")
    # Mary Moss twice in round 1, in an event of a name of its own (a taken name would be
    # refused as such, whatever the games).
    twice_in_a_round = (PGN + PGN.replace("Lee, Hugo", "Kay, Ann")).replace(
        "Bad Input Open", "Bad Input Rapid"
    )
    answer = post_file(client, admin, "/api/tournaments.pgn", twice_in_a_round.encode())
    assert answer.status_code == 409
    assert "round 1: Moss, Mary plays twice" in assert_refused(answer, "PGN")["detail"]
    assert stored(client) == before


# -- faults ------------------------------------------------------------------------------------


def test_a_fault_is_500_with_a_request_id_in_the_answer_and_one_log_line(client, caplog):
    hub = hub_of(client)
    original = hub.views.round

    async def broken(round_id: int) -> Any:
        raise RuntimeError("a bug\nwith a second line and rly_secrettokenvalue")

    hub.views.round = broken  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.INFO, logger="relay"):
            answer = client.get("/api/rounds/1/games")
    finally:
        hub.views.round = original  # type: ignore[method-assign]
    assert answer.status_code == 500
    request_id = answer.json()["request_id"]
    assert answer.headers["x-request-id"] == request_id
    assert re.fullmatch(r"[0-9a-f]{12}", request_id)
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [f"request {request_id}: GET /api/rounds/1/games: 500, RuntimeError: a bug"]


def test_a_database_that_cannot_be_reached_is_503_not_a_crash(client, caplog):
    hub = hub_of(client)
    working = hub.engine
    hub.engine = create_engine("sqlite:////nonexistent-folder/relay.db")
    try:
        with caplog.at_level(logging.ERROR, logger="relay"):
            answer = client.get("/api/tournaments")
    finally:
        hub.engine.dispose()
        hub.engine = working
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "5"
    body = answer.json()
    assert body["detail"] == "the database cannot be reached now; try again shortly"
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.startswith(f"request {body['request_id']}: GET /api/tournaments: 503, ")
