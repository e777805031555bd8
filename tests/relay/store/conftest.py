from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from relay.store.engine import create_schema, open_engine


@pytest.fixture
def engine(tmp_path) -> Iterator[Engine]:
    engine = open_engine(f"sqlite:///{tmp_path / 'relay.db'}")
    create_schema(engine)
    yield engine
    engine.dispose()
