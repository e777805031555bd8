"""The typed events every board driver emits, and the commands it accepts, whatever the hardware.

Squares are numbered the python-chess way (a1 = 0, b1 = 1, ..., h8 = 63) and pieces are FEN
letters ("P", "n", ...), so the hub can use any driver without knowing its wire format.
Drivers do not import python-chess; these conventions are the contract. Positions are always
as seen from White: a driver that detects a board turned round corrects them.

Clocks are reported by side of the clock (left and right as seen by the arbiter facing the
clock's display), not by colour: which player sits at which side is the hub's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: One entry per square, a1 first; None for an empty square, else a FEN piece letter or a
#: result marker's symbol.
Position = tuple[str | None, ...]

#: Result marker pieces (some boards have them: not chessmen) as they appear in a Position.
MARKER_SYMBOLS = {"=": "1/2-1/2", "1": "1-0", "0": "0-1"}

EMPTY_POSITION: Position = (None,) * 64


@dataclass(frozen=True, slots=True)
class PositionSnapshot:
    """The whole board as the hardware reported it (a board dump)."""

    position: Position


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One square changed; ``position`` is the whole board after the change."""

    square: int
    piece: str | None
    position: Position


@dataclass(frozen=True, slots=True)
class LogReplay:
    """Positions the board's own log shows since the host last read it, oldest first.

    Sent after a reconnection: what happened while the link was down. Each position is
    the board after one logged change; consumers skip what they already know.
    """

    positions: tuple[Position, ...]


@dataclass(frozen=True, slots=True)
class ClockSide:
    """One side of the clock display."""

    seconds: int  # remaining time, whole seconds
    flag_fallen: bool = False  # stopped at zero
    flag_shown: bool = False
    per_move_time: bool = False  # Fischer or Bronstein time per move is active


class Lever(Enum):
    """Which side of the clock's lever is up: that side's player is to move (the other
    side's player pressed last)."""

    LEFT_UP = "left-up"
    RIGHT_UP = "right-up"


@dataclass(frozen=True, slots=True)
class ClockReading:
    """What the clock shows and whose time runs."""

    left: ClockSide
    right: ClockSide
    running: bool
    left_to_move: bool
    right_to_move: bool
    lever: Lever
    battery_low: bool


class ClockButton(Enum):
    BACK = "back"
    PLUS = "plus"
    RUN = "run"
    MINUS = "minus"
    OK = "ok"


@dataclass(frozen=True, slots=True)
class ClockButtonPressed:
    button: ClockButton


@dataclass(frozen=True, slots=True)
class ClockCommandResult:
    """The clock answered a command: accepted, or refused (``ok`` False)."""

    command: ClockCommand
    ok: bool


@dataclass(frozen=True, slots=True)
class ClockCommandFailed:
    """The clock never acknowledged a command, after every resend."""

    command: ClockCommand
    reason: str


@dataclass(frozen=True, slots=True)
class ClockVersion:
    major: int
    minor: int


class Health(Enum):
    """How a board is doing, as the arbiter's console shows it."""

    ACTIVE = "active"
    DELAYED = "delayed"  # answers, but late
    NOT_RESPONDING = "not-responding"
    DISCONNECTED = "disconnected"


@dataclass(frozen=True, slots=True)
class BoardStatus:
    """A board's health and identity; sent whenever any of it changes."""

    health: Health
    serial: str | None = None
    long_serial: str | None = None
    trademark: str | None = None
    bus_address: int | None = None
    version: tuple[int, int] | None = None
    rotated: bool = False
    battery_percent: int | None = None
    battery_charging: bool | None = None
    clock_connected: bool | None = None
    last_seen: float | None = None  # monotonic seconds of the last message


@dataclass(frozen=True, slots=True)
class LineNoise:
    """Bytes that were dropped because they did not form a valid message."""

    discarded: int
    reason: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The port was lost or closed; the driver says whether it will try again."""

    reason: str
    reconnecting: bool = False


BoardEvent = (
    PositionSnapshot
    | FieldChange
    | LogReplay
    | ClockReading
    | ClockButtonPressed
    | ClockCommandResult
    | ClockCommandFailed
    | ClockVersion
    | BoardStatus
    | LineNoise
    | Disconnected
)


# Commands, hub to board.


class RunMode(Enum):
    """Which side's time runs after a set-and-run."""

    STOPPED = "stopped"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class SetAndRun:
    """Set both times and start (or hold) the clock."""

    left_seconds: int
    right_seconds: int
    run: RunMode
    #: A press of the lever stops the presser's time and starts the other's (a game in
    #: play); without it the clock keeps the side it was told to run.
    lever_toggles: bool = False


@dataclass(frozen=True, slots=True)
class ShowText:
    """Show up to 8 characters on the clock (DGT 3000), with an optional beep."""

    text: str
    beep_ms: int = 0


@dataclass(frozen=True, slots=True)
class Beep:
    duration_ms: int


@dataclass(frozen=True, slots=True)
class EndDisplay:
    """Back from text to the times."""


@dataclass(frozen=True, slots=True)
class AskVersion:
    """Ask the clock for its firmware version."""


ClockCommand = SetAndRun | ShowText | Beep | EndDisplay | AskVersion
