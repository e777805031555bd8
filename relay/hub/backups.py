"""Backups of the SQLite database: online copies into a folder, rotated, and restores.

A copy is made with SQLite's online backup API, so the hub keeps writing while it runs and
the copy is one consistent moment of the log. Copies are named by time
(``relay-20261121-153000.db``); the newest ``keep`` are kept. PostgreSQL has its own tools
for this (``pg_dump``, continuous archiving); the relay does not duplicate them.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from relay.domain.errors import RelayError

log = logging.getLogger(__name__)

PREFIX = "relay-"
SUFFIX = ".db"


class BackupError(RuntimeError, RelayError):
    """A backup or restore that cannot be done; the message says why."""


def sqlite_path(db_url: str) -> Path:
    """The database file of a SQLite URL; other databases are refused."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite":
        raise BackupError(
            f"relay backs up SQLite files; back up {url.get_backend_name()} with its own "
            "tools (for PostgreSQL: pg_dump and pg_restore)"
        )
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory database has nothing to back up")
    return Path(url.database)


def backup(db_url: str, folder: Path, *, keep: int, now: float | None = None) -> Path:
    """Copy the database into ``folder`` and remove all but the newest ``keep`` copies."""
    source_path = sqlite_path(db_url)
    if not source_path.is_file():
        raise BackupError(f"no database at {source_path}")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    target = folder / f"{PREFIX}{stamp:%Y%m%d-%H%M%S}{SUFFIX}"
    partial = target.with_suffix(".partial")
    source = sqlite3.connect(source_path)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            # A backup is a plain file: no WAL beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()
    partial.replace(target)
    for old in backups(folder)[:-keep]:
        old.unlink()
    return target


def backups(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))


def restore(backup_file: Path, db_url: str) -> None:
    """Replace the database with a backup. Stop the hub first: this replaces everything."""
    target_path = sqlite_path(db_url)
    if not backup_file.is_file():
        raise BackupError(f"no backup at {backup_file}")
    source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        try:
            check = source.execute("PRAGMA integrity_check").fetchone()
            tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{backup_file} is not a database: {error}") from None
        if check != ("ok",):
            raise BackupError(f"{backup_file} is damaged: {check}")
        if "game_event" not in tables:
            raise BackupError(f"{backup_file} is not a relay database")
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(target_path)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


async def back_up_every(db_url: str, folder: Path, *, minutes: float, keep: int) -> None:
    """Back up now and then every ``minutes``, until cancelled; failures are logged."""
    while True:
        try:
            made = await asyncio.to_thread(backup, db_url, folder, keep=keep)
            log.info("backed up the database to %s", made)
        except (BackupError, sqlite3.Error, OSError) as error:
            log.error("backup failed: %s", error)
        await asyncio.sleep(minutes * 60)
