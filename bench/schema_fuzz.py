"""The whole OpenAPI schema, fuzzed: property-based requests to every operation, with every
role's token, an invalid token and none, checked for what must hold whatever is sent.

Schemathesis (on Hypothesis) reads the app's own OpenAPI document and generates, per
operation, requests that fit it (positive) and requests that break it (negative: wrong
types, missing fields, junk bodies). Each is sent five times, once per identity, to an app
on a SQLite file holding a tournament with published and unpublished rounds. The checks:

* ``not_a_server_error``: no 5xx, whatever the input;
* ``response_schema_conformance``: every answer, errors included, matches the schema the
  document declares for it;
* no mutation without the role: a POST, PUT, PATCH or DELETE that succeeds (2xx) was sent
  with a token of the operation's role (``x-role``) or a higher one.

Generation is derandomized (Hypothesis' fixed seed), so a run is repeatable. The bounded
profile runs in ``make test`` (``tests/relay/api/test_schema_fuzz.py``); this module run as
a program is the long one. Prints requests sent and failures; never fails.

    .venv/bin/python -m bench.schema_fuzz [--examples 200] [--modes positive negative]
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import openapi
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.generation import GenerationMode
from schemathesis.generation.case import Case
from schemathesis.specs.openapi.checks import response_schema_conformance
from sqlmodel import Session

from relay.api.app import create_app
from relay.config import Settings
from relay.domain.formats.event_file import parse_event_file
from relay.store.access import ROLES, create_token, revoke_tokens
from relay.store.engine import open_store
from relay.store.setup import load_event

# PGN and event files are text: sent as text/plain is.
schemathesis.serializer.alias("application/x-chess-pgn", "text/plain")
schemathesis.serializer.alias("application/toml", "text/plain")

#: The identities every request is sent as: none, a token of no one, each role.
IDENTITIES = ("none", "invalid", *ROLES)
MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The ids the fixture's rows have (a generated id names one of them half the time).
KNOWN_IDS = (1, 2, 3, 4)

EVENT = """
[tournament]
name = "Fuzz Open"
rounds = 3
time_control = "90+30"

[[player]]
number = 1
name = "Moss, Mary"
rating = 2100

[[player]]
number = 2
name = "Lee, Hugo"
rating = 2000

[[player]]
number = 3
name = "Kay, Ann"
rating = 1900

[[player]]
number = 4
name = "Roe, Tom"
rating = 1800

[[round]]
number = 1
published = true
pairings = [[1, 2], [3, 4]]

[[round]]
number = 2
published = false
pairings = [[2, 3], [4, 1]]
"""


@dataclass
class Report:
    """What a fuzz run sent and found."""

    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    operations: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        server_errors = sum(n for status, n in self.statuses.items() if status >= 500)
        return (
            f"{self.operations} operations, {self.sent} requests in {self.seconds:.0f} s, "
            f"{server_errors} answered 5xx, {len(self.failures)} failures"
        )


def fuzz_app(folder: Path) -> tuple[Any, dict[str, dict[str, str]]]:
    """The app to fuzz, on a fresh SQLite file with a small event, and the headers of each
    identity. Limits are on but generous: the fuzz goes through them without being slowed."""
    db_url = f"sqlite:///{folder / 'fuzz.db'}"
    engine = open_store(db_url)
    headers: dict[str, dict[str, str]] = {"none": {}}
    with Session(engine) as session:
        load_event(session, parse_event_file(EVENT))
        session.commit()
        for role in ROLES:
            token = create_token(session, user=f"fuzz {role}", role=role)
            headers[role] = {"Authorization": f"Bearer {token}"}
        revoked = create_token(session, user="revoked", role="admin")
        revoke_tokens(session, user="revoked")
        session.commit()
        headers["invalid"] = {"Authorization": f"Bearer {revoked}"}
    engine.dispose()
    settings = Settings(
        db_url=db_url,
        rate_limit=1e6,
        rate_burst=1e6,
        staff_rate_limit=1e6,
        auth_failures=10**9,
    )
    return create_app(settings), headers


def _request_kwargs(case: Case[Any], headers: dict[str, str]) -> dict[str, Any]:
    """The case as the test client's request: schemathesis writes it for ``requests``."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver", headers=headers)
    kwargs.pop("timeout", None)
    kwargs.pop("allow_redirects", None)
    kwargs.pop("verify", None)
    data = kwargs.pop("data", None)
    if isinstance(data, bytes | str):
        kwargs["content"] = data
    elif data is not None:
        kwargs["data"] = data
    return kwargs


