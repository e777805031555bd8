"""The bounded profile of the schema fuzz (``bench.schema_fuzz``): every operation of the
OpenAPI document, positive and negative, with every role's token, an invalid token and
none, derandomized. No 5xx, every answer as the document declares it, no mutation without
its role. The long profile is ``python -m bench.schema_fuzz`` (figures in the README).

How many examples each operation gets follows the Hypothesis profile
(``tests/hypothesis_profiles.py``): one a mode in ``dev`` (``make check``), five in ``ci``
(``make test``: about 6,000 requests), fifty in ``thorough``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import settings

from bench.schema_fuzz import IDENTITIES, fuzz_client, role_problem, run
from tests.relay.api.helpers import hub_of


def examples() -> int:
    """Examples per operation and generation mode: a twentieth of the profile's."""
    return max(1, settings().max_examples // 20)


def test_no_input_to_any_operation_as_anyone_is_a_5xx_or_off_schema(tmp_path):
    with fuzz_client(tmp_path) as (client, headers):
        operations = len(client.app.openapi()["paths"])  # type: ignore[attr-defined]
        report = run(client, headers, examples=examples())
    assert report.failures == []
    assert not [status for status in report.statuses if status >= 500]
    assert report.operations >= operations >= 40
    # At least one request per operation, mode and identity (an operation with nothing to
    # break has no negative case).
    assert report.sent >= report.operations * len(IDENTITIES)
    # Every identity got through to something, and was refused something.
    assert {200, 401, 403, 404, 422} <= set(report.statuses)


def test_the_fuzz_finds_a_server_error_when_there_is_one(tmp_path):
    with fuzz_client(tmp_path) as (client, headers):

        async def broken(game_id: int) -> Any:
            raise RuntimeError("planted")

        hub_of(client).views.game = broken  # type: ignore[method-assign]
        report = run(client, headers, examples=3, only="/api/games/{game_id}")
    assert report.operations == 1
    assert report.statuses[500] > 0
    assert any("Server error" in failure for failure in report.failures)


def operation(method: str, role: str | None) -> Any:
    raw = {} if role is None else {"x-role": role}
    return SimpleNamespace(
        method=method, path="/api/x", operation=SimpleNamespace(definition=SimpleNamespace(raw=raw))
    )


def test_a_mutation_that_succeeds_without_its_role_is_a_failure():
    assert role_problem(operation("POST", "arbiter"), "arbiter", 200) is None
    assert role_problem(operation("POST", "arbiter"), "admin", 201) is None
    assert role_problem(operation("POST", "arbiter"), "operator", 401) is None
    assert role_problem(operation("GET", None), "none", 200) is None
    assert role_problem(operation("POST", "arbiter"), "operator", 200) == (
        "POST /api/x: 200 for operator, the route needs arbiter"
    )
    assert role_problem(operation("PUT", "operator"), "invalid", 204) is not None
    assert role_problem(operation("DELETE", None), "admin", 200) == (
        "DELETE /api/x: a mutation with no role (x-role) succeeded"
    )
