"""Moving SQLite's write-ahead log into the database file, off the path of the moves.

In WAL mode every commit appends to the log, and by default the commit that takes the log
past a thousand pages also copies the log into the database file and syncs it: 10-30 ms
spent inside one move's commit, every half a minute of a big round, with the moves behind
it waiting. The hub instead checkpoints on a timer from a thread of its own
(:func:`checkpoint`, a *passive* checkpoint: it copies what no reader still needs and never
waits for the writer), and the automatic checkpoint is left only as a backstop
(:data:`BACKSTOP_PAGES`) for processes that run no timer, such as the command line tools.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

#: Log pages after which a commit checkpoints by itself (SQLite's default is 1,000): about
#: 40 MB of log, reached only when nothing checkpoints on a timer.
BACKSTOP_PAGES = 10_000


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """What a passive checkpoint did: pages in the log, and how many are now in the file."""

    busy: bool
    log_pages: int
    copied_pages: int

    @property
    def complete(self) -> bool:
        """Everything in the log is in the database file; the next commit starts it over."""
        return not self.busy and self.log_pages == self.copied_pages


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def checkpoint(engine: Engine) -> Checkpoint:
    """A passive checkpoint of the SQLite database behind ``engine``."""
    with engine.connect() as connection:
        row = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        connection.commit()
    busy, log_pages, copied_pages = (int(value) for value in row)
    return Checkpoint(busy=bool(busy), log_pages=log_pages, copied_pages=copied_pages)
