"""A board's driver events fed to its game tracker, on the event loop.

The feed turns what a driver says (positions with any marker pieces, the board's log after a
reconnection, clock readings by side of the clock) into the tracker's inputs, keeps one timer
for the tracker's next deadline, and hands every decided event to ``on_events``. It stores
nothing itself: :class:`relay.hub.board_session.BoardSession` does, and accuracy benches use
the same feed with a list instead of a database.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from drivers.events import (
    BoardEvent,
    ClockReading,
    Disconnected,
    FieldChange,
    Lever,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
)
from relay.domain.game.events import GameEvent
from relay.domain.game.placement import Placement, PlacementError, read_squares
from relay.domain.game.tracker import ClockView, PositionTracker

log = logging.getLogger(__name__)


def clock_view(reading: ClockReading, *, white_on_left: bool) -> ClockView:
    """A reading by side of the clock as a view by colour."""
    white, black = (reading.left, reading.right) if white_on_left else (reading.right, reading.left)
    left_to_move = reading.lever == Lever.LEFT_UP  # the side whose lever is up is to move
    return ClockView(
        white_seconds=white.seconds,
        black_seconds=black.seconds,
        white_flag=white.flag_fallen,
        black_flag=black.flag_fallen,
        running=reading.running,
        to_move=left_to_move == white_on_left,  # a colour: True is White
    )


class BoardFeed:
    def __init__(
        self,
        tracker: PositionTracker,
        on_events: Callable[[Sequence[GameEvent]], None],
        *,
        white_on_left: bool = True,
        name: str = "board",
    ) -> None:
        self.tracker = tracker
        self._on_events = on_events
        self._white_on_left = white_on_left
        self._name = name
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None

    def handle(self, event: BoardEvent) -> None:
        now, wall = self._loop.time(), time.time()
        if isinstance(event, PositionSnapshot | FieldChange):
            read = self._read(event.position)
            if read is not None:
                self._emit(self.tracker.observe(read[0], now, wall, read[1]))
        elif isinstance(event, LogReplay):
            placements = [read[0] for p in event.positions if (read := self._read(p))]
            self._emit(self.tracker.replay(placements, wall))
        elif isinstance(event, ClockReading):
            view = clock_view(event, white_on_left=self._white_on_left)
            self._emit(self.tracker.clock(view, now, wall))
        elif isinstance(event, LineNoise):
            log.warning(
                "%s: %d bytes of line noise (%s)", self._name, event.discarded, event.reason
            )
        elif isinstance(event, Disconnected):
            # The last placement may have stood long enough to be a move: decide it now.
            self._emit(self.tracker.settle(now, wall))
        self._schedule()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _read(self, position: Position) -> tuple[Placement, frozenset[str]] | None:
        try:
            return read_squares(position)
        except PlacementError as error:
            log.warning("%s: unreadable position: %s", self._name, error)
            return None

    def _emit(self, events: Sequence[GameEvent]) -> None:
        if events:
            self._on_events(events)

    def _schedule(self) -> None:
        self.close()
        deadline = self.tracker.deadline
        if deadline is not None:
            self._timer = self._loop.call_at(deadline, self._settle)

    def _settle(self) -> None:
        self._timer = None
        self._emit(self.tracker.settle(self._loop.time(), time.time()))
        # A timer may fire a hair early; the tracker then still has a deadline.
        self._schedule()
