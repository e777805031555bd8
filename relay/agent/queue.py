"""The venue agent's durable queue: every board input is written here, numbered, before it
is sent, and stays until the hub acknowledges it (docs/venue-agent.md).

A SQLite file with a full sync on every commit of inputs: an agent killed at any moment
restarts with everything it had numbered. Inputs are kept in batches
(:meth:`AgentQueue.put_many`: everything the boards said while the last batch was being
synced, one sync for all), which the agent runs in a thread of its own; every method holds
the queue's lock, so a reader never sees a batch before its sync. Acknowledgements are
committed without a sync of their own (the next batch's sync carries them): after a power
cut the agent may resend a few inputs the hub already holds, which the hub drops by number.
Sequence numbers count from 1 per agent with no gaps and are never reused, even after the
queue empties (the highest is kept apart from the inputs).
A file that cannot be written (a full disk, a read-only file or folder) is a
:class:`QueueWriteError` naming the file and the reason: the agent stops rather than send
an input it could not keep.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relay.domain.errors import UnavailableError

__all__ = ["AgentQueue", "InputRead", "QueueWriteError", "Queued"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS input (
    seq INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    mono REAL NOT NULL,
    wall REAL NOT NULL,
    event TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS counter (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT OR IGNORE INTO counter (name, value) VALUES ('last_seq', 0), ('acked', 0);
CREATE TABLE IF NOT EXISTS last_stamp (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    mono REAL NOT NULL
);
INSERT OR IGNORE INTO last_stamp (id, mono) VALUES (1, 0.0);
"""


class QueueWriteError(OSError, UnavailableError):
    """The queue's file could not be written: the agent cannot keep what the boards say."""


@dataclass(frozen=True, slots=True)
class InputRead:
    """One board input as a driver gave it, before it is numbered."""

    board: str
    mono: float
    wall: float
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Queued:
    """One board input as it waits to be acknowledged."""

    seq: int
    board: str
    mono: float
    wall: float
    event: dict[str, Any]


class AgentQueue:
    """The queue in the file at ``path`` (created if missing).

    Two connections: the writer's, under the queue's lock (batches, acknowledgements), and
    a reader's for the inputs waiting (WAL lets it read while a batch syncs, and it sees only
    what is committed). The counters are kept in memory too, set after each commit, so
    reading them never waits for a sync."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            counters = dict(self._db.execute("SELECT name, value FROM counter").fetchall())
            stamp = self._db.execute("SELECT mono FROM last_stamp").fetchone()
        except sqlite3.Error as error:
            raise self._cannot(error) from error
        self._last_seq, self._acked = int(counters["last_seq"]), int(counters["acked"])
        self._last_mono = float(stamp[0])

    def _cannot(self, error: sqlite3.Error) -> QueueWriteError:
        return QueueWriteError(
            f"the agent's queue {self.path} cannot be written: {error}{_read_only(self.path)}"
        )

    @property
    def last_seq(self) -> int:
        """The highest number given so far (0 before the first input)."""
        return self._last_seq

    @property
    def last_mono(self) -> float:
        """The latest monotonic stamp ever queued (0.0 before the first): an agent that
        starts again, even after the machine rebooted and its monotonic clock began anew,
        stamps from here on, so the venue's time never goes back for the hub."""
        return self._last_mono

    @property
    def acked(self) -> int:
        """Every input up to this number is acknowledged by the hub."""
        return self._acked

    def put(self, *, board: str, mono: float, wall: float, event: dict[str, Any]) -> int:
        """Number one input and keep it, synced to disk; its number."""
        return self.put_many([InputRead(board, mono, wall, event)])

    def put_many(self, inputs: Sequence[InputRead]) -> int:
        """Number ``inputs`` in order and keep them in one transaction, synced to disk; the
        last number (the last one given so far when ``inputs`` is empty)."""
        rows = [
            (
                read.board,
                read.mono,
                read.wall,
                json.dumps(read.event, separators=(",", ":"), allow_nan=False),
            )
            for read in inputs
        ]
        newest = max((read.mono for read in inputs), default=0.0)
        with self._lock:
            first = self._last_seq
            last = first + len(rows)
            try:
                with self._transaction():
                    self._db.executemany(
                        "INSERT INTO input (seq, board, mono, wall, event) VALUES (?, ?, ?, ?, ?)",
                        [(first + n, *row) for n, row in enumerate(rows, start=1)],
                    )
                    self._db.execute(
                        "UPDATE counter SET value = ? WHERE name = 'last_seq'", (last,)
                    )
                    self._db.execute("UPDATE last_stamp SET mono = MAX(mono, ?)", (newest,))
            except sqlite3.Error as error:
                raise self._cannot(error) from error
            self._last_seq, self._last_mono = last, max(self._last_mono, newest)
        return last

    def pending(self, after: int, limit: int = 500) -> list[Queued]:
        """The inputs numbered after ``after``, oldest first, at most ``limit``."""
        rows = self._reader.execute(
            "SELECT seq, board, mono, wall, event FROM input WHERE seq > ? ORDER BY seq LIMIT ?",
            (after, limit),
        ).fetchall()
        return [
            Queued(seq, board, mono, wall, json.loads(event))
            for seq, board, mono, wall, event in rows
        ]

    def acknowledge(self, seq: int) -> None:
        """The hub holds every input up to ``seq``: forget them. A number lower than one
        already acknowledged changes nothing; one never given is refused."""
        if seq > self._last_seq:
            raise ValueError(f"input {seq} was never queued (the last is {self._last_seq})")
        with self._lock:
            if seq <= self._acked:
                return
            try:
                # Not synced on its own: a lost acknowledgement costs a resend, never an input.
                self._db.execute("PRAGMA synchronous=NORMAL")
                try:
                    with self._transaction():
                        self._db.execute("DELETE FROM input WHERE seq <= ?", (seq,))
                        self._db.execute(
                            "UPDATE counter SET value = ? WHERE name = 'acked'", (seq,)
                        )
                finally:
                    self._db.execute("PRAGMA synchronous=FULL")
            except sqlite3.Error as error:
                raise self._cannot(error) from error
            self._acked = seq

    @property
    def backlog(self) -> int:
        """How many inputs wait for an acknowledgement."""
        return self._last_seq - self._acked

    def oldest_wall(self) -> float | None:
        """When the oldest unacknowledged input was read (Unix seconds), if any waits."""
        row = self._reader.execute("SELECT wall FROM input ORDER BY seq LIMIT 1").fetchone()
        return None if row is None else float(row[0])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        """Close the file, once a batch being written has been kept."""
        with self._lock:
            self._reader.close()
            self._db.close()


def _read_only(path: Path) -> str:
    """Why the queue at ``path`` cannot be written, when its files say so: SQLite reports a
    file that turned read-only under an open queue as a mere "disk I/O error"."""
    for file in (path, path.with_name(f"{path.name}-wal")):
        if file.exists() and not os.access(file, os.W_OK):
            return f" ({file} is read-only)"
    if not path.exists() and not os.access(path.parent, os.W_OK):
        return f" (the folder {path.parent} is read-only)"
    return ""


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` when the body raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if error is None:
                self._db.execute("COMMIT")
        finally:
            if self._db.in_transaction:  # the body or the commit failed; SQLite has rolled
                self._db.execute("ROLLBACK")  # back already after some errors
