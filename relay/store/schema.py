"""Bringing a database's schema up to date with the migrations in ``migrations/``.

Every database, new or old, SQLite or PostgreSQL, is built by the same migrations, so a
database created by any release can be opened by a later one. A database made before the
migrations existed (its tables but no ``alembic_version``) is taken to be at the first one.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
FIRST_REVISION = "0001"


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; None for an empty database."""
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
        if "alembic_version" in tables:
            row = connection.exec_driver_sql("SELECT version_num FROM alembic_version").first()
            return None if row is None else str(row[0])
        return FIRST_REVISION if "game_event" in tables else None


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the migrations the database lacks, in one transaction where the database can."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # Rebuilding a table under batch mode must not cascade or check foreign keys
            # midway; the pragma only takes effect outside a transaction.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        tables = set(inspect(connection).get_table_names())
        config = _config(connection)
        if "alembic_version" not in tables and "game_event" in tables:
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, revision)
        connection.commit()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            if broken:
                raise RuntimeError(f"migration left broken foreign keys: {broken[:5]}")
