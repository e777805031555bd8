"""A board's driver events fed to its game tracker, on the event loop.

The feed turns what a driver says (positions with any marker pieces, the board's log after a
reconnection, clock readings by side of the clock) into the tracker's inputs, keeps one timer
for the tracker's next deadline, and hands every decided event to ``on_events``. It stores
nothing itself: :class:`relay.hub.board_session.BoardSession` does, and accuracy benches use
the same feed with a list instead of a database.

Clock readings come by side (left, right); the tracker wants them by colour. Which side is
White's is the board's :class:`~relay.domain.clock.orientation.Orientation`: its setting,
or, on ``auto``, what the presses say. The feed gives it the evidence (who pressed which
side, from the game and the board; a move made while a side the hub started ran), reads
every clock reading by the sides in force, and passes each new or revised decision on as a
``clock-side`` event, before the events it affects. Moves decided while the sides were read
the other way round are read again in that event, from the clock readings they were
decided with, so the first move's ``%clk`` is right even when its press decides the sides.

Time is the hub's own for a board wired to it: the event loop's clock when an event is
handled, and a loop timer for the tracker's next deadline. A board read by a venue agent
(docs/venue-agent.md) runs on the venue's time instead: each event comes with the venue's
monotonic and Unix time when its driver read it, the agent's time marks say how far the
venue's time has gone with nothing new, and the tracker's deadlines are met at their own
moments on that time, before the next event. A backlog that arrives all at once after an
outage is then decided exactly as it would have been live.

When the sides turn, the tracker must still see the next lever change as the press of the
player who made it: until then its views keep the lever read the old way (the times and
flags are read the new way at once), and at the press it is first shown the lever as it
stood, read the new way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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
from relay.domain.clock.orientation import (
    ClockSide,
    Decision,
    Orientation,
    Side,
    before_first_press,
    mover_side,
    press_of,
    pressed,
    ran,
    started,
)
from relay.domain.game.events import (
    ClockSideDecided,
    GameEvent,
    MoveClocked,
    MoveCorrected,
    MoveMade,
    NewGame,
    TakenBack,
)
from relay.domain.game.placement import Placement, PlacementError, read_squares
from relay.domain.game.tracker import ClockView, PositionTracker
from relay.domain.results import Result

log = logging.getLogger(__name__)


def clock_view(reading: ClockReading, *, white_on: Side) -> ClockView:
    """A reading by side of the clock as a view by colour, White's time on ``white_on``."""
    white_on_left = white_on == "left"
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


def _pressed_side(before: Lever) -> Side:
    """The side pressed when the lever leaves ``before``: the side that was up goes down."""
    return "left" if before == Lever.LEFT_UP else "right"


@dataclass(frozen=True, slots=True)
class Stamped:
    """What a venue agent forwards: a board event and when the venue read it (monotonic and
    Unix seconds on the venue's clocks); or, with no event, a time mark: the venue's time
    went on to then with nothing new from the board."""

    event: BoardEvent | None
    mono: float
    wall: float
    #: The agent's number for the input (None: a time mark, or an event of the hub's own).
    seq: int | None = None


