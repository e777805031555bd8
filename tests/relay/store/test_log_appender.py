"""The live round's append path: the same numbering as :func:`append_events`, on SQLite and
PostgreSQL, through the driver's own connection."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from relay.store.event_log import append_events, read_events
from relay.store.log_appender import LogAppender
from tests.pairings import paired_round

pytestmark = pytest.mark.both_stores


def test_appends_continue_each_games_log_and_read_back(engine):
    with Session(engine) as session:
        _, (a, b) = paired_round(session, games=2)
        append_events(session, game_id=a, events=[("move", {"uci": "e2e4"})], recorded_at=1.0)
        session.commit()
    appender = LogAppender(engine)
    try:
        first = appender.append(
            game_id=a,
            events=[("move", {"uci": "e7e5", "clock": None}), ("claims", {"sides": ["w"]})],
            recorded_at=2.0,
        )
        other = appender.append(game_id=b, events=[("move", {"uci": "d2d4"})], recorded_at=2.5)
        nothing = appender.append(game_id=b, events=[], recorded_at=3.0)
    finally:
        appender.close()
    with Session(engine) as session:
        # A session's append after the appender's goes on from where it stopped.
        append_events(session, game_id=a, events=[("end", {"result": "1-0"})], recorded_at=4.0)
        log = read_events(session, game_id=a)
        log_b = read_events(session, game_id=b)
    assert [(e.seq, e.kind) for e in first] == [(2, "move"), (3, "claims")]
    assert [(e.game_id, e.seq) for e in other] == [(b, 1)]
    assert nothing == []
    assert [(e.seq, e.kind, e.data, e.recorded_at) for e in log] == [
        (1, "move", {"uci": "e2e4"}, 1.0),
        (2, "move", {"uci": "e7e5", "clock": None}, 2.0),
        (3, "claims", {"sides": ["w"]}, 2.0),
        (4, "end", {"result": "1-0"}, 4.0),
    ]
    assert [(e.seq, e.data) for e in log_b] == [(1, {"uci": "d2d4"})]


def test_a_refused_append_stores_nothing_and_the_next_one_goes_in(engine):
    with Session(engine) as session:
        _, (game,) = paired_round(session)
    appender = LogAppender(engine)
    refused = engine.dialect.loaded_dbapi.IntegrityError
    try:
        appender.append(game_id=game, events=[("move", {"uci": "e2e4"})], recorded_at=1.0)
        with pytest.raises(refused):  # no such game: the foreign key refuses the row
            appender.append(game_id=game + 1000, events=[("move", {})], recorded_at=2.0)
        after = appender.append(game_id=game, events=[("move", {"uci": "c7c5"})], recorded_at=3.0)
    finally:
        appender.close()
    with Session(engine) as session:
        assert [e.seq for e in read_events(session, game_id=game)] == [1, 2]
        assert read_events(session, game_id=game + 1000) == []
    assert [e.seq for e in after] == [2]


def test_the_appender_holds_one_connection_until_closed(engine):
    with Session(engine) as session:
        _, (game,) = paired_round(session)
    appender = LogAppender(engine)
    before = engine.pool.checkedout()
    for ply in range(1, 4):
        appender.append(game_id=game, events=[("move", {"ply": ply})], recorded_at=float(ply))
    assert engine.pool.checkedout() == before + 1
    appender.close()
    assert engine.pool.checkedout() == before
