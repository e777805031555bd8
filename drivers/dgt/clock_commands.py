"""Commands to a DGT XL / DGT 3000 clock through the board, and their acknowledgements.

A clock command travels as ``0x2B, size, 0x03, command, payload..., 0x00`` where ``size``
counts from the 0x03 to the final 0x00. The clock takes one command at a time and answers
with an acknowledgement (inside a BWTIME message) within one or two seconds, and only while
the board is in an update mode. :class:`ClockCommander` keeps one command in flight, matches
acknowledgements to it, and resends after a timeout; it is sans-I/O: time is passed in.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from drivers.dgt.bwtime import Ack
from drivers.events import (
    AskVersion,
    Beep,
    BoardEvent,
    ClockCommand,
    ClockCommandFailed,
    ClockCommandResult,
    ClockVersion,
    EndDisplay,
    RunMode,
    SetAndRun,
    ShowText,
)

CLOCK_MESSAGE = 0x2B
START = 0x03
END = 0x00

CMD_DISPLAY = 0x01
CMD_ICONS = 0x02
CMD_END = 0x03
CMD_BUTTON = 0x08
CMD_VERSION = 0x09
CMD_SETNRUN = 0x0A
CMD_BEEP = 0x0B
CMD_ASCII = 0x0C

ACK_OK = 0x10
ACK_ERROR = 0x40

MAX_CLOCK_SECONDS = 9 * 3600 + 59 * 60 + 59
TEXT_WIDTH = 8

_RUN_BITS = {RunMode.LEFT: 0x01, RunMode.RIGHT: 0x02, RunMode.STOPPED: 0x04}
_TOGGLE_ON_LEVER = 0x08


class ClockCommandError(ValueError):
    """A command the clock cannot show or obey (a time out of range, non-ASCII text)."""


def wrap(command: int, payload: bytes = b"") -> bytes:
    body = bytes((START, command)) + payload + bytes((END,))
    return bytes((CLOCK_MESSAGE, len(body))) + body


def command_id(command: ClockCommand) -> int:
    if isinstance(command, SetAndRun):
        return CMD_SETNRUN
    if isinstance(command, ShowText):
        return CMD_ASCII
    if isinstance(command, Beep):
        return CMD_BEEP
    if isinstance(command, EndDisplay):
        return CMD_END
    return CMD_VERSION


def encode_command(command: ClockCommand) -> bytes:
    """The bytes to write to the board for ``command``."""
    if isinstance(command, SetAndRun):
        times = _hms(command.left_seconds) + _hms(command.right_seconds)
        mode = _RUN_BITS[command.run] | (_TOGGLE_ON_LEVER if command.lever_toggles else 0)
        return wrap(CMD_SETNRUN, bytes((*times, mode)))
    if isinstance(command, ShowText):
        if not command.text.isascii() or len(command.text) > TEXT_WIDTH:
            raise ClockCommandError(f"{command.text!r}: up to {TEXT_WIDTH} ASCII characters")
        text = command.text.ljust(TEXT_WIDTH).encode("ascii")
        return wrap(CMD_ASCII, text + bytes((_ascii_beep(command.beep_ms),)))
    if isinstance(command, Beep):
        units = round(command.duration_ms / 64)
        if not 1 <= units <= 0x7F:
            raise ClockCommandError(f"beep of {command.duration_ms} ms (64 to 8128 ms)")
        return wrap(CMD_BEEP, bytes((units,)))
    if isinstance(command, EndDisplay):
        return wrap(CMD_END)
    assert isinstance(command, AskVersion)
    return wrap(CMD_VERSION)


def _hms(seconds: int) -> tuple[int, int, int]:
    if not 0 <= seconds <= MAX_CLOCK_SECONDS:
        raise ClockCommandError(f"{seconds} s does not fit the clock (at most 9:59:59)")
    hours, rest = divmod(seconds, 3600)
    return hours, rest // 60, rest % 60


def _ascii_beep(milliseconds: int) -> int:
    # The DGT 3000 beeps for 62.5 ms plus value/16 s; 0 means no beep.
    if milliseconds <= 0:
        return 0
    return max(1, min(15, round(milliseconds / 62.5) - 1))


@dataclass(slots=True)
class _InFlight:
    command: ClockCommand
    sent_at: float
    attempts: int


class ClockCommander:
    """One clock command in flight at a time, with acknowledgement tracking and resends."""

    def __init__(self, *, ack_timeout: float = 2.5, max_attempts: int = 3) -> None:
        self.ack_timeout = ack_timeout
        self.max_attempts = max_attempts
        self._queue: deque[ClockCommand] = deque()
        self._in_flight: _InFlight | None = None

    @property
    def busy(self) -> bool:
        return self._in_flight is not None or bool(self._queue)

    @property
    def deadline(self) -> float | None:
        """When the command in flight times out, if one is."""
        if self._in_flight is None:
            return None
        return self._in_flight.sent_at + self.ack_timeout

    def submit(self, command: ClockCommand) -> None:
        """Queue a command; it is encoded now, so a bad one fails here and not later."""
        encode_command(command)
        self._queue.append(command)

    def data_to_send(self, now: float) -> bytes:
        """The next command's bytes, if none is in flight."""
        if self._in_flight is not None or not self._queue:
            return b""
        command = self._queue.popleft()
        self._in_flight = _InFlight(command, now, 1)
        return encode_command(command)

    def on_ack(self, ack: Ack) -> list[BoardEvent]:
        """Match an acknowledgement to the command in flight."""
        flight = self._in_flight
        if ack.generated or flight is None or ack.ack1 != command_id(flight.command):
            return []
        self._in_flight = None
        events: list[BoardEvent] = [ClockCommandResult(flight.command, ack.ack0 != ACK_ERROR)]
        if isinstance(flight.command, AskVersion):
            events.append(ClockVersion(ack.ack2 >> 4, ack.ack2 & 0x0F))
        return events

    def poll(self, now: float) -> tuple[bytes, list[BoardEvent]]:
        """Resend a command whose acknowledgement is overdue, or give it up."""
        flight = self._in_flight
        if flight is None or now < flight.sent_at + self.ack_timeout:
            return b"", []
        if flight.attempts >= self.max_attempts:
            self._in_flight = None
            reason = f"no acknowledgement after {flight.attempts} attempts"
            return b"", [ClockCommandFailed(flight.command, reason)]
        flight.attempts += 1
        flight.sent_at = now
        return encode_command(flight.command), []

    def abandon(self, reason: str) -> list[BoardEvent]:
        """The link is gone: every queued command fails."""
        pending = [self._in_flight.command] if self._in_flight else []
        pending += self._queue
        self._in_flight = None
        self._queue.clear()
        return [ClockCommandFailed(command, reason) for command in pending]
