"""Opening the database at a URL, with its schema up to date."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlmodel import create_engine

from relay.domain.errors import UnavailableError
from relay.store.checkpoints import BACKSTOP_PAGES
from relay.store.schema import upgrade


class StoreError(RuntimeError, UnavailableError):
    """The database cannot be used: a bad URL, a missing folder, no server, no permission."""


def shown_url(url: str) -> str:
    """``url`` as it may be printed or logged: with its password, if any, masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        return url if "@" not in url else "(a database URL that cannot be read)"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL, made absolute; None for another database or an
    in-memory one."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def database_name(url: str) -> str:
    """A short name of the database for messages anyone may read: a SQLite file's name,
    another database's name (never its host, user or password)."""
    file = sqlite_file(url)
    if file is not None:
        return file.name
    try:
        return make_url(url).database or "(unnamed)"
    except (ArgumentError, ValueError):
        return "(a database URL that cannot be read)"


def open_store(url: str) -> Engine:
    """Open the database at ``url`` and bring its schema up to date."""
    try:
        engine = open_engine(url)
    except (ArgumentError, ImportError, ValueError) as error:
        raise StoreError(f"bad database URL {shown_url(url)!r}: {error}") from None
    try:
        upgrade(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        raise StoreError(
            f"cannot open database {shown_url(url)}: {error.__class__.__name__}: "
            f"{getattr(error, 'orig', None) or error}"
        ) from None
    return engine


def open_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and full durability on every commit."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _configure_sqlite)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _configure_sqlite(dbapi_connection: Any, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        # A move is on disk before anyone sees it (seed 004, ch. 17 item 9): sync on commit.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        # The hub checkpoints on a timer, off the moves' path (relay.store.checkpoints).
        cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
    finally:
        cursor.close()
