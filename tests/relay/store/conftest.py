"""Store tests run on a SQLite file and, as ``[postgresql]``, on the local PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from relay.store.engine import open_store
from tests.services import postgres_database


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path) -> Iterator[Engine]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'relay.db'}"
        engine = open_store(url)
        yield engine
        engine.dispose()
    else:
        with postgres_database() as url:
            engine = open_store(url)
            yield engine
            engine.dispose()
