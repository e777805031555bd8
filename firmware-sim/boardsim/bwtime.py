"""BWTIME data (the 7 bytes after the header): clock times, status, and clock acks.

Layout, following the 2015+ DGT header (see ``docs/dgt-protocol.md``):

* bytes 0-2 the **right** side, bytes 3-5 the **left** side: hours byte (low nibble hours
  0-9; bit 4 flag fallen and blocked at zero; bit 5 per-move bonus active; bit 6 flag shown),
  then minutes and seconds in BCD;
* byte 6 the status byte, its bits in :class:`Status` — the one table of them here.

An acknowledgement from the clock travels in the same message: the low nibble of bytes 0
and 3 is 0x0A, the four ack bytes go in bytes 1, 2, 4, 5 with their bit 7 moved into bits 4
and 5 of bytes 3 (ack0, ack1) and 0 (ack2, ack3). Byte 6 of an ack is 0: the header defines
no status there.
"""

from __future__ import annotations

from enum import IntFlag

from boardsim.clock import Ack, ClockReading, Side, SideReading

#: Hours-byte flags.
FLAG_FALLEN = 0x10
PER_MOVE = 0x20
FLAG_SHOWN = 0x40

#: Low nibble marking an ack.
ACK_MARK = 0x0A

#: A BWTIME's data length.
DATA_LENGTH = 7


class Status(IntFlag):
    """BWTIME byte 9 (data byte 6), 2015+ header reading."""

    RUNNING = 0x01
    LEVER_HIGH_RIGHT = 0x02
    BATTERY_LOW = 0x04
    RIGHT_TURN = 0x08
    LEFT_TURN = 0x10
    NO_CLOCK = 0x20


def bcd(value: int) -> int:
    if not 0 <= value <= 99:
        raise ValueError(f"{value} does not fit two BCD digits")
    return (value // 10) << 4 | value % 10


def side_bytes(side: SideReading) -> bytes:
    hours = side.hours
    if not 0 <= hours <= 9:
        raise ValueError(f"{hours} hours do not fit the hours nibble")
    if side.flag_fallen:
        hours |= FLAG_FALLEN
    if side.per_move:
        hours |= PER_MOVE
    if side.flag_shown:
        hours |= FLAG_SHOWN
    return bytes((hours, bcd(side.minutes), bcd(side.seconds)))


def status_of(reading: ClockReading) -> Status:
    status = Status(0)
    if reading.running:
        status |= Status.RUNNING
    if reading.lever_high is Side.RIGHT:
        status |= Status.LEVER_HIGH_RIGHT
    if reading.battery_low:
        status |= Status.BATTERY_LOW
    status |= Status.RIGHT_TURN if reading.turn is Side.RIGHT else Status.LEFT_TURN
    return status


def time_data(reading: ClockReading | None) -> bytes:
    """The clock's state; None means no clock is connected (zero times, NO_CLOCK)."""
    if reading is None:
        return bytes(6) + bytes((Status.NO_CLOCK,))
    return side_bytes(reading.right) + side_bytes(reading.left) + bytes((status_of(reading),))


def ack_data(ack: Ack) -> bytes:
    if not all(0 <= part <= 0xFF for part in (ack.ack0, ack.ack1, ack.ack2, ack.ack3)):
        raise ValueError(f"{ack} has a part that is not a byte")
    right_hours = ACK_MARK | (ack.ack2 & 0x80) >> 3 | (ack.ack3 & 0x80) >> 2
    left_hours = ACK_MARK | (ack.ack0 & 0x80) >> 3 | (ack.ack1 & 0x80) >> 2
    return bytes(
        (
            right_hours,
            ack.ack0 & 0x7F,
            ack.ack1 & 0x7F,
            left_hours,
            ack.ack2 & 0x7F,
            ack.ack3 & 0x7F,
            0,
        )
    )


def decode_ack(data: bytes) -> Ack | None:
    """The ack in BWTIME data, or None for a time reading (the host's rule, for tests)."""
    if len(data) != DATA_LENGTH:
        raise ValueError(f"BWTIME data is {DATA_LENGTH} bytes, not {len(data)}")
    b3, b4, b5, b6, b7, b8, _ = data
    if (b3 & 0x0F) != ACK_MARK and (b6 & 0x0F) != ACK_MARK:
        return None
    return Ack(
        b4 & 0x7F | (b6 << 3) & 0x80,
        b5 & 0x7F | (b6 << 2) & 0x80,
        b7 & 0x7F | (b3 << 3) & 0x80,
        b8 & 0x7F | (b3 << 2) & 0x80,
    )
