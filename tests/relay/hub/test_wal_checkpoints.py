"""The hub's checkpoint timer: it runs, reports, and outlives failures."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest
from sqlmodel import Session

from relay.hub.wal_checkpoints import checkpoint_every
from relay.store.checkpoints import Checkpoint
from relay.store.engine import open_engine, open_store
from relay.store.event_log import append_events
from tests.pairings import paired_round


@pytest.mark.anyio
async def test_the_timer_moves_the_log_into_the_database_file(tmp_path):
    database = tmp_path / "relay.db"
    engine = open_store(f"sqlite:///{database}")
    with Session(engine) as session:
        _, (game,) = paired_round(session, games=1)
        events = [("move", {"ply": ply}) for ply in range(1, 21)]
        append_events(session, game_id=game, events=events, recorded_at=1.0)
        session.commit()
    seen: list[Checkpoint] = []
    copied = asyncio.Event()

    def on_checkpoint(done: Checkpoint) -> None:
        seen.append(done)
        if done.complete and done.log_pages > 0:
            copied.set()

    timer = asyncio.create_task(checkpoint_every(engine, 0.01, on_checkpoint=on_checkpoint))
    try:
        await asyncio.wait_for(copied.wait(), timeout=30)
    finally:
        timer.cancel()
        await asyncio.gather(timer, return_exceptions=True)
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())  # the file alone, without its log
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT count(*) FROM game_event").fetchone() == (20,)
    assert seen[0].complete
    engine.dispose()


class _Errors(logging.Handler):
    def __init__(self, wanted: int) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []
        self.enough = asyncio.Event()
        self._wanted = wanted

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
        if len(self.messages) >= self._wanted:
            self.enough.set()


@pytest.mark.anyio
async def test_a_failed_checkpoint_is_logged_and_tried_again(tmp_path: Path):
    engine = open_engine(f"sqlite:///{tmp_path / 'gone' / 'relay.db'}")  # no such folder
    errors = _Errors(wanted=2)
    logger = logging.getLogger("relay.hub.wal_checkpoints")
    logger.addHandler(errors)
    called: list[Checkpoint] = []
    timer = asyncio.create_task(checkpoint_every(engine, 0.01, on_checkpoint=called.append))
    try:
        await asyncio.wait_for(errors.enough.wait(), timeout=30)
    finally:
        timer.cancel()
        await asyncio.gather(timer, return_exceptions=True)
        logger.removeHandler(errors)
        engine.dispose()
    assert all("checkpoint of the database failed" in m for m in errors.messages)
    assert called == []
