"""The live round's appends: one driver connection kept open by the thread that appends.

Every move of a live round is appended here, on the hub's store thread, which shares the GIL
with the event loop that serves the spectators: while this thread runs Python, the loop may
wait for it. ``bench/store_append.py`` measured an append and commit
through a session at 0.46 ms of CPU and through this path at 0.12 ms (the sync included).
Inside the hub under a 500-board round, where each move finds the caches cold, the session
cost 3.4 ms at the median, the ORM's Core statements on a kept connection about 1-2 ms, and
this path 0.6-1 ms; the added latency of the moves to 1,000 spectators fell by a third.

So this path speaks the driver's SQL directly: two statements (three for a game on an agent's
board, whose mark goes in the same transaction), a commit, nothing else.
Everything else appends through :func:`relay.store.event_log.append_events`, by the same
numbering rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine, PoolProxiedConnection

from relay.store.agent_inputs import InputMark
from relay.store.event_log import StoredEvent, encode_data, numbered
from relay.store.models import AgentMark, GameEventRow

#: The placeholder of each DB-API parameter style our drivers use (sqlite3, psycopg).
_PLACEHOLDERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}


class LogAppender:
    """Appends events to game logs through one driver connection, opened on first use.

    Not thread-safe: one thread owns it (the hub's store thread). A failed append rolls
    back and gives the connection up; the next append opens a fresh one.
    """

    def __init__(self, engine: Engine) -> None:
        placeholder = _PLACEHOLDERS.get(engine.dialect.paramstyle)
        if placeholder is None:
            raise ValueError(f"unsupported DB-API parameter style {engine.dialect.paramstyle!r}")
        table = GameEventRow.__tablename__
        self._last_seq = f"SELECT max(seq) FROM {table} WHERE game_id = {placeholder}"
        self._insert = (
            f"INSERT INTO {table} (game_id, seq, kind, data, recorded_at) "
            f"VALUES ({', '.join([placeholder] * 5)})"
        )
        marks = AgentMark.__tablename__
        values = ", ".join([placeholder] * 4)
        # The upsert both SQLite (3.24 and later) and PostgreSQL read the same way.
        self._mark = (
            f"INSERT INTO {marks} (game_id, agent, board, seq) VALUES ({values}) "
            "ON CONFLICT (game_id) DO UPDATE SET "
            "agent = excluded.agent, board = excluded.board, seq = excluded.seq"
        )
        self._engine = engine
        self._connection: PoolProxiedConnection | None = None

    def append(
        self,
        *,
        game_id: int,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        recorded_at: float,
        mark: InputMark | None = None,
    ) -> list[StoredEvent]:
        """Append ``(kind, data)`` events to a game's log and commit them as one transaction,
        with the game's ``mark`` (the agent input they account for up to) when given.

        Numbering continues the game's log; the unique (game, seq) constraint makes a second
        writer fail rather than fork it.
        """
        connection = self._connection
        if connection is None:
            connection = self._connection = self._engine.raw_connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(self._last_seq, (game_id,))
                row = cursor.fetchone()
                seq = int(row[0] or 0) if row is not None else 0
                stored = numbered(game_id, seq, events, recorded_at)
                if stored:
                    cursor.executemany(
                        self._insert,
                        [
                            (game_id, item.seq, item.kind, encode_data(item.data), recorded_at)
                            for item in stored
                        ],
                    )
                if mark is not None:
                    cursor.execute(self._mark, (game_id, mark.agent, mark.board, mark.seq))
            finally:
                cursor.close()
            connection.commit()
        except BaseException:
            self._connection = None
            connection.invalidate()  # rolled back and not returned to the pool: it may be broken
            raise
        return stored

    def close(self) -> None:
        """Give the connection back to the engine's pool."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
