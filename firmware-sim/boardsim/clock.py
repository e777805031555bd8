"""The firmware of a DGT 3000 clock attached to a board, sans I/O.

Time is passed in: every method that depends on it takes ``now`` (seconds on any monotonic
scale, the same one the board uses) and nothing here reads a clock or sleeps. Remaining times
are whole milliseconds computed from the moment the running side's move began, so they do not
drift however often the clock is read.

What the clock does, as this simulator models it:

* two sides, left and right, as seen from the front; the lever is up on one side, and the
  side whose lever is up is the one to move. A player presses their own side: that stops
  their time, applies the bonus and starts the other side. On a clock that has not been
  started yet, the first press starts the other side (how a game begins).
* :class:`TimeControl` gives the starting times and the bonus the clock applies itself:
  Fischer (added on each press of the side that was running; the first press that starts the
  game adds nothing), Bronstein (time used is given back, up to the bonus) or a simple delay
  (the time only starts counting ``bonus`` seconds into each move); and, for a two-period
  control such as 90 minutes for 40 moves then 30 more minutes, the time added to a side at
  the press that ends its ``moves``-th move.
* a side whose time runs out shows its flag; with ``stop_at_flag`` the clock also stops and
  blocks at zero (hours-byte bits 4 and 6), otherwise only the flag shows (bit 6).
* mode 23 is the state in which the board may drive the clock: SETNRUN is accepted only
  there (outside it the clock answers with the error ack). A hub-controlled clock starts in
  mode 23; :meth:`Dgt3000.leave_mode23` models the arbiter switching it to a normal mode.
  The lever works in both.
* every command from the board is acknowledged after a delay drawn from ``ack_delay``
  (seeded); acknowledgements keep the order of the commands. Button presses, "ready" after a
  reconnection and mode-23 changes produce spontaneous acks at once.
* displayed times are rounded up to the second, so a side shows 0:00:00 only when its flag
  has fallen. SETNRUN's count-up bit (hours | 0x10) is not supported and is ignored.
* with :attr:`Dgt3000.ignores_commands` the clock's command channel is broken: commands from
  the board have no effect and get no ack, while the times run and are reported as usual.

Whoever drives the clock can hear what it did: every :class:`ClockListener` in
:attr:`Dgt3000.listeners` is called with each SETNRUN applied (:class:`SetnrunApplied`) or
refused (:class:`SetnrunRefused`) and each flag fall (:class:`FlagFell`), inside the call that
caused it and stamped with that call's ``now``. The clock does no I/O with them; a listener
turns them into JSON lines or wakes a waiting player.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, IntEnum

#: Longest time a DGT clock can show: 9:59:59.
MAX_SECONDS = 9 * 3600 + 59 * 60 + 59


class Side(Enum):
    """A side of the clock as seen from the front."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


class Bonus(Enum):
    """How the clock gives time back per move."""

    FISCHER = "fischer"
    BRONSTEIN = "bronstein"
    DELAY = "delay"


class ClockCommand(IntEnum):
    """Commands inside a ``0x2B`` clock message."""

    DISPLAY = 0x01
    ICONS = 0x02
    END = 0x03
    BUTTON = 0x08
    VERSION = 0x09
    SETNRUN = 0x0A
    BEEP = 0x0B
    ASCII = 0x0C


#: Payload bytes each command carries between its command byte and the closing 0x00.
PAYLOAD_LENGTHS = {
    ClockCommand.DISPLAY: 8,
    ClockCommand.ICONS: 8,
    ClockCommand.END: 0,
    ClockCommand.BUTTON: 0,
    ClockCommand.VERSION: 0,
    ClockCommand.SETNRUN: 7,
    ClockCommand.BEEP: 1,
    ClockCommand.ASCII: 9,
}


class Button(IntEnum):
    """The clock's buttons, by the code a button ack carries in ack3."""

    BACK = 0x31
    PLUS = 0x32
    RUN = 0x33
    MINUS = 0x34
    OK = 0x35


