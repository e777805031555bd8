"""One board feeding one game: driver events in, stored and published game events out."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence

from drivers.events import BoardEvent, Disconnected, FieldChange, PositionSnapshot
from relay.domain.game.events import GameEnded, GameEvent, is_logged
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed
from relay.hub.recorder import GameRecorder

log = logging.getLogger(__name__)

#: Waits between attempts to save events while the database refuses them.
RETRY_SECONDS = (0.05, 0.2, 1.0, 5.0)
#: How long stopping a session waits for its unsaved events to reach the database.
DRAIN_SECONDS = 5.0


class BoardSession:
    """Follows a board's events with a :class:`PositionTracker` and records what it decides.

    Notices (a piece in the air) are not stored. Once the game has a result, later events
    from the board (the next game being set up) are not recorded into it.

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
        self._feed = BoardFeed(tracker, self._queue, name=f"game {game_id}")
        #: The game has a result: later events from the board are not recorded into it.
        self.finished = tracker.finished
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
            self._feed.close()
            try:
                await self._drain()
            finally:
                self.ended.set()

    def restart(self, tracker: PositionTracker) -> None:
        """Follow the board with a new tracker (the arbiter corrected the game)."""
        self.tracker = tracker
        self._feed.tracker = tracker

    def _handle(self, event: BoardEvent) -> None:
        if isinstance(event, PositionSnapshot | FieldChange):
            self.connected = True
            self.link_down.clear()
        elif isinstance(event, Disconnected):
            self.connected = False
            self.link_down.set()
            log.warning("game %s: board disconnected: %s", self.game_id, event.reason)
        self._feed.handle(event)
        # Board status is shown by a later issue (the arbiter's console).

    def _queue(self, events: Sequence[GameEvent]) -> None:
        logged = [event for event in events if is_logged(event)]
        if self.finished:
            if logged:
                log.info("game %s has ended; not recording %s", self.game_id, logged)
            return
        if any(isinstance(event, GameEnded) for event in logged):
            self.finished = True
        if logged:
            self._outbox.put_nowait(logged)

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
