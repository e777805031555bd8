"""One board feeding one game: driver events in, stored and published game events out."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence

from drivers.events import (
    BoardEvent,
    Disconnected,
    FieldChange,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
)
from relay.domain.game.events import GameEvent
from relay.domain.game.placement import Placement, PlacementError
from relay.domain.game.tracker import PositionTracker
from relay.hub.recorder import GameRecorder

log = logging.getLogger(__name__)

#: Waits between attempts to save events while the database refuses them.
RETRY_SECONDS = (0.05, 0.2, 1.0, 5.0)
#: How long stopping a session waits for its unsaved events to reach the database.
DRAIN_SECONDS = 5.0


class BoardSession:
    """Follows a board's events with a :class:`PositionTracker` and records what it decides.

    Decided events go to an outbox that one writer task saves in order. A save that fails
    is retried until it succeeds, so the stored log never skips a ply the tracker has
    decided, and the tracker never waits for the disk.
    """

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
        self._outbox: asyncio.Queue[Sequence[GameEvent]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.connected = True
        #: Set while the board's link is down (the driver may be reconnecting).
        self.link_down = asyncio.Event()
        #: Set when :meth:`run` has returned: the board is gone and its events are saved.
        self.ended = asyncio.Event()

    @property
    def unsaved(self) -> int:
        """Batches of decided events not yet in the database."""
        return self._outbox.qsize()

    async def run(self, events: AsyncIterator[BoardEvent]) -> None:
        """Consume the board's events until the board disconnects or the task is cancelled."""
        self._writer = self._loop.create_task(self._write())
        try:
            async for event in events:
                self._handle(event)
                if isinstance(event, Disconnected) and not event.reconnecting:
                    break
        finally:
            if self._timer is not None:
                self._timer.cancel()
            try:
                await self._drain()
            finally:
                self.ended.set()

    def _handle(self, event: BoardEvent) -> None:
        if isinstance(event, PositionSnapshot | FieldChange):
            self.connected = True
            self.link_down.clear()
            self._observe(event.position)
        elif isinstance(event, LogReplay):
            self._replay(event.positions)
        elif isinstance(event, LineNoise):
            log.warning(
                "game %s: %d bytes of line noise (%s)", self.game_id, event.discarded, event.reason
            )
        elif isinstance(event, Disconnected):
            self.connected = False
            self.link_down.set()
            # The last placement may have stood long enough to be a move: decide it now.
            self._queue(self.tracker.settle(self._loop.time(), time.time()))
            log.warning("game %s: board disconnected: %s", self.game_id, event.reason)
        # Clock readings and board status are shown by later issues (clocks, console).

    def _replay(self, positions: Sequence[Position]) -> None:
        placements = []
        for position in positions:
            try:
                placements.append(Placement.from_symbols(position))
            except PlacementError as error:
                log.warning("game %s: unreadable logged position: %s", self.game_id, error)
        self._queue(self.tracker.replay(placements, time.time()))
        self._schedule()

    def _observe(self, position: Position) -> None:
        try:
            placement = Placement.from_symbols(position)
        except PlacementError as error:
            log.warning("game %s: unreadable position: %s", self.game_id, error)
            return
        self._queue(self.tracker.observe(placement, self._loop.time(), time.time()))
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
        self._queue(self.tracker.settle(self._loop.time(), time.time()))
        # A timer may fire a hair early; the tracker then still has a deadline.
        self._schedule()

    def _queue(self, events: Sequence[GameEvent]) -> None:
        if events:
            self._outbox.put_nowait(events)

    async def _write(self) -> None:
        while True:
            events = await self._outbox.get()
            attempt = 0
            while True:
                try:
                    await self._recorder.record(
                        round_id=self.round_id, game_id=self.game_id, events=events
                    )
                    break
                except Exception as error:
                    wait = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                    attempt += 1
                    log.error(
                        "game %s: saving %d events failed (attempt %d, retrying in %.2f s): %s",
                        self.game_id,
                        len(events),
                        attempt,
                        wait,
                        error,
                    )
                    await asyncio.sleep(wait)
            self._outbox.task_done()

    async def _drain(self) -> None:
        writer = self._writer
        if writer is None:
            return
        try:
            await asyncio.wait_for(self._outbox.join(), DRAIN_SECONDS)
        except TimeoutError:
            log.error("game %s: %d event batches could not be saved", self.game_id, self.unsaved)
        finally:
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
