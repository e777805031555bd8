"""BWTIME messages: a clock reading, or an acknowledgement from the clock.

Payload (7 bytes after the header): right hours, minutes, seconds; left hours, minutes,
seconds; status. Hours bytes carry the hours in bits 0-3 (binary) and flags in bits 4-6;
minutes and seconds are BCD. A low nibble of 0x0A in byte 3 or byte 6 of the message marks
an acknowledgement instead, whose four bytes are rebuilt from bits of bytes 3-8.

The status byte's meaning has changed between DGT's header versions: the 2015 header swapped
the two "player's turn" bits. :class:`StatusBits` holds the mapping in one place;
:data:`HEADER_2015` is the default and :data:`PRE_2015` the other reading, chosen by a
setting if a real clock disagrees. A status byte that says "no clock" makes the rest of the
message meaningless: it decodes to :class:`NoClock`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from drivers.events import ClockButton, ClockReading, ClockSide, Lever

BWTIME_LENGTH = 7
ACK_NIBBLE = 0x0A

_FLAG_FALLEN = 0x10
_PER_MOVE_TIME = 0x20
_FLAG_SHOWN = 0x40


class BwTimeError(ValueError):
    """A BWTIME payload that cannot be a clock reading or an acknowledgement."""


@dataclass(frozen=True, slots=True)
class StatusBits:
    """Which bit of the status byte means what."""

    running: int = 0x01
    lever_right_up: int = 0x02
    battery_low: int = 0x04
    right_to_move: int = 0x08
    left_to_move: int = 0x10
    no_clock: int = 0x20
    #: One open-source decoder reads bit 5 the other way round ("clock connected").
    no_clock_when_clear: bool = False

    def swapped_turn_bits(self) -> StatusBits:
        """The pre-2015 reading, with the two player's-turn bits exchanged."""
        return replace(self, right_to_move=self.left_to_move, left_to_move=self.right_to_move)


HEADER_2015 = StatusBits()
PRE_2015 = HEADER_2015.swapped_turn_bits()


@dataclass(frozen=True, slots=True)
class NoClock:
    """The board reports that no clock is connected."""


@dataclass(frozen=True, slots=True)
class Ack:
    """The four bytes of a clock acknowledgement."""

    ack0: int
    ack1: int
    ack2: int
    ack3: int

    @property
    def ok(self) -> bool:
        return self.ack0 != 0x40

    @property
    def generated(self) -> bool:
        """Sent by the clock on its own (ready, button, mode), not in reply to a command."""
        return bool(self.ack1 & 0x80)


ACK_READY = 0x81
ACK_BUTTON = 0x88
ACK_MODE_23 = 0x8A
ACK_NOT_MODE_23 = 0x90

BUTTONS = {
    0x31: ClockButton.BACK,
    0x32: ClockButton.PLUS,
    0x33: ClockButton.RUN,
    0x34: ClockButton.MINUS,
    0x35: ClockButton.OK,
}


def decode_bwtime(
    payload: bytes, bits: StatusBits = HEADER_2015
) -> ClockReading | Ack | NoClock | None:
    """A reading, an acknowledgement, no clock, or None for the empty message some firmware
    sends after a clock command."""
    if len(payload) != BWTIME_LENGTH:
        raise BwTimeError(f"BWTIME of {len(payload)} bytes, expected {BWTIME_LENGTH}")
    if not any(payload):
        return None
    rh, rm, rs, lh, lm, ls, status = payload
    if rh & 0x0F == ACK_NIBBLE or lh & 0x0F == ACK_NIBBLE:
        return Ack(
            ack0=(rm & 0x7F) | ((lh << 3) & 0x80),
            ack1=(rs & 0x7F) | ((lh << 2) & 0x80),
            ack2=(lm & 0x7F) | ((rh << 3) & 0x80),
            ack3=(ls & 0x7F) | ((rh << 2) & 0x80),
        )
    if bool(status & bits.no_clock) != bits.no_clock_when_clear:
        return NoClock()
    return ClockReading(
        left=_side(lh, lm, ls),
        right=_side(rh, rm, rs),
        running=bool(status & bits.running),
        left_to_move=bool(status & bits.left_to_move),
        right_to_move=bool(status & bits.right_to_move),
        lever=Lever.RIGHT_UP if status & bits.lever_right_up else Lever.LEFT_UP,
        battery_low=bool(status & bits.battery_low),
    )


def _side(hours: int, minutes: int, seconds: int) -> ClockSide:
    h = hours & 0x0F
    if h > 9:
        raise BwTimeError(f"hours nibble {h}")
    return ClockSide(
        seconds=h * 3600 + _bcd(minutes) * 60 + _bcd(seconds),
        flag_fallen=bool(hours & _FLAG_FALLEN),
        flag_shown=bool(hours & _FLAG_SHOWN),
        per_move_time=bool(hours & _PER_MOVE_TIME),
    )


def _bcd(value: int) -> int:
    tens, units = divmod(value, 16)
    if tens > 5 or units > 9:
        raise BwTimeError(f"{value:#04x} is not a BCD value from 0 to 59")
    return tens * 10 + units


def encode_bcd(value: int) -> int:
    """The BCD byte of 0..59; used by tests and simulators of the clock side."""
    if not 0 <= value <= 59:
        raise ValueError(f"{value} is out of range for a BCD minute or second")
    return (value // 10) << 4 | value % 10
