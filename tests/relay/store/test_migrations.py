"""The migrations build exactly the tables the models describe, on SQLite and PostgreSQL,
and carry a database of the first schema, and of every revision since, forward without
losing a row. (Every other test's store is a copy of a database these migrations built:
tests/stores.py.)"""

from __future__ import annotations

import datetime
import json
import sqlite3

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlmodel import Session, SQLModel

from relay.store.engine import open_store
from relay.store.event_log import read_events
from relay.store.schema import MIGRATIONS, current_revision, head_revision, upgrade
from relay.store.tournaments import game_pairing, list_players
from tests.stores import empty_store

pytestmark = pytest.mark.both_stores


def test_migrated_schema_matches_the_models(engine):
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, SQLModel.metadata)
    assert differences == []
    assert current_revision(engine) == head_revision()


def test_opening_again_changes_nothing(engine):
    url = engine.url.render_as_string(hide_password=False)
    again = open_store(url)
    try:
        assert current_revision(again) == head_revision()
    finally:
        again.dispose()


# As SQLAlchemy's create_all wrote it for the first releases.
FIRST_SCHEMA = """
CREATE TABLE tournament (id INTEGER NOT NULL, name VARCHAR NOT NULL, site VARCHAR NOT NULL,
    start_date DATE, PRIMARY KEY (id));
CREATE TABLE round (id INTEGER NOT NULL, tournament_id INTEGER NOT NULL, number INTEGER NOT NULL,
    PRIMARY KEY (id), UNIQUE (tournament_id, number),
    FOREIGN KEY(tournament_id) REFERENCES tournament (id));
CREATE INDEX ix_round_tournament_id ON round (tournament_id);
CREATE TABLE game (id INTEGER NOT NULL, round_id INTEGER NOT NULL, board INTEGER NOT NULL,
    white VARCHAR NOT NULL, black VARCHAR NOT NULL, white_elo INTEGER, black_elo INTEGER,
    PRIMARY KEY (id), UNIQUE (round_id, board), FOREIGN KEY(round_id) REFERENCES round (id));
CREATE INDEX ix_game_round_id ON game (round_id);
CREATE TABLE game_event (id INTEGER NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    kind VARCHAR NOT NULL, data VARCHAR NOT NULL, recorded_at FLOAT NOT NULL,
    PRIMARY KEY (id), UNIQUE (game_id, seq), FOREIGN KEY(game_id) REFERENCES game (id));
CREATE INDEX ix_game_event_game_id ON game_event (game_id);
"""


def test_a_database_made_before_migrations_is_carried_forward(tmp_path):
    # The schema as the first releases created it (no alembic_version table), with games.
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        old.executescript(FIRST_SCHEMA)
        old.execute("INSERT INTO tournament VALUES (1, 'Old Open', 'Here', NULL)")
        old.execute("INSERT INTO round VALUES (1, 1, 1)")
        old.execute("INSERT INTO round VALUES (2, 1, 2)")
        old.execute("INSERT INTO game VALUES (1, 1, 1, 'Moss, M', 'Lee, H', 1500, NULL)")
        old.execute("INSERT INTO game VALUES (2, 2, 1, 'Lee, H', 'Moss, M', NULL, 1500)")
        for seq, uci in enumerate(["e2e4", "e7e5", "g1f3"], start=1):
            data = json.dumps({"ply": seq, "uci": uci, "san": "?", "fen": "?", "at": 1.0})
            old.execute(
                "INSERT INTO game_event (game_id, seq, kind, data, recorded_at)"
                " VALUES (1, ?, 'move', ?, 1.0)",
                (seq, data),
            )
    engine = open_store(f"sqlite:///{path}")
    try:
        assert current_revision(engine) == head_revision()
        with Session(engine) as session:
            players = list_players(session, tournament_id=1)
            assert [(p.start_number, p.name, p.rating) for p in players] == [
                (1, "Moss, M", 1500),
                (2, "Lee, H", None),
            ]
            second = game_pairing(session, game_id=2)
            assert (second.white.name, second.black.name) == ("Lee, H", "Moss, M")
            assert [e.data["uci"] for e in read_events(session, game_id=1)] == [
                "e2e4",
                "e7e5",
                "g1f3",
            ]
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert compare_metadata(context, SQLModel.metadata) == []
    finally:
        engine.dispose()


