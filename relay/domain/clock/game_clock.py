"""A game's clocks, rebuilt from its log: the time left after every move (``%clk``), the
time each move took (``%emt``), period changes, the running side and when its flag falls.

Two sources, one authority: the hub counts time itself from the moments the log records
(the clocks' start, each move, pauses, adjustments) and the time control's periods and
bonuses; where the e-clock showed the mover's time with the move, that reading is what the
player had, and the difference from the hub's count is kept as *drift* (a clock set wrongly,
a press the board saw late). Without a central start the hub only counts from the first
move: the first move's time spent is unknown.

A ``clock-side`` event that reads earlier moves' clocks again (the clock's sides were
decided after them) folds the game again with those readings. A ``move-clock`` event (the
mover pressed after the move was decided) folds the game again from that move, with the
reading at the press as its ``%clk`` and the press as the moment the move ended on the
clock: the move's ``%emt`` runs to the press, the opponent's time from it.

A move decided on an e-clock before its mover pressed (``unclocked``) has no ``%clk`` of
its own until that press: the hub's count still keeps the running clocks, but is never
given as the move's time.

Times are seconds; instants are Unix seconds as the log carries them. Pure: ``now`` is
passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import chess

from relay.domain.clock.time_control import Bonus, Period, TimeControl
from relay.domain.errors import RefusedError
from relay.domain.game.events import (
    ClockSideDecided,
    ClocksPaused,
    ClocksResumed,
    ClocksStarted,
    FlagFell,
    GameEnded,
    GameEvent,
    MoveClocked,
    MoveCorrected,
    MoveMade,
    MovesReplaced,
    ResultSet,
    TakenBack,
    TimeAdjusted,
)


class ClockAdjustmentError(ValueError, RefusedError):
    """A time change that cannot be applied (a negative result, an unknown change)."""


@dataclass(frozen=True, slots=True)
class MoveTime:
    """The clock after one move."""

    ply: int
    player: chess.Color
    #: Time left after the move (``%clk``): the e-clock's reading, else the hub's count.
    clock: float | None
    #: Time the move took (``%emt``); None when its start is not known.
    spent: float | None
    #: The period the move was played in (0 for the first).
    period: int
    #: e-clock minus the hub's count, when both are known.
    drift: float | None


@dataclass(frozen=True, slots=True)
class ClockState:
    """Both clocks as of ``since``; the running side counts down from then on."""

    white: float | None
    black: float | None
    #: The side whose clock runs; None before the start, while paused, and after the end.
    running: chess.Color | None
    #: When the running side's present stretch began.
    since: float | None
    paused: bool
    #: Seconds of simple delay before the running side's time starts to count.
    delay: float
    #: When the running side's time runs out if nothing happens first.
    flag_at: float | None
    #: A flag that fell: who and when.
    flag: tuple[chess.Color, float] | None


@dataclass(frozen=True, slots=True)
class _Snapshot:
    remaining: tuple[float | None, float | None]  # (black, white): indexed by chess.Color
    done: tuple[int, int]
    running: chess.Color | None
    since: float | None
    used: float
    paused: bool


def colour_name(colour: chess.Color) -> str:
    return "white" if colour == chess.WHITE else "black"


def colour_of(player: str) -> chess.Color:
    if player not in ("white", "black"):
        raise ClockAdjustmentError(f"player {player!r}: white or black")
    return chess.WHITE if player == "white" else chess.BLACK


class GameClock:
    """The fold of a game's clock events under one time control."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.timings: list[MoveTime] = []
        self.flag: tuple[chess.Color, float] | None = None
        self._history: list[_Snapshot] = []
        self.reset()

    @classmethod
    def from_events(cls, control: TimeControl, events: Iterable[GameEvent]) -> GameClock:
        clock = cls(control)
        for event in events:
            clock.apply(event)
        return clock

    def reset(self) -> None:
        """A new game on the board (the record restarts it): the clocks start over."""
        start = float(self.control.starting_seconds) if self.control.timed else None
        self._remaining: list[float | None] = [start, start]  # by chess.Color
        self._done = [0, 0]
        self._running: chess.Color | None = None
        self._since: float | None = None
        #: Time the running side used in this turn before the present stretch (pauses).
        self._used = 0.0
        self._paused = False
        self._ended = False
        #: The clocks have been started, or a move has been played.
        self.started = False
        self.timings = []
        self.flag = None
        self._history = []
        #: The events folded since the last reset, to fold again when clocks are re-read.
        self._applied: list[GameEvent] = []

    # The fold

    def apply(self, event: GameEvent) -> None:
        if isinstance(event, ClockSideDecided):
            if event.clocks:
                self._reread(dict(event.clocks))
            return
        if isinstance(event, MoveClocked):
            self._clocked(event)
            return
        self._applied.append(event)
        if isinstance(event, MoveMade):
            at = None if event.untimed else event.at
            self._move(event.ply, at, event.clock, unclocked=event.unclocked)
        elif isinstance(event, MoveCorrected):
            self._back_to(event.ply - 1)
            self._move(event.ply, event.at, event.clock, unclocked=event.unclocked)
        elif isinstance(event, TakenBack):
            counting, paused = self._counting(), self._paused
            self._back_to(event.ply)
            self._restart_turn(event.at, counting, paused)
        elif isinstance(event, MovesReplaced):
            counting, paused = self._counting(), self._paused
            self._back_to(event.ply - 1)
            for ply in range(event.ply, event.ply + len(event.uci)):
                self._move(ply, None, None)
            self._restart_turn(event.at, counting, paused)
        elif isinstance(event, ClocksStarted):
            self._remaining = [event.black, event.white]
            self._running = self._to_move()
            self._since, self._used, self._paused, self._ended = event.at, 0.0, False, False
            self.flag = None
            self.started = True
        elif isinstance(event, ClocksPaused):
            if self._running is not None and self._since is not None and not self._paused:
                self._used += max(0.0, event.at - self._since)
                self._since = None
                self._paused = True
        elif isinstance(event, ClocksResumed):
            if self._paused:
                self._paused = False
                self._since = event.at
        elif isinstance(event, TimeAdjusted):
            self._adjust(event)
        elif isinstance(event, FlagFell):
            colour = colour_of(event.player)
            self.flag = (colour, event.at)
            self._remaining[colour] = 0.0
            self._stop(event.at)
        elif isinstance(event, GameEnded) or (
            isinstance(event, ResultSet) and event.result.is_decided
        ):
            # The game is over, by the laws or by the arbiter's word: the clocks stop.
            self._stop(event.at)
            self._ended = True

    def _reread(self, clocks: dict[int, float]) -> None:
        """The e-clock readings of earlier moves, read again from the right side (the
        clock's sides were decided after them): fold the game again with those readings."""
        applied: list[GameEvent] = []
        pending = dict(clocks)
        for event in reversed(self._applied):
            if isinstance(event, MoveMade | MoveCorrected | MoveClocked) and event.ply in pending:
                event = replace(event, clock=pending.pop(event.ply))
            applied.append(event)
        self.reset()
        for event in reversed(applied):
            self.apply(event)

    def _clocked(self, event: MoveClocked) -> None:
        """The mover's press came after the move was decided: fold again from the move,
        with the press's reading and moment (nothing if the move is no longer there)."""
        found = next(
            (
                index
                for index in range(len(self._applied) - 1, -1, -1)
                if isinstance(self._applied[index], MoveMade | MoveCorrected)
                and self._applied[index].ply == event.ply  # type: ignore[union-attr]
            ),
            None,
        )
        if found is None or event.ply > len(self.timings):
            return
        move = self._applied[found]
        assert isinstance(move, MoveMade | MoveCorrected)
        later = self._applied[found + 1 :]
        del self._applied[found:]
        self._back_to(event.ply - 1)
        self._applied.append(event)  # kept for a re-read of the sides, applied below
        untimed = isinstance(move, MoveMade) and move.untimed
        self._move(event.ply, None if untimed else event.at, event.clock)
        self._applied.insert(len(self._applied) - 1, move)
        for after in later:
            self.apply(after)

    def _move(
        self, ply: int, at: float | None, reading: float | None, *, unclocked: bool = False
    ) -> None:
        self._history.append(self._snapshot())
        self.started = True
        mover = chess.WHITE if ply % 2 == 1 else chess.BLACK
        number = self._done[mover] + 1
        period_index, period = self._period(number)
        spent: float | None = None
        if at is not None and self._running == mover:
            spent = self._used + (0.0 if self._since is None else max(0.0, at - self._since))
        left = self._remaining[mover]
        counted: float | None = None
        if left is not None and at is not None:
            counted = left
            if spent is not None and period is not None:
                counted = left - _charge(spent, period) + _bonus(spent, period)
            if self.control.timed:
                counted += self.control.time_added_after(number)
            counted = max(0.0, counted)  # a flag fell, or was due: no time is below zero
        clock = reading if reading is not None else counted
        drift = reading - counted if reading is not None and counted is not None else None
        if clock is not None:
            self._remaining[mover] = clock
        self._done[mover] = number
        shown = None if unclocked and reading is None else clock  # never the count as a %clk
        self.timings.append(MoveTime(ply, mover, shown, spent, period_index, drift))
        if at is None or self._ended:
            self._running, self._since = None, None
        else:
            self._running, self._since, self._used = not mover, at, 0.0
            self._paused = False

    def _counting(self) -> bool:
        return not self._ended and (self._running is not None or self._paused)

    def _restart_turn(self, at: float, counting: bool, paused: bool) -> None:
        """After a takeback or a replacement the side to move has the move; its clock runs
        from now if the clocks were counting, and stays stopped if they were paused."""
        self._used, self._paused = 0.0, paused and counting
        if not counting:
            self._running, self._since = None, None
            return
        self._running = self._to_move()
        self._since = None if paused else at

    def _back_to(self, ply: int) -> None:
        if ply >= len(self.timings):
            return
        snapshot = self._history[ply]
        del self._history[ply:]
        del self.timings[ply:]
        self._remaining = list(snapshot.remaining)
        self._done = list(snapshot.done)
        self._running, self._since, self._used = snapshot.running, snapshot.since, snapshot.used
        self._paused = snapshot.paused

    def _adjust(self, event: TimeAdjusted) -> None:
        colour = colour_of(event.player)
        now = self._value(colour, event.at)
        base = self._remaining[colour]
        if event.change == "set":
            target = event.seconds
        elif event.change == "add":
            target = (now or 0.0) + event.seconds
        elif event.change == "subtract":
            target = (now or 0.0) - event.seconds
        else:
            raise ClockAdjustmentError(f"change {event.change!r}: add, subtract or set")
        if target < 0:
            raise ClockAdjustmentError(f"{event.player} would have {target:g} s")
        # The running side keeps counting: move its turn's starting time by the change.
        self._remaining[colour] = (base or 0.0) + target - (now or 0.0)

    def _stop(self, at: float) -> None:
        for colour in (chess.WHITE, chess.BLACK):
            if colour == self._running:
                self._remaining[colour] = self._value(colour, at)
        self._running, self._since, self._used, self._paused = None, None, 0.0, False

    # Reading

    def state(self) -> ClockState:
        """The clocks as of the last event: the running side counts down from ``since``."""
        running, since = self._running, self._since
        times = list(self._remaining)
        delay = 0.0
        flag_at = None
        left = times[running] if running is not None else None
        if running is not None and left is not None:
            period = self._period(self._done[running] + 1)[1]
            charge = self._used if period is None else _charge(self._used, period)
            pending = 0.0
            if period is not None and period.bonus is Bonus.DELAY:
                pending = max(0.0, period.bonus_seconds - self._used)
            times[running] = left = max(0.0, left - charge)
            if since is not None:
                delay = pending
                flag_at = since + pending + left
        return ClockState(
            white=times[chess.WHITE],
            black=times[chess.BLACK],
            running=None if self._paused else running,
            since=since,
            paused=self._paused,
            delay=delay,
            flag_at=flag_at,
            flag=self.flag,
        )

    def drift(self, colour: chess.Color) -> float | None:
        """e-clock minus the hub's count at ``colour``'s last move where both were known."""
        for timing in reversed(self.timings):
            if timing.player == colour and timing.drift is not None:
                return timing.drift
        return None

    def remaining(self, colour: chess.Color, now: float) -> float | None:
        """``colour``'s time at ``now``."""
        return self._value(colour, now)

    def _value(self, colour: chess.Color, now: float) -> float | None:
        left = self._remaining[colour]
        if left is None or colour != self._running:
            return left
        used = self._used + (0.0 if self._since is None else max(0.0, now - self._since))
        period = self._period(self._done[colour] + 1)[1]
        return max(0.0, left - (_charge(used, period) if period is not None else used))

    def _period(self, number: int) -> tuple[int, Period | None]:
        if not self.control.timed:
            return 0, None
        return self.control.period_at(number)

    def _to_move(self) -> chess.Color:
        return chess.WHITE if len(self.timings) % 2 == 0 else chess.BLACK

    def _snapshot(self) -> _Snapshot:
        black, white = self._remaining
        return _Snapshot(
            (black, white),
            (self._done[0], self._done[1]),
            self._running,
            self._since,
            self._used,
            self._paused,
        )


def _charge(spent: float, period: Period) -> float:
    """Time taken off the main time for a move that took ``spent``."""
    if period.bonus is Bonus.DELAY:
        return max(0.0, spent - period.bonus_seconds)
    return spent


def _bonus(spent: float, period: Period) -> float:
    """Time given back after the move: Fischer's increment, or Bronstein's refund."""
    if period.bonus is Bonus.FISCHER:
        return float(period.bonus_seconds)
    if period.bonus is Bonus.BRONSTEIN:
        return min(spent, float(period.bonus_seconds))
    return 0.0
