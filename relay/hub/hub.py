"""The hub: attaches boards to games and runs their sessions."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import Engine
from sqlmodel import Session

from drivers.dgt.transport import DgtSerialConnection
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_session import BoardSession
from relay.hub.recorder import GameRecorder
from relay.store.games import get_game, read_events

log = logging.getLogger(__name__)


class Hub:
    """Owns the board sessions of one process and the recorder they share."""

    def __init__(self, settings: Settings, engine: Engine, bus: MemoryBus) -> None:
        self.settings = settings
        self.engine = engine
        self.bus = bus
        self.recorder = GameRecorder(engine, bus)
        self.sessions: dict[int, BoardSession] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: list[DgtSerialConnection] = []

    async def attach_dgt_board(self, *, game_id: int, url: str) -> BoardSession:
        """Open the DGT board at ``url`` and follow it as game ``game_id``.

        The game continues from its stored log, so a board re-attached after a restart
        picks up where the game stood.
        """
        if game_id in self.sessions:
            raise ValueError(f"game {game_id} already has a board")

        def load(session: Session) -> tuple[int, GameRecord]:
            game = get_game(session, game_id=game_id)
            stored = read_events(session, game_id=game_id)
            events = [event_from_data(item.kind, item.data) for item in stored]
            return game.round_id, GameRecord.from_events(events)

        round_id, record = await self.recorder.run(load)
        tracker = PositionTracker(record.board, settle_seconds=self.settings.settle_seconds)
        connection = await DgtSerialConnection.open(url)
        self._connections.append(connection)
        session = BoardSession(
            round_id=round_id, game_id=game_id, tracker=tracker, recorder=self.recorder
        )
        self.sessions[game_id] = session
        task = asyncio.create_task(session.run(connection.events()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        log.info("game %s follows the board at %s", game_id, url)
        return session

    async def close(self) -> None:
        """Stop following the boards (moves already decided are still recorded), then let go."""
        for task in tuple(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for connection in self._connections:
            connection.close()
        self.recorder.close()
