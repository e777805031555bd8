from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from relay.store.engine import open_engine
from relay.store.games import (
    NotFoundError,
    append_events,
    create_game,
    create_round,
    create_tournament,
    get_game,
    list_games,
    list_rounds,
    read_events,
)
from relay.store.models import GameEventRow


def make_round(session: Session) -> int:
    tournament = create_tournament(session, name="Open", site="Here")
    assert tournament.id is not None
    round_ = create_round(session, tournament_id=tournament.id, number=1)
    assert round_.id is not None
    return round_.id


def test_sqlite_runs_in_wal_mode_with_full_sync(engine):
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_games_listed_in_board_order(engine):
    with Session(engine) as session:
        round_id = make_round(session)
        for board in (3, 1, 2):
            create_game(session, round_id=round_id, board=board, white=f"W{board}", black="B")
        assert [g.board for g in list_games(session, round_id=round_id)] == [1, 2, 3]
        assert [r.number for r in list_rounds(session)] == [1]
        with pytest.raises(NotFoundError):
            get_game(session, game_id=999)


def test_events_numbered_per_game_and_read_back_after_reopening(engine, tmp_path):
    with Session(engine) as session:
        round_id = make_round(session)
        a = create_game(session, round_id=round_id, board=1, white="A", black="B")
        b = create_game(session, round_id=round_id, board=2, white="C", black="D")
        a_id, b_id = a.id, b.id
        assert a_id is not None
        assert b_id is not None
        first = append_events(
            session, game_id=a_id, events=[("move", {"uci": "e2e4"})], recorded_at=1.0
        )
        append_events(session, game_id=b_id, events=[("move", {"uci": "d2d4"})], recorded_at=1.5)
        second = append_events(
            session,
            game_id=a_id,
            events=[("move", {"uci": "e7e5"}), ("end", {"result": "1-0"})],
            recorded_at=2.0,
        )
    assert [e.seq for e in first + second] == [1, 2, 3]
    # A new engine on the same file sees everything that was committed.
    reopened = open_engine(f"sqlite:///{tmp_path / 'relay.db'}")
    try:
        with Session(reopened) as session:
            events = read_events(session, game_id=a_id)
            assert [(e.seq, e.kind, e.data) for e in events] == [
                (1, "move", {"uci": "e2e4"}),
                (2, "move", {"uci": "e7e5"}),
                (3, "end", {"result": "1-0"}),
            ]
            assert [e.seq for e in read_events(session, game_id=a_id, after=2)] == [3]
            assert [e.seq for e in read_events(session, game_id=b_id)] == [1]
    finally:
        reopened.dispose()


def test_a_second_writer_cannot_fork_the_log(engine):
    with Session(engine) as session:
        round_id = make_round(session)
        game = create_game(session, round_id=round_id, board=1, white="A", black="B")
        assert game.id is not None
        append_events(session, game_id=game.id, events=[("move", {})], recorded_at=0.0)
        session.add(GameEventRow(game_id=game.id, seq=1, kind="move", data="{}", recorded_at=0.0))
        with pytest.raises(IntegrityError):
            session.commit()
