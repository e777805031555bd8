"""One board feeding one game: driver events in, stored and published game events out."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from drivers.events import (
    BoardEvent,
    BoardStatus,
    ClockCommand,
    ClockCommandFailed,
    ClockCommandResult,
    ClockReading,
    Disconnected,
    FieldChange,
    PositionSnapshot,
    SetAndRun,
)
from relay.domain.clock.orientation import ClockSide, Orientation, Side
from relay.domain.game.events import ClockSideDecided, GameEnded, GameEvent, is_logged
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed, Stamped
from relay.hub.recorder import GameRecorder
from relay.store.agent_inputs import InputMark

log = logging.getLogger(__name__)

#: Waits between attempts to save events while the database refuses them.
RETRY_SECONDS = (0.05, 0.2, 1.0, 5.0)
#: How long stopping a session waits for its unsaved events to reach the database.
DRAIN_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class ClockAnswer:
    """What became of a clock command: obeyed, refused, or never acknowledged."""

    ok: bool
    detail: str
    #: The clock answered (False: no acknowledgement, or the board was gone).
    acknowledged: bool = True


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
        send: Callable[[ClockCommand], None] | None = None,
        clock_side: ClockSide = "auto",
        clock_decided: ClockSideDecided | None = None,
        clock_set_by_hub: bool = False,
        venue_time: bool = False,
        agent_board: tuple[str, str] | None = None,
    ) -> None:
        self.round_id = round_id
        self.game_id = game_id
        self._send = send
        #: Clock commands sent and not yet answered, oldest first: an answer names its
        #: command, and the clock answers in order.
        self._commands: list[tuple[ClockCommand, asyncio.Future[ClockAnswer]]] = []
        #: The board's health and identity as the driver last reported them.
        self.status: BoardStatus | None = None
        #: When the board was last heard from (monotonic seconds).
        self.last_heard: float | None = None
        #: The clock as last read, and whether one is plugged in (None: not known yet).
        self.clock_reading: ClockReading | None = None
        self.clock_connected: bool | None = None
        self.tracker = tracker
        self._recorder = recorder
        self._loop = asyncio.get_running_loop()
        self._feed = BoardFeed(
            tracker,
            self._queue,
            clock_side=clock_side,
            recorded=clock_decided,
            name=f"game {game_id}",
            venue_time=venue_time,
        )
        if clock_set_by_hub:
            self._feed.hub_set()
        #: The game has a result: later events from the board are not recorded into it.
        self.finished = tracker.finished
        #: (agent, board) of a board a venue agent reads: each batch of events is written
        #: with the game's mark, the last of the board's inputs consumed before it.
        self._agent_board = agent_board
        self._consumed: int | None = None
        #: While one board event is handled: what it led to, saved together.
        self._batch: list[GameEvent] | None = None
        self._outbox: asyncio.Queue[tuple[Sequence[GameEvent], InputMark | None]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.connected = True
        #: Set while the board's link is down (the driver may be reconnecting).
        self.link_down = asyncio.Event()
        #: Set when :meth:`run` has returned: the board is gone and its events are saved.
        self.ended = asyncio.Event()

    @property
    def orientation(self) -> Orientation:
        """Which side of the clock White's is: the board's setting and the decision."""
        return self._feed.orientation

    @property
    def white_on(self) -> Side:
        """White's side of the clock, as the board's clock readings are read now."""
        return self._feed.white_on

    def set_clock_side(self, setting: ClockSide) -> None:
        """The operator changed the board's clock setting; a change is recorded."""
        self._feed.set_clock_side(setting)

    def clock_ran(self, side: Side) -> None:
        """The hub started ``side`` of the clock (its command was acknowledged)."""
        self._feed.hub_ran(side)

    @property
    def unsaved(self) -> int:
        """Batches of decided events not yet in the database."""
        return self._outbox.qsize()

    async def run(self, events: AsyncIterator[BoardEvent | Stamped]) -> None:
        """Consume the board's events until the board disconnects or the task is cancelled.
        A board read by a venue agent gives each event with the venue's time, and marks of
        that time passing (``Stamped``); the session must then run on the venue's time."""
        self._writer = self._loop.create_task(self._write())
        self._feed.begin()
        try:
            async for item in events:
                if isinstance(item, Stamped):
                    if item.event is None:
                        self._feed.advance(item.mono, item.wall)
                        continue
                    event, at = item.event, (item.mono, item.wall)
                    if item.seq is not None:
                        self._consumed = item.seq
                else:
                    event, at = item, None
                self._handle(event, at)
                if isinstance(event, Disconnected) and not event.reconnecting:
                    break
        finally:
            self._feed.close()
            for _, answer in self._commands:
                if not answer.done():
                    answer.set_result(ClockAnswer(False, "the board is gone", acknowledged=False))
            self._commands.clear()
            try:
                await self._drain()
            finally:
                self.ended.set()

    def clock_command(self, command: ClockCommand) -> asyncio.Future[ClockAnswer]:
        """Send a command to the board's clock; the future has the clock's answer."""
        answer: asyncio.Future[ClockAnswer] = self._loop.create_future()
        if self._send is None:
            answer.set_result(ClockAnswer(False, "this board takes no clock commands"))
            return answer
        if isinstance(command, SetAndRun):
            self._feed.hub_set()  # from now on the running side is the hub's doing
        self._commands.append((command, answer))
        self._send(command)
        return answer

    def restart(self, tracker: PositionTracker) -> None:
        """Follow the board with a new tracker (the arbiter corrected the game)."""
        self.tracker = tracker
        self._feed.tracker = tracker

    def _handle(self, event: BoardEvent, at: tuple[float, float] | None = None) -> None:
        """One event from the board; everything it leads to is saved as one batch (one
        transaction, with the game's mark), so a stop never keeps half of it."""
        self._batch = []
        try:
            self._take(event, at)
        finally:
            batch, self._batch = self._batch, None
            if batch:
                self._outbox.put_nowait((batch, self._mark()))

    def _take(self, event: BoardEvent, at: tuple[float, float] | None) -> None:
        if not isinstance(event, Disconnected):
            self.last_heard = time.monotonic()
        if isinstance(event, PositionSnapshot | FieldChange):
            self.connected = True
            self.link_down.clear()
        elif isinstance(event, Disconnected):
            self.connected = False
            self.link_down.set()
            log.warning("game %s: board disconnected: %s", self.game_id, event.reason)
        elif isinstance(event, ClockReading):
            self.clock_reading = event
            self.clock_connected = True
        elif isinstance(event, BoardStatus):
            self.status = event
            if event.clock_connected is not None:
                self.clock_connected = event.clock_connected
        elif isinstance(event, ClockCommandResult | ClockCommandFailed):
            self._answer(event)
        self._feed.handle(event, at)
        # Board status is shown by a later issue (the arbiter's console).

    def _answer(self, event: ClockCommandResult | ClockCommandFailed) -> None:
        index = next(
            (i for i, (command, _) in enumerate(self._commands) if command == event.command), None
        )
        if index is None:
            return
        _, answer = self._commands.pop(index)
        if answer.done():
            return
        if isinstance(event, ClockCommandFailed):
            answer.set_result(ClockAnswer(False, event.reason, acknowledged=False))
        elif event.ok:
            answer.set_result(ClockAnswer(True, "acknowledged"))
        else:
            answer.set_result(ClockAnswer(False, "the clock refused it (not in mode 23?)"))

    def _queue(self, events: Sequence[GameEvent]) -> None:
        logged = [event for event in events if is_logged(event)]
        if self.finished:
            if logged:
                log.info("game %s has ended; not recording %s", self.game_id, logged)
            return
        if any(isinstance(event, GameEnded) for event in logged):
            self.finished = True
        if not logged:
            return
        if self._batch is not None:
            self._batch.extend(logged)
        else:
            self._outbox.put_nowait((logged, self._mark()))

    def _mark(self) -> InputMark | None:
        if self._agent_board is None or self._consumed is None:
            return None
        return InputMark(*self._agent_board, self._consumed)

    async def _write(self) -> None:
        while True:
            events, mark = await self._outbox.get()
            attempt = 0
            while True:
                try:
                    await self._recorder.record(
                        round_id=self.round_id, game_id=self.game_id, events=events, mark=mark
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