#: ack2 of a button ack: 0x01 with the pressed button's bit.
BUTTON_MASKS = {
    Button.BACK: 0x04,
    Button.PLUS: 0x08,
    Button.RUN: 0x10,
    Button.MINUS: 0x20,
    Button.OK: 0x40,
}

ACK_OK = 0x10
ACK_ERROR = 0x40
ACK_READY = 0x81
ACK_BUTTON = 0x88
ACK_MODE23 = 0x8A
ACK_NOT_MODE23 = 0x90

# SETNRUN mode byte.
RUN_LEFT = 0x01
RUN_RIGHT = 0x02
RUN_PAUSED = 0x04
RUN_TOGGLE_ON_LEVER = 0x08


class RunMode(Enum):
    """What a SETNRUN mode byte asks the clock to run, by the names the JSON lines use."""

    LEFT = "left"
    RIGHT = "right"
    BOTH = "both"
    PAUSED = "paused"
    STOPPED = "stopped"

    @classmethod
    def of_byte(cls, mode: int) -> RunMode:
        """The run mode of SETNRUN's status byte; the pause bit wins over the side bits."""
        if mode & RUN_PAUSED:
            return cls.PAUSED
        left, right = bool(mode & RUN_LEFT), bool(mode & RUN_RIGHT)
        if left and right:
            return cls.BOTH
        if left:
            return cls.LEFT
        if right:
            return cls.RIGHT
        return cls.STOPPED

    @property
    def counts_down(self) -> bool:
        """A side runs once the clock has applied this mode."""
        return self in (RunMode.LEFT, RunMode.RIGHT, RunMode.BOTH)


class Refusal(Enum):
    """Why the clock answered a SETNRUN with the error ack."""

    NOT_MODE23 = "not-in-mode-23"
    BAD_TIME = "bad-time"
    BAD_LENGTH = "bad-length"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Starting time and the per-move bonus the clock applies by itself; for two periods,
    the time added to a side at the press that ends its ``moves``-th move."""

    base_seconds: int = 90 * 60
    bonus_seconds: int = 30
    bonus: Bonus = Bonus.FISCHER
    stop_at_flag: bool = True
    moves: int = 0
    added_seconds: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.base_seconds <= MAX_SECONDS:
            raise ValueError(f"a clock shows at most 9:59:59, not {self.base_seconds} s")
        if not 0 <= self.bonus_seconds <= 3600:
            raise ValueError(f"bonus of {self.bonus_seconds} s")
        if self.moves < 0 or not 0 <= self.added_seconds <= MAX_SECONDS:
            raise ValueError(f"{self.added_seconds} s added after {self.moves} moves")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"90+30"`` (minutes + Fischer seconds), ``"5d3"`` (delay), ``"5b3"``
        (Bronstein), ``"60"`` (no bonus), or two periods: ``"90/40:30+30"`` (90 minutes
        for 40 moves, then 30 minutes more, 30 s a move throughout)."""
        found = re.fullmatch(
            r"\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+)\s*:\s*(\d+(?:\.\d+)?))?\s*"
            r"(?:([+db])\s*(\d+))?\s*",
            text,
        )
        if found is None:
            raise ValueError(
                f"time control {text!r}: expected e.g. 90+30, 5d3, 5b3, 60 or 90/40:30+30"
            )
        minutes, moves, added, kind, bonus = found.groups()
        kinds = {"+": Bonus.FISCHER, "d": Bonus.DELAY, "b": Bonus.BRONSTEIN}
        return cls(
            base_seconds=round(float(minutes) * 60),
            bonus_seconds=int(bonus) if bonus else 0,
            bonus=kinds[kind] if kind else Bonus.FISCHER,
            moves=int(moves) if moves else 0,
            added_seconds=round(float(added) * 60) if added else 0,
        )


