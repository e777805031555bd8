"""Saving game events, then publishing them: a move is on disk before anyone sees it.

Database work runs on one dedicated thread, so the event loop never waits on a disk sync and
writes to the log happen in the order they were asked for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published
from relay.domain.game.events import GameEvent, event_data
from relay.store.games import StoredEvent, append_events

T = TypeVar("T")


class GameRecorder:
    """Appends events to a game's log, commits, then publishes them on the bus."""

    def __init__(self, engine: Engine, bus: MemoryBus) -> None:
        self._engine = engine
        self._bus = bus
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relay-store")

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` with a session on the store thread."""

        def in_session() -> T:
            with Session(self._engine, expire_on_commit=False) as session:
                return work(session)

        return await asyncio.get_running_loop().run_in_executor(self._writer, in_session)

    async def record(
        self, *, round_id: int, game_id: int, events: Sequence[GameEvent]
    ) -> list[StoredEvent]:
        recorded_at = time.time()
        pairs = [(event.kind, event_data(event)) for event in events]
        stored = await self.run(
            lambda session: append_events(
                session, game_id=game_id, events=pairs, recorded_at=recorded_at
            )
        )
        for item in stored:
            self._bus.publish(Published(round_id, game_id, item.seq, item.kind, item.data))
        return stored

    def close(self) -> None:
        self._writer.shutdown(wait=True)