class BoardFeed:
    def __init__(
        self,
        tracker: PositionTracker,
        on_events: Callable[[Sequence[GameEvent]], None],
        *,
        clock_side: ClockSide = "auto",
        recorded: ClockSideDecided | None = None,
        name: str = "board",
        venue_time: bool = False,
    ) -> None:
        self._tracker = tracker
        self._on_events = on_events
        self._name = name
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None
        #: On the venue's time: the last (monotonic, Unix) time the venue gave; None
        #: before the first. Otherwise (None and False) the hub's own time.
        self._venue_time = venue_time
        self._venue_now: tuple[float, float] | None = None
        #: The venue's Unix time less its monotonic time, at its last event.
        self._wall_offset: float | None = None
        #: White's side of the clock: the board's setting and the decision in force.
        self.orientation = Orientation(clock_side, recorded=recorded, ply=tracker.ply)
        #: The last clock reading, and the view of it the tracker was given (with the
        #: reading and White's side it was read with).
        self._reading: ClockReading | None = None
        self._view: ClockView | None = None
        self._view_read: tuple[ClockReading, Side] | None = None
        #: White's side as the lever has been read in the tracker's views.
        self._lever_white_on: Side = self.orientation.white_on
        #: The last position the board showed, as it stands on the board.
        self._shown: Placement | None = None
        #: A side the hub started running, with no press since.
        self._ran: Side | None = None
        #: The hub has set this game's clock (its running side is then no evidence).
        self._hub_set = False
        #: The clock runs and its lever has not moved since it started (seen start: it was
        #: read stopped before).
        self._unpressed_run = False
        self._start_seen = False
        #: Per decided ply, the reading its mover's clock came from and White's side then.
        self._reads: dict[int, tuple[ClockReading, Side]] = {}

    @property
    def tracker(self) -> PositionTracker:
        return self._tracker

    @tracker.setter
    def tracker(self, tracker: PositionTracker) -> None:
        """Follow the board with another tracker (a corrected game, the next game)."""
        self._tracker = tracker
        self._view = self._view_read = None
        self._reads.clear()

    @property
    def white_on(self) -> Side:
        """White's side of the clock as the feed reads it now."""
        return self.orientation.white_on

    def _now(self) -> tuple[float, float]:
        """Monotonic and Unix time as the tracker counts them for this board."""
        if self._venue_time and self._venue_now is not None:
            return self._venue_now
        return self._loop.time(), time.time()

    def begin(self) -> None:
        """Record the board's fixed clock setting if the game's log lacks it."""
        self._emit(self._decided(self.orientation.opening(), self._now()[1]))

    def set_clock_side(self, setting: ClockSide) -> None:
        """The operator changed the board's clock setting."""
        now, wall = self._now()
        events = self._decided(self.orientation.set(setting), wall)
        if events and self._view is not None and self._reading is not None:
            # The tracker reads the times the new way at once (its flags stay as they were;
            # the lever turns at the next press).
            view = replace(
                self._view_of(self._reading),
                white_flag=self._view.white_flag,
                black_flag=self._view.black_flag,
            )
            self._view, self._view_read = view, (self._reading, self.white_on)
            events += self._tracker.clock(view, now, wall)
        self._emit(events)
        self._schedule()

    def hub_set(self) -> None:
        """The hub sends the clock a command that sets it (called before it goes out)."""
        self._hub_set = True

    def hub_ran(self, side: Side) -> None:
        """The hub started ``side`` of the clock (a central start, a resume): the next move
        made with no press in between was made on that side's time."""
        self._hub_set = True
        self._ran = side

    def advance(self, mono: float, wall: float, *, event: bool = False) -> None:
        """On the venue's time: the venue's clocks read ``mono`` and ``wall`` (``event``:
        when its driver read an event, else a time mark). The tracker's deadlines due by
        then are met first, each at its own moment; the Unix time of a deadline is counted
        from the last event's, so the same events give the same times however they came."""
        if not self._venue_time:
            raise RuntimeError(f"{self._name} runs on the hub's time, not the venue's")
        last_mono, last_wall = self._venue_now or (mono, wall)
        if mono < last_mono:
            log.warning("%s: the venue's time went back %.3f s", self._name, last_mono - mono)
            mono, wall = last_mono, last_wall
        if self._wall_offset is None:
            self._wall_offset = wall - mono
        while (deadline := self._tracker.deadline) is not None and deadline <= mono:
            self._venue_now = (deadline, deadline + self._wall_offset)
            self._emit(self._tracker.settle(*self._venue_now))
            if self._tracker.deadline == deadline:
                break  # nothing changed at the deadline: never wait on it again here
        if event:
            self._wall_offset = wall - mono
        self._venue_now = (mono, wall)

    def handle(self, event: BoardEvent, at: tuple[float, float] | None = None) -> None:
        """An event from the board; on the venue's time, ``at`` is when the venue read it."""
        if at is not None:
            self.advance(*at, event=True)
        now, wall = self._now()
        if isinstance(event, PositionSnapshot | FieldChange):
            read = self._read(event.position)
            if read is not None:
                self._shown = read[0]
                self._emit(self._tracker.observe(read[0], now, wall, read[1]) + self._start(wall))
        elif isinstance(event, LogReplay):
            placements = [read[0] for p in event.positions if (read := self._read(p))]
            self._emit(self._tracker.replay(placements, wall))
        elif isinstance(event, ClockReading):
            self._emit(self._clock(event, now, wall))
        elif isinstance(event, LineNoise):
            log.warning(
                "%s: %d bytes of line noise (%s)", self._name, event.discarded, event.reason
            )
        elif isinstance(event, Disconnected):
            # The last placement may have stood long enough to be a move: decide it now.
            self._emit(self._tracker.settle(now, wall))
        self._schedule()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _read(self, position: Position) -> tuple[Placement, frozenset[Result]] | None:
        try:
            return read_squares(position)
        except PlacementError as error:
            log.warning("%s: unreadable position: %s", self._name, error)
            return None

    # The clock

    def _clock(self, reading: ClockReading, now: float, wall: float) -> list[GameEvent]:
        previous, self._reading = self._reading, reading
        tracker = self._tracker
        events: list[GameEvent] = []
        lever_moved = previous is not None and reading.lever != previous.lever
        if lever_moved or not reading.running:
            self._unpressed_run = False
        elif previous is None or not previous.running:
            self._unpressed_run = True
            self._start_seen = previous is not None
        if previous is not None and lever_moved:
            self._ran = None
            # The game as decided before this press: a press still waiting is judged first.
            events += tracker.judge_waiting_press(now, wall)
            events += self._press(_pressed_side(previous.lever), previous.running, wall)
        else:
            events += self._start(wall)
        if self._view is None:
            self._lever_white_on = self.white_on  # the tracker has not seen the lever yet
        elif previous is not None and lever_moved and self._lever_white_on != self.white_on:
            # The sides turned: the lever as it stood, read the new way, so that the tracker
            # takes this change for the press of the player who made it.
            bridge = replace(
                clock_view(previous, white_on=self.white_on),
                white_flag=self._view.white_flag,
                black_flag=self._view.black_flag,
            )
            tracker.sides_turned(bridge)
            self._lever_white_on = self.white_on
        view = self._view_of(reading)
        self._view, self._view_read = view, (reading, self.white_on)
        return events + tracker.clock(view, now, wall)

    def _view_of(self, reading: ClockReading) -> ClockView:
        """The reading by colour: the times by the sides in force, the lever as the tracker
        has been reading it."""
        view = clock_view(reading, white_on=self.white_on)
        if self._lever_white_on != self.white_on:
            lever = clock_view(reading, white_on=self._lever_white_on)
            view = replace(view, to_move=lever.to_move)
        return view

    def _press(self, side: Side, was_running: bool, wall: float) -> list[GameEvent]:
        """Someone pressed ``side`` of the clock (``was_running``: it ran before): evidence,
        if the game tells who."""
        tracker = self._tracker
        if tracker.finished:
            return []
        handed_over = tracker.last_move_pressed if tracker.ply else was_running
        # Before any evidence, a record read by the wrong sides falls behind: two plies on
        # is evidence too then.
        plies = 1 if self.orientation.decided else 2
        press = press_of(
            tracker.board, self._shown_as_played(), handed_over=handed_over, plies=plies
        )
        if press is None:
            return []
        return self._decided(self.orientation.consider(pressed(side, press)), wall)

    def _start(self, wall: float) -> list[GameEvent]:
        """The clock runs, its lever where it was when it started, and the hub never set
        it: once the board shows that nobody can have pressed for a move yet (its start, a
        player adjusting a man, White's first move), the side whose lever is up was started
        by hand as White's. Tried at each clock reading and each change of the board, as
        the start may come while an arbiter or a player still sets a man right."""
        reading = self._reading
        if (
            reading is None
            or not self._unpressed_run
            or self._hub_set
            or self.orientation.decided
            or not before_first_press(
                self._tracker.board, self._shown_as_played(), first_move=self._start_seen
            )
        ):
            return []
        side: Side = "left" if reading.lever == Lever.LEFT_UP else "right"
        evidence = started(side, seen=self._start_seen)
        return self._decided(self.orientation.consider(evidence), wall)

    def _shown_as_played(self) -> Placement | None:
        """What the board shows, in White's view (a board set up turned round is turned)."""
        shown = self._shown
        return shown.turned() if shown is not None and self._tracker.rotated else shown

    def _decided(self, decision: Decision | None, wall: float) -> list[GameEvent]:
        """The event recording a new or revised decision, with the clocks of moves read
        from the other side since ``decision.since_ply`` read again."""
        if decision is None:
            return []
        white_on = decision.white_on
        clocks: list[tuple[int, float]] = []
        for ply, (reading, side) in sorted(self._reads.items()):
            if ply <= decision.since_ply or side == white_on:
                continue
            shown = reading.left if mover_side(ply, white_on) == "left" else reading.right
            clocks.append((ply, float(shown.seconds)))
            self._reads[ply] = (reading, white_on)
        return [
            ClockSideDecided(
                white_on=white_on,
                source=decision.source,
                reason=decision.reason,
                at=wall,
                clocks=tuple(clocks),
            )
        ]

    def _emit(self, events: Sequence[GameEvent]) -> None:
        if not events:
            return
        out = list(events)
        for event in events:
            if isinstance(event, MoveMade | MoveCorrected | MoveClocked):
                if event.clock is not None and self._view_read is not None:
                    self._reads[event.ply] = self._view_read
                if isinstance(event, MoveMade) and self._ran is not None:
                    evidence = ran(self._ran, event.ply)
                    self._ran = None
                    out += self._decided(self.orientation.consider(evidence), event.at)
            elif isinstance(event, TakenBack):
                for ply in [p for p in self._reads if p > event.ply]:
                    del self._reads[ply]
            elif isinstance(event, NewGame):
                self._reads.clear()
        self._on_events(out)

    def _schedule(self) -> None:
        self.close()
        deadline = self._tracker.deadline
        if deadline is not None and not self._venue_time:
            self._timer = self._loop.call_at(deadline, self._settle)

    def _settle(self) -> None:
        self._timer = None
        self._emit(self._tracker.settle(*self._now()))
        # A timer may fire a hair early; the tracker then still has a deadline.
        self._schedule()
