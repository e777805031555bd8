"""SQLite checkpoints: the commit no longer copies the log; :func:`checkpoint` does."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session

from relay.store.checkpoints import BACKSTOP_PAGES, checkpoint, is_sqlite
from relay.store.engine import open_store
from relay.store.event_log import append_events
from tests.pairings import paired_round

pytestmark = pytest.mark.both_stores


def rows_in_file_alone(database: Path, copy: Path) -> int:
    """Events in the database file without its log: what has been checkpointed."""
    shutil.copyfile(database, copy)
    with sqlite3.connect(copy) as connection:
        (count,) = connection.execute("SELECT count(*) FROM game_event").fetchone()
    copy.unlink()
    return int(count)


def test_commits_leave_the_log_to_the_checkpoint(tmp_path):
    database = tmp_path / "relay.db"
    engine = open_store(f"sqlite:///{database}")
    try:
        assert is_sqlite(engine)
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA wal_autocheckpoint")).scalar() == BACKSTOP_PAGES
        with Session(engine) as session:
            _, (game,) = paired_round(session, games=1)
        first = checkpoint(engine)  # the setup's own pages
        assert first.complete
        with Session(engine) as session:
            for ply in range(1, 61):
                event = ("move", {"ply": ply, "uci": "e2e4"})
                append_events(session, game_id=game, events=[event], recorded_at=float(ply))
                session.commit()
        # Sixty commits are all in the log; the database file has none of them yet.
        assert rows_in_file_alone(database, tmp_path / "copy.db") == 0
        done = checkpoint(engine)
        assert done.complete
        assert done.log_pages >= 60
        assert rows_in_file_alone(database, tmp_path / "copy.db") == 60
    finally:
        engine.dispose()
