"""What every test shares: the hypothesis profile, the test tiers, the store.

The tiers (docs/testing.md): ``make check`` runs the tests that need no process of their own,
no browser and no server; ``make test`` runs them all, in parallel; ``make gate`` adds the
real-time corpus. A test's tier comes from its marks, some given here by where the test
lives or which store it runs on.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from tests import coverage_workers, hypothesis_profiles, tiers
from tests.stores import store_engine

hypothesis_profiles.load()

E2E = Path(__file__).resolve().parent / "e2e"


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist's controller starts its workers as processes: only the processes that
    # run tests (a worker, or pytest without -n) are guarded.
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        tiers.guard_inner_loop()
    coverage_workers.stop_the_unread_tracer(config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    browser = sys.modules.get("tests.browser")
    if browser is not None:  # only a process that ran a browser test has one to close
        browser.shared_browser.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(E2E):
            item.add_marker(pytest.mark.e2e)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("engine") == "postgresql":
            item.add_marker(pytest.mark.services)
    items[:] = longest_first(items)


#: The marks of files whose tests wait on real time, processes and browsers: they run first.
SLOW_MARKS = ("e2e", "browser", "processes", "gate")


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The files whose tests take longest first, each file's tests in their order.

    ``make test`` hands each file to one worker in this order (``--dist loadfile
    --no-loadscope-reorder``): files that play games in real time or start processes go
    first, so that the many short files fill the workers' last minutes instead of one long
    file running alone at the end (xdist's own order, by number of tests, did that).
    """
    slow: set[Path] = {
        item.path for item in items if any(item.get_closest_marker(m) for m in SLOW_MARKS)
    }
    return sorted(items, key=lambda item: item.path not in slow)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_stores"):
        metafunc.parametrize("engine", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A store with the schema at the head revision, copied from this process's template:
    a SQLite file in the test's folder or, for a test marked ``both_stores``, also a
    throwaway database on the local PostgreSQL."""
    with store_engine(getattr(request, "param", "sqlite"), tmp_path) as engine:
        yield engine


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
