from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from relay.store.engine import open_store
from relay.store.event_log import append_events, last_seq, read_events, read_round_events
from relay.store.models import GameEventRow
from tests.pairings import paired_round

pytestmark = pytest.mark.both_stores


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path):
    engine = open_store(f"sqlite:///{tmp_path / 'relay.db'}")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        engine.dispose()


def test_events_numbered_per_game_and_read_back_after_reopening(engine):
    with Session(engine) as session:
        round_id, (a, b) = paired_round(session, games=2)
        first = append_events(
            session, game_id=a, events=[("move", {"uci": "e2e4"})], recorded_at=1.0
        )
        append_events(session, game_id=b, events=[("move", {"uci": "d2d4"})], recorded_at=1.5)
        second = append_events(
            session,
            game_id=a,
            events=[("move", {"uci": "e7e5"}), ("end", {"result": "1-0"})],
            recorded_at=2.0,
        )
        session.commit()
    assert [e.seq for e in first + second] == [1, 2, 3]
    reopened = open_store(str(engine.url.render_as_string(hide_password=False)))
    try:
        with Session(reopened) as session:
            log = read_events(session, game_id=a)
            assert [(e.seq, e.kind, e.data) for e in log] == [
                (1, "move", {"uci": "e2e4"}),
                (2, "move", {"uci": "e7e5"}),
                (3, "end", {"result": "1-0"}),
            ]
            assert [e.seq for e in read_events(session, game_id=a, after=1)] == [2, 3]
            assert last_seq(session, game_id=a) == 3
            assert last_seq(session, game_id=b) == 1
            logs = read_round_events(session, round_id=round_id)
            assert {game: [e.seq for e in events] for game, events in logs.items()} == {
                a: [1, 2, 3],
                b: [1],
            }
    finally:
        reopened.dispose()


def test_round_logs_include_games_without_events(engine):
    with Session(engine) as session:
        round_id, (a, b) = paired_round(session, games=2)
        append_events(session, game_id=b, events=[("move", {})], recorded_at=0.0)
        assert {g: len(e) for g, e in read_round_events(session, round_id=round_id).items()} == {
            a: 0,
            b: 1,
        }


def test_a_second_writer_cannot_fork_the_log(engine):
    with Session(engine) as session:
        _, (game,) = paired_round(session)
        append_events(session, game_id=game, events=[("move", {})], recorded_at=0.0)
        session.add(GameEventRow(game_id=game, seq=1, kind="move", data="{}", recorded_at=0.0))
        with pytest.raises(IntegrityError):
            session.commit()


def test_uncommitted_events_roll_back_with_their_transaction(engine):
    with Session(engine) as session:
        _, (game,) = paired_round(session)
        append_events(session, game_id=game, events=[("move", {})], recorded_at=0.0)
        session.rollback()
        assert read_events(session, game_id=game) == []
