from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from relay.api.app import create_app
from relay.config import Settings
from tests.stores import migrated_sqlite


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = Settings(db_url=migrated_sqlite(tmp_path / "api.db"))
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def still_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time that stands still a second into a minute: the rate limits' windows, which the
    limits library counts on ``time.time``, then hold every request of the test in one, so
    neither a slow machine nor the edge of a window changes what is counted."""
    now = (time.time() // 60) * 60 + 1
    monkeypatch.setattr(time, "time", lambda: now)
