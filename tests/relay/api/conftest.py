from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from relay.api.app import create_app
from relay.config import Settings


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'api.db'}")
    with TestClient(create_app(settings)) as client:
        yield client
