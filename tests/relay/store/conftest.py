"""Store tests run on a SQLite file and, as ``[postgresql]``, on the local PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from tests.services import store_engine


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path) -> Iterator[Engine]:
    with store_engine(request.param, tmp_path) as engine:
        yield engine
