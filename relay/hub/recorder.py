"""Saving game events, then publishing them: a move is on disk before anyone sees it.

Database work runs on one dedicated thread, so the event loop never waits on a disk sync and
writes to the log happen in the order they were asked for. Reads that change nothing go to
other threads (:func:`read_store`): a thousand spectators joining a round must not queue
ahead of the moves waiting to be committed.

The boards' moves, most of that work, go in through a connection the store thread keeps
open between them (:class:`~relay.store.log_appender.LogAppender`): that thread shares the
GIL with the event loop, and a session per move cost several times the CPU of the append.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published
from relay.domain.game.events import GameEvent, event_data
from relay.store.access import Identity, audit
from relay.store.agent_inputs import InputMark
from relay.store.event_log import StoredEvent, append_events
from relay.store.log_appender import LogAppender

T = TypeVar("T")


def _in_session(engine: Engine, work: Callable[[Session], T]) -> T:
    with Session(engine, expire_on_commit=False) as session:
        return work(session)


def _in_transaction(engine: Engine, work: Callable[[Session], T]) -> T:
    """Run ``work`` in one transaction: committed when it returns (whatever it left
    uncommitted), rolled back if it raises."""
    with Session(engine, expire_on_commit=False) as session:
        result = work(session)
        session.commit()
        return result


async def read_store(engine: Engine, work: Callable[[Session], T]) -> T:
    """Run ``work`` with a session of its own on a worker thread, beside the writer (SQLite's
    write-ahead log lets readers and the writer go on at once)."""
    return await asyncio.to_thread(_in_session, engine, work)


class GameRecorder:
    """Appends events to a game's log, commits, then publishes them on the bus."""

    def __init__(self, engine: Engine, bus: MemoryBus) -> None:
        self._engine = engine
        self._bus = bus
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relay-store")
        #: The store thread's own connection for :meth:`record` (used on that thread only).
        self._appender = LogAppender(engine)
        self._closed = False

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` with a session on the store thread, as one transaction.

        The store's data functions never commit: ``work`` composes the transaction and
        commits it (``session.commit()``) before returning; whatever it leaves uncommitted
        is committed when it returns, and nothing is if it raises. Publish only after this
        returns: an event is committed before it is published.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, _in_transaction, self._engine, work)

    async def read(self, work: Callable[[Session], T]) -> T:
        """Run ``work``, which only reads, beside the store thread (see :func:`read_store`)."""
        return await read_store(self._engine, work)

    async def record(
        self,
        *,
        round_id: int,
        game_id: int,
        events: Sequence[GameEvent],
        mark: InputMark | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` to the game's log, with its ``mark`` when the events were
        decided from an agent's board; commit, then publish them."""
        rows = [(event.kind, event_data(event)) for event in events]
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self._writer, self._append, game_id, rows, mark)
        self.publish(round_id, stored)
        return stored

    def _append(
        self, game_id: int, rows: list[tuple[str, dict[str, Any]]], mark: InputMark | None
    ) -> list[StoredEvent]:
        return self._appender.append(
            game_id=game_id, events=rows, recorded_at=time.time(), mark=mark
        )

    async def decide(
        self,
        *,
        round_id: int,
        game_id: int,
        work: Callable[[Session], tuple[Sequence[GameEvent], Callable[[Session], None]]],
    ) -> list[StoredEvent]:
        """Decide events from the stored log and append them, on the store thread.

        ``work`` reads what it needs and returns the events plus a function that writes
        whatever else belongs in the same transaction (an audit entry); it may raise to
        refuse. Nothing can be appended to the game between its reading and the writing.
        """

        def in_store(session: Session) -> list[StoredEvent]:
            events, also = work(session)
            stored = append_events(
                session,
                game_id=game_id,
                events=[(event.kind, event_data(event)) for event in events],
                recorded_at=time.time(),
            )
            also(session)
            session.commit()
            return stored

        stored = await self.run(in_store)
        self.publish(round_id, stored)
        return stored

    def publish(self, round_id: int, stored: Sequence[StoredEvent]) -> None:
        for item in stored:
            self._bus.publish(
                Published(round_id, item.game_id, item.seq, item.kind, item.data, item.recorded_at)
            )

    def close(self) -> None:
        """Finish the writes asked for, give the store thread's connection back, and stop
        the thread (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        self._writer.submit(self._appender.close)
        self._writer.shutdown(wait=True)


def audited(
    *, who: Identity, action: str, game_id: int, reason: str, detail: dict[str, Any]
) -> Callable[[Session], None]:
    """The audit entry of an action on a game, written in the same transaction as the
    action's events (``work``'s second half in :meth:`GameRecorder.decide`)."""

    def write(session: Session) -> None:
        audit(
            session,
            who=who,
            action=action,
            target=f"game {game_id}",
            reason=reason,
            detail=detail,
        )

    return write