def role_problem(case: Case[Any], identity: str, status: int) -> str | None:
    """A mutation that succeeded without the role its operation needs."""
    if case.method.upper() not in MUTATING or not 200 <= status < 300:
        return None
    role = case.operation.definition.raw.get("x-role")
    if role is None:
        return f"{case.method} {case.path}: a mutation with no role (x-role) succeeded"
    if identity not in ROLES or ROLES.index(identity) < ROLES.index(role):
        return f"{case.method} {case.path}: {status} for {identity}, the route needs {role}"
    return None


def run(
    client: TestClient,
    headers: dict[str, dict[str, str]],
    *,
    examples: int,
    modes: tuple[GenerationMode, ...] = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE),
    report: Report | None = None,
    only: str = "",
) -> Report:
    """Fuzz every operation of the app behind ``client`` (those whose path is ``only``,
    if given)."""
    report = report or Report()
    started = time.perf_counter()
    schema = openapi.from_dict(client.app.openapi())  # type: ignore[attr-defined]
    checks = [not_a_server_error, response_schema_conformance]
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            report.failures.append(f"the schema has an operation that cannot be read: {result}")
            continue
        operation = result.ok()
        if only and operation.path != only:
            continue
        report.operations += 1
        for mode in modes:
            strategy = st.tuples(
                operation.as_strategy(generation_mode=mode),
                st.one_of(st.none(), st.sampled_from(KNOWN_IDS)),
            )

            @hypothesis.settings(
                max_examples=examples,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @hypothesis.given(strategy)
            def attempt(drawn: tuple[Case[Any], int | None]) -> None:
                case, known = drawn
                if known is not None and case.path_parameters:
                    for name in case.path_parameters:
                        if name.endswith("_id") or name in ("number", "start_number"):
                            case.path_parameters[name] = known
                for identity in IDENTITIES:
                    _send(client, case, identity, headers[identity], checks, report)

            with contextlib.suppress(Unsatisfiable):  # nothing to break: no parameters
                attempt()
    report.seconds += time.perf_counter() - started
    return report


def _send(
    client: TestClient,
    case: Case[Any],
    identity: str,
    headers: dict[str, str],
    checks: list[Any],
    report: Report,
) -> None:
    kwargs = _request_kwargs(case, headers)
    problems = []
    # A chunked feed never ends: its first chunk is read, and its status checked.
    with client.stream(**kwargs) as response:
        if response.status_code != 200 or not case.path.endswith("/stream.pgn"):
            response.read()
            try:
                case.validate_response(response, checks=checks, headers=headers)
            except FailureGroup as group:
                problems += [
                    f"{case.method} {case.formatted_path} as {identity}: {failure.title}: "
                    f"{response.status_code} {response.text[:300]}"
                    for failure in group.exceptions
                ]
        else:
            next(response.iter_bytes(), None)
    report.sent += 1
    report.statuses[response.status_code] += 1
    wrong = role_problem(case, identity, response.status_code)
    if wrong:
        problems.append(wrong)
    for problem in problems:
        if len(report.failures) < 200:
            report.failures.append(problem)


@contextlib.contextmanager
def fuzz_client(folder: Path) -> Iterator[tuple[TestClient, dict[str, dict[str, str]]]]:
    app, headers = fuzz_app(folder)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, headers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="per operation and mode")
    parser.add_argument(
        "--modes", nargs="+", default=["positive", "negative"], choices=["positive", "negative"]
    )
    args = parser.parse_args()
    modes = tuple(GenerationMode(mode) for mode in args.modes)
    with tempfile.TemporaryDirectory() as folder, fuzz_client(Path(folder)) as (client, headers):
        report = run(client, headers, examples=args.examples, modes=modes)
    print(
        f"schema fuzz, {args.examples} examples per operation and mode, "
        f"{'+'.join(args.modes)}: {report.summary()}"
    )
    print("statuses:", dict(sorted(report.statuses.items())))
    for failure in report.failures[:40]:
        print("  ", failure)


if __name__ == "__main__":
    main()