def test_boards_stored_before_clock_settings_are_auto(tmp_path):
    url = f"sqlite:///{tmp_path / 'r3.db'}"
    old = create_engine(url)
    try:
        upgrade(old, "0003")
        with old.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO tournament (id, name, site) VALUES (1, 'T', '?')"
            )
            connection.exec_driver_sql(
                "INSERT INTO eboard (tournament_id, number, driver, url) VALUES (1, 1, 'dgt', 'x')"
            )
    finally:
        old.dispose()
    engine = open_store(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT number, clock FROM eboard").all()
        assert [tuple(row) for row in rows] == [(1, "auto")]
    finally:
        engine.dispose()


def test_boards_stored_before_file_settings_were_kept_take_their_own(tmp_path):
    """A board stored before revision 0013 counts as loaded with its port and clock setting:
    the same event file loaded again changes nothing, an edited one is applied."""
    url = f"sqlite:///{tmp_path / 'r12.db'}"
    old = create_engine(url)
    try:
        upgrade(old, "0012")
        with old.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO tournament (id, name, site) VALUES (1, 'T', '?')"
            )
            connection.exec_driver_sql(
                "INSERT INTO eboard (tournament_id, number, driver, url, clock)"
                " VALUES (1, 1, 'dgt', '/dev/ttyACM0', 'white-right')"
            )
    finally:
        old.dispose()
    engine = open_store(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT loaded_url, loaded_clock FROM eboard").all()
        assert [tuple(row) for row in rows] == [("/dev/ttyACM0", "white-right")]
    finally:
        engine.dispose()


def test_tournaments_stored_before_editions_name_none(tmp_path):
    # None: the C.07 edition in force at the tournament's start date.
    url = f"sqlite:///{tmp_path / 'r4.db'}"
    old = create_engine(url)
    try:
        upgrade(old, "0004")
        with old.begin() as connection:
            connection.exec_driver_sql(
                "INSERT INTO tournament (id, name, site, tie_breaks) VALUES (1, 'T', '?', 'SB')"
            )
    finally:
        old.dispose()
    engine = open_store(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql(
                "SELECT tie_breaks, tie_break_edition FROM tournament"
            ).all()
        assert [tuple(row) for row in rows] == [("SB", None)]
    finally:
        engine.dispose()


def test_club_tags_of_deleted_games_are_cleared(tmp_path):
    # Before 0011, replacing pairings left club games tagged with the deleted games' ids.
    url = f"sqlite:///{tmp_path / 'r10.db'}"
    old = create_engine(url)
    try:
        upgrade(old, "0010")
        with old.begin() as connection:
            sql = connection.exec_driver_sql
            sql("INSERT INTO tournament (id, name, site) VALUES (1, 'T', '?')")
            sql(
                "INSERT INTO player (id, tournament_id, start_number, name)"
                " VALUES (1, 1, 1, 'A'), (2, 1, 2, 'B')"
            )
            sql("INSERT INTO round (id, tournament_id, number) VALUES (1, 1, 1)")
            sql("INSERT INTO game (id, round_id, board, white_id, black_id) VALUES (5, 1, 1, 1, 2)")
            sql("INSERT INTO club (id, name) VALUES (1, 'C')")
            sql("INSERT INTO club_member (id, club_id, name, ecf_member) VALUES (1, 1, 'A', 1)")
            sql("INSERT INTO club_member (id, club_id, name, ecf_member) VALUES (2, 1, 'B', 1)")
            for club_game, game in ((1, 5), (2, 6), (3, None)):
                sql(
                    "INSERT INTO club_game (id, club_id, played_on, rate, white_id, black_id,"
                    f" game_id) VALUES ({club_game}, 1, '2024-09-05', 'standard', 1, 2, ?)",
                    (game,),
                )
    finally:
        old.dispose()
    engine = open_store(url)
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT id, game_id FROM club_game ORDER BY id")
            assert [tuple(row) for row in rows] == [(1, 5), (2, None), (3, None)]
    finally:
        engine.dispose()


def earlier_revisions() -> list[str]:
    """Every revision before the head, oldest first."""
    oldest_first = reversed(list(ScriptDirectory(str(MIGRATIONS)).walk_revisions()))
    return [revision.revision for revision in oldest_first][:-1]


def value_for(column: sa.Column[object], row: int) -> object:
    """A value of the column's type for row ``row`` (1 or 2), distinct between rows."""
    if column.foreign_keys:
        return row  # the referenced table's row of the same number
    try:
        kind = column.type.python_type
    except NotImplementedError:
        kind = str
    if kind is bool:
        return row == 1
    if kind is int:
        return row
    if kind is float:
        return row + 0.5
    if kind is datetime.datetime:
        return datetime.datetime(2024, 5, row, 12, tzinfo=datetime.UTC)
    if kind is datetime.date:
        return datetime.date(2024, 5, row)
    if kind is bytes:
        return bytes([row])
    if kind is dict:
        return {"row": row}
    return f"{column.name} {row}"


def fill_every_table(engine: sa.Engine) -> dict[str, int]:
    """Two rows in every table of the database as it is, every column filled, each row's
    foreign keys pointing at the row of the same number; the rows per table."""
    tables = sa.MetaData()
    tables.reflect(engine)
    counts: dict[str, int] = {}
    with engine.begin() as connection:
        for table in tables.sorted_tables:
            if table.name == "alembic_version":
                continue
            rows = [{c.name: value_for(c, row) for c in table.columns} for row in (1, 2)]
            connection.execute(table.insert(), rows)
            counts[table.name] = len(rows)
    return counts


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
@pytest.mark.parametrize("revision", earlier_revisions())
def test_a_database_at_every_earlier_revision_comes_to_the_head_with_its_rows(
    kind, revision, tmp_path
):
    with empty_store(kind, tmp_path) as url:
        old = create_engine(url)
        try:
            upgrade(old, revision)
            assert current_revision(old) == revision
            filled = fill_every_table(old)
        finally:
            old.dispose()
        engine = open_store(url)
        try:
            assert current_revision(engine) == head_revision()
            with engine.connect() as connection:
                context = MigrationContext.configure(connection)
                assert compare_metadata(context, SQLModel.metadata) == []
                kept = {
                    table: connection.execute(
                        sa.select(sa.func.count()).select_from(sa.table(table))
                    ).scalar_one()
                    for table in filled
                }
        finally:
            engine.dispose()
    assert kept == filled
