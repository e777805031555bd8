"""One board feeding one game: driver events in, stored and published game events out."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

from drivers.events import (
    BoardEvent,
    Disconnected,
    FieldChange,
    LineNoise,
    PositionSnapshot,
)
from relay.domain.game.placement import Placement, PlacementError
from relay.domain.game.tracker import PositionTracker
from relay.hub.recorder import GameRecorder

log = logging.getLogger(__name__)


class BoardSession:
    """Follows a board's events with a :class:`PositionTracker` and records what it decides."""

    def __init__(
        self,
        *,
        round_id: int,
        game_id: int,
        tracker: PositionTracker,
        recorder: GameRecorder,
    ) -> None:
        self.round_id = round_id
        self.game_id = game_id
        self.tracker = tracker
        self._recorder = recorder
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None
        self._settling: asyncio.Task[None] | None = None
        self.noise_bytes = 0
        self.connected = True

    async def run(self, events: AsyncIterator[BoardEvent]) -> None:
        """Consume the board's events until it disconnects."""
        try:
            async for event in events:
                self._handle(event)
        finally:
            if self._timer is not None:
                self._timer.cancel()
            if self._settling is not None:
                await asyncio.gather(self._settling, return_exceptions=True)

    def _handle(self, event: BoardEvent) -> None:
        if isinstance(event, PositionSnapshot | FieldChange):
            self._observe(event.position)
        elif isinstance(event, LineNoise):
            self.noise_bytes += event.discarded
            log.warning(
                "game %s: %d bytes of line noise (%s)", self.game_id, event.discarded, event.reason
            )
        elif isinstance(event, Disconnected):
            self.connected = False
            log.warning("game %s: board disconnected: %s", self.game_id, event.reason)

    def _observe(self, position: tuple[str | None, ...]) -> None:
        try:
            placement = Placement.from_symbols(position)
        except PlacementError as error:
            log.warning("game %s: unreadable position: %s", self.game_id, error)
            return
        self.tracker.observe(placement, self._loop.time())
        self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.tracker.deadline
        if deadline is not None:
            self._timer = self._loop.call_at(deadline, self._settle)

    def _settle(self) -> None:
        self._timer = None
        events = self.tracker.settle(self._loop.time(), time.time())
        # A timer may fire a hair early; the tracker then still has a deadline.
        self._schedule()
        if not events:
            return
        previous = self._settling

        async def record() -> None:
            if previous is not None:
                await previous  # keep the log in the order the moves were played
            await self._recorder.record(round_id=self.round_id, game_id=self.game_id, events=events)

        self._settling = self._loop.create_task(record())
        self._settling.add_done_callback(self._report_failure)

    def _report_failure(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("game %s: events not recorded: %s", self.game_id, error, exc_info=error)