@dataclass(frozen=True, slots=True)
class Ack:
    """The four bytes of a clock acknowledgement."""

    ack0: int
    ack1: int
    ack2: int = 0
    ack3: int = 0


@dataclass(frozen=True, slots=True)
class SideReading:
    """What one side of the clock shows."""

    hours: int
    minutes: int
    seconds: int
    flag_fallen: bool = False
    per_move: bool = False
    flag_shown: bool = False

    @classmethod
    def of_seconds(cls, total: int, **flags: bool) -> SideReading:
        total = min(max(total, 0), MAX_SECONDS)
        return cls(total // 3600, total // 60 % 60, total % 60, **flags)

    @property
    def total_seconds(self) -> int:
        return self.hours * 3600 + self.minutes * 60 + self.seconds


@dataclass(frozen=True, slots=True)
class ClockReading:
    """Everything a BWTIME reports about the clock."""

    left: SideReading
    right: SideReading
    running: bool
    lever_high: Side
    turn: Side
    battery_low: bool


@dataclass(frozen=True, slots=True)
class LeverMoved:
    """The lever went down on ``halted``'s side; the board logs that side's time."""

    halted: Side
    reading: SideReading


@dataclass(frozen=True, slots=True)
class FlagFell:
    side: Side
    at: float


@dataclass(frozen=True, slots=True)
class SetnrunApplied:
    """The clock took a SETNRUN at ``at``: these times (whole seconds) and this run mode."""

    left_seconds: int
    right_seconds: int
    run: RunMode
    at: float


@dataclass(frozen=True, slots=True)
class SetnrunRefused:
    """The clock answered a SETNRUN at ``at`` with the error ack and changed nothing."""

    reason: Refusal
    at: float


ClockEvent = Ack | LeverMoved | FlagFell
#: What :attr:`Dgt3000.listeners` hear.
ClockReport = SetnrunApplied | SetnrunRefused | FlagFell
ClockListener = Callable[[ClockReport], None]


class Dgt3000:
    """A DGT 3000's behaviour towards the board and the players, with no I/O."""

    def __init__(
        self,
        time_control: TimeControl | None = None,
        *,
        mode23: bool = True,
        version: tuple[int, int] = (2, 2),
        ack_delay: tuple[float, float] = (0.3, 1.5),
        rng: random.Random | None = None,
        now: float = 0.0,
    ) -> None:
        if not all(0 <= part <= 15 for part in version):
            raise ValueError("the clock version is two nibbles")
        if not 0 <= ack_delay[0] <= ack_delay[1]:
            raise ValueError(f"ack delay {ack_delay}")
        self.time_control = time_control or TimeControl()
        self.mode23 = mode23
        self.version = version
        self.ack_delay = ack_delay
        self.connected = True
        #: The command channel is broken: commands from the board are lost without an ack.
        self.ignores_commands = False
        self.battery_low = False
        #: Called with every SETNRUN applied or refused and every flag fall (see above).
        self.listeners: list[ClockListener] = []
        #: What the display shows instead of the times (DISPLAY/ASCII), None for times.
        self.display: str | None = None
        self.icons: bytes = b""
        #: Beeps asked for, in milliseconds.
        self.beeps: list[int] = []
        #: Oddities in the commands received, collected rather than raised.
        self.errors: list[str] = []
        self._rng = rng or random.Random(0)
        self._now = now
        base = self.time_control.base_seconds * 1000
        self._remaining = {Side.LEFT: base, Side.RIGHT: base}
        self._running: Side | None = None
        self._move_start = now
        self._paused = False
        self._toggle = True
        self._blocked = False
        self._lever_high = Side.RIGHT
        self._flag_fallen: set[Side] = set()
        self._flag_shown: set[Side] = set()
        #: Moves each side has completed with a press (for a second period's time).
        self._moves = {Side.LEFT: 0, Side.RIGHT: 0}
        self._acks: list[tuple[float, int, Ack]] = []
        self._ack_seq = 0

    # -- reading ----------------------------------------------------------------------------

    @property
    def running(self) -> Side | None:
        return self._running

    @property
    def lever_high(self) -> Side:
        return self._lever_high

    def remaining_ms(self, side: Side, now: float | None = None) -> int:
        """Milliseconds left on ``side`` at ``now`` (never negative)."""
        now = self._time(now)
        if side is not self._running:
            return self._remaining[side]
        return max(0, self._remaining[side] - self._counted_ms(now))

    def side_reading(self, side: Side, now: float | None = None) -> SideReading:
        return SideReading.of_seconds(
            math.ceil(self.remaining_ms(side, now) / 1000),
            flag_fallen=side in self._flag_fallen,
            per_move=self.time_control.bonus_seconds > 0,
            flag_shown=side in self._flag_shown,
        )

    def shown_state(self) -> tuple[object, ...]:
        """Everything the reading depends on but the time: while it stays equal, the reading
        changes only at :meth:`next_display_change`."""
        return (
            self._running,
            self._move_start,
            self._remaining[Side.LEFT],
            self._remaining[Side.RIGHT],
            frozenset(self._flag_fallen),
            frozenset(self._flag_shown),
            self._lever_high,
            self.battery_low,
            self.time_control,
        )

    def reading(self, now: float | None = None) -> ClockReading:
        now = self._time(now)
        return ClockReading(
            left=self.side_reading(Side.LEFT, now),
            right=self.side_reading(Side.RIGHT, now),
            running=self._running is not None and self.remaining_ms(self._running, now) > 0,
            lever_high=self._lever_high,
            turn=self._running or self._lever_high,
            battery_low=self.battery_low,
        )

    # -- time -------------------------------------------------------------------------------

    def advance(self, now: float) -> list[ClockEvent]:
        """Flags that fell and acknowledgements that came due by ``now``, in time order."""
        now = self._time(now)
        events: list[ClockEvent] = []
        flag = self._flag_time()
        if flag is not None and flag <= now:
            events.append(self._fall(flag))
        while self._acks and self._acks[0][0] <= now:
            events.append(self._acks.pop(0)[2])
        self._now = now
        return events

    def next_deadline(self) -> float | None:
        """When :meth:`advance` next has something to report."""
        times = [t for t in (self._flag_time(), self._acks[0][0] if self._acks else None) if t]
        return min(times) if times else None

    def next_display_change(self, now: float | None = None) -> float | None:
        """When the running side's shown seconds next change, or None if nothing runs."""
        now = self._time(now)
        side = self._running
        if side is None or side in self._flag_shown:
            return None
        remaining = self.remaining_ms(side, now)
        target = (math.ceil(remaining / 1000) - 1) * 1000
        at = self._move_start + self._delay_seconds() + (self._remaining[side] - target) / 1000
        # A hair past the boundary so the whole-millisecond count has crossed it.
        return max(at, now) + 0.0005

    # -- players ----------------------------------------------------------------------------

    def press(self, side: Side, now: float) -> list[ClockEvent]:
        """The player on ``side`` presses their lever."""
        events = self.advance(now)
        now = self._now
        lever_moved = self._lever_high is not side.other
        self._lever_high = side.other
        if self._toggle and not self._paused and not self._blocked:
            if self._running is side:
                self._halt(side, now, with_bonus=True)
                self._start(side.other, now)
            elif self._running is None:
                self._start(side.other, now)
        if lever_moved:
            events.append(LeverMoved(side, self.side_reading(side, now)))
        return events

    def press_button(self, button: Button, now: float) -> None:
        """A button on the clock is pressed; the clock reports it at once."""
        self._queue(Ack(ACK_OK, ACK_BUTTON, 0x01 | BUTTON_MASKS[button], button), now, 0.0)

    # -- the board's side -------------------------------------------------------------------

    def handle(self, command: int, payload: bytes, now: float) -> None:
        """A clock command from the board; its ack comes out of :meth:`advance` later."""
        now = self._time(now)
        if not self.connected or self.ignores_commands:
            return
        try:
            kind = ClockCommand(command)
        except ValueError:
            self.errors.append(f"unknown clock command {command:#04x}")
            self._queue(Ack(ACK_ERROR, command & 0x7F), now)
            return
        if len(payload) != PAYLOAD_LENGTHS[kind]:
            self.errors.append(f"{kind.name}: {len(payload)} payload bytes")
            if kind is ClockCommand.SETNRUN:
                self._tell(SetnrunRefused(Refusal.BAD_LENGTH, now))
            self._queue(Ack(ACK_ERROR, kind), now)
            return
        ack = Ack(ACK_OK, kind)
        if kind is ClockCommand.SETNRUN:
            ack = self._setnrun(payload, now)
        elif kind is ClockCommand.DISPLAY:
            self.display = "segments " + payload[:7].hex()
            if payload[7] == 3:
                self.beeps.append(64)
        elif kind is ClockCommand.ASCII:
            self.display = payload[:8].decode("ascii", errors="replace")
            if payload[8]:
                self.beeps.append(round(62.5 + payload[8] * 1000 / 16))
        elif kind is ClockCommand.ICONS:
            self.icons = bytes(payload[:5])
        elif kind is ClockCommand.END:
            self.display = None
        elif kind is ClockCommand.BEEP:
            self.beeps.append(payload[0] * 64)
        elif kind is ClockCommand.VERSION:
            ack = Ack(ACK_OK, kind, self.version[0] << 4 | self.version[1])
        self._queue(ack, now)

    def set_connected(self, connected: bool, now: float) -> None:
        """The cable between board and clock is plugged in or pulled."""
        if connected and not self.connected:
            self._queue(Ack(ACK_OK, ACK_READY), now, 0.0)
        if not connected:
            self._acks.clear()
        self.connected = connected

    def enter_mode23(self, now: float) -> None:
        if not self.mode23:
            self.mode23 = True
            self._queue(Ack(ACK_OK, ACK_MODE23, 0, 23), now, 0.0)

    def leave_mode23(self, now: float) -> None:
        if self.mode23:
            self.mode23 = False
            self._queue(Ack(ACK_OK, ACK_NOT_MODE23), now, 0.0)

    def stop(self, now: float) -> list[ClockEvent]:
        """The clock is stopped at the end of a game (its play/pause button): the running
        side keeps the time it has left, with no bonus, the lever stays where it is, and
        presses do nothing until a reset or a SETNRUN."""
        events = self.advance(now)
        if self._running is not None:
            self._halt(self._running, self._now, with_bonus=False)
        self._paused = True
        return events

    def reset(self, now: float, time_control: TimeControl | None = None) -> None:
        """The arbiter sets the clock for a new game, with ``time_control`` if given: both
        sides at its base time, nothing running, no flags, the lever up on the right as
        after power-on, the lever working. Acks already due still come."""
        now = self._time(now)
        if time_control is not None:
            self.time_control = time_control
        base = self.time_control.base_seconds * 1000
        self._remaining = {Side.LEFT: base, Side.RIGHT: base}
        self._running = None
        self._move_start = now
        self._paused = False
        self._toggle = True
        self._blocked = False
        self._lever_high = Side.RIGHT
        self._flag_fallen.clear()
        self._flag_shown.clear()
        self._moves = {Side.LEFT: 0, Side.RIGHT: 0}
        self._now = now

    def cancel_acks(self) -> None:
        """Drop acknowledgements not yet delivered (the board stopped listening)."""
        self._acks.clear()

    # -- internals --------------------------------------------------------------------------

    def _time(self, now: float | None) -> float:
        return self._now if now is None else max(now, self._now)

    def _delay_seconds(self) -> float:
        control = self.time_control
        return control.bonus_seconds if control.bonus is Bonus.DELAY else 0

    def _counted_ms(self, now: float) -> int:
        counted = now - self._move_start - self._delay_seconds()
        return max(0, math.floor(counted * 1000 + 1e-6))

    def _flag_time(self) -> float | None:
        side = self._running
        if side is None or side in self._flag_shown:
            return None
        return self._move_start + self._delay_seconds() + self._remaining[side] / 1000

    def _fall(self, at: float) -> FlagFell:
        side = self._running
        assert side is not None
        self._remaining[side] = 0
        self._move_start = at
        self._flag_shown.add(side)
        if self.time_control.stop_at_flag:
            self._flag_fallen.add(side)
            self._running = None
            self._blocked = True
        fell = FlagFell(side, at)
        self._tell(fell)
        return fell

    def _halt(self, side: Side, now: float, *, with_bonus: bool) -> None:
        used = self._counted_ms(now)
        remaining = max(0, self._remaining[side] - used)
        control = self.time_control
        if with_bonus and side not in self._flag_shown:
            if control.bonus is Bonus.FISCHER:
                remaining += control.bonus_seconds * 1000
            elif control.bonus is Bonus.BRONSTEIN:
                remaining += min(used, control.bonus_seconds * 1000)
            self._moves[side] += 1
            if self._moves[side] == control.moves:
                remaining += control.added_seconds * 1000
        self._remaining[side] = min(remaining, MAX_SECONDS * 1000)
        self._running = None

    def _start(self, side: Side, now: float) -> None:
        self._running = side
        self._move_start = now

    def _setnrun(self, payload: bytes, now: float) -> Ack:
        if not self.mode23:
            self._tell(SetnrunRefused(Refusal.NOT_MODE23, now))
            return Ack(ACK_ERROR, ClockCommand.SETNRUN)
        left_h, left_m, left_s, right_h, right_m, right_s, mode = payload
        if left_h & 0x10 or right_h & 0x10:
            self.errors.append("SETNRUN: counting up is not supported; counting down")
        times = []
        sides = ((left_h & 0x0F, left_m, left_s), (right_h & 0x0F, right_m, right_s))
        for hours, minutes, seconds in sides:
            if hours > 9 or minutes > 59 or seconds > 59:
                self.errors.append(f"SETNRUN: {hours}:{minutes}:{seconds} is not a time")
                self._tell(SetnrunRefused(Refusal.BAD_TIME, now))
                return Ack(ACK_ERROR, ClockCommand.SETNRUN)
            times.append((hours * 3600 + minutes * 60 + seconds) * 1000)
        self._remaining = {Side.LEFT: times[0], Side.RIGHT: times[1]}
        self._flag_fallen.clear()
        self._flag_shown.clear()
        self._blocked = False
        self._paused = bool(mode & RUN_PAUSED)
        self._toggle = bool(mode & RUN_TOGGLE_ON_LEVER)
        run = RunMode.of_byte(mode)
        if not run.counts_down:
            self._running = None
        elif run is RunMode.BOTH:
            self._start(self._lever_high, now)
        else:
            self._start(Side.LEFT if run is RunMode.LEFT else Side.RIGHT, now)
        self._tell(SetnrunApplied(times[0] // 1000, times[1] // 1000, run, now))
        return Ack(ACK_OK, ClockCommand.SETNRUN)

    def _tell(self, report: ClockReport) -> None:
        # A copy: a listener may remove itself (a player that has seen the start).
        for listener in list(self.listeners):
            listener(report)

    def _queue(self, ack: Ack, now: float, delay: float | None = None) -> None:
        if delay is None:
            delay = self._rng.uniform(*self.ack_delay)
        due = now + delay
        if self._acks:
            # One answer at a time: acks keep the order of what caused them.
            due = max(due, self._acks[-1][0])
        self._ack_seq += 1
        self._acks.append((due, self._ack_seq, ack))
