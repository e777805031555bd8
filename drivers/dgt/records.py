"""The board's own log (EE_MOVES, and the bus UPDATE and FROM_START replies).

The board keeps an ~8 KB ring of records: a field change in 2 bytes (``010r pppp``, then the
field 0-63; r marks a change less than ~250 ms after the previous one), a clock time in 3
bytes (``011f hhhh``, BCD minutes, BCD seconds; f = 1 for the left display), and one-byte
tags. :func:`decode_log` turns the bytes into typed records and never raises: a byte that
starts no known record is reported and skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from drivers.dgt.messages import PIECE_LETTERS, dgt_to_square
from drivers.events import Position


class Tag(IntEnum):
    NOP2 = 0x00
    POWER_UP = 0x6A
    EOF = 0x6B
    FOUR_ROWS = 0x6C
    EMPTY_BOARD = 0x6D
    DOWNLOADED = 0x6E
    BEGIN_POSITION = 0x6F
    BEGIN_POSITION_ROTATED = 0x7A
    START_TAG = 0x7B
    WATCHDOG = 0x7C
    NOP = 0x7F


_TAGS = {int(tag) for tag in Tag} | {0x7D, 0x7E}  # 7D, 7E: reserved, read as no-ops


@dataclass(frozen=True, slots=True)
class FieldRecord:
    """A piece code (0 = emptied) on a DGT field index (0 = a8 ... 63 = h1)."""

    field: int
    piece_code: int
    quick: bool


@dataclass(frozen=True, slots=True)
class ClockRecord:
    left: bool
    seconds: int


@dataclass(frozen=True, slots=True)
class TagRecord:
    tag: int


Record = FieldRecord | ClockRecord | TagRecord


@dataclass(frozen=True, slots=True)
class DecodedLog:
    records: list[Record]
    skipped: int  # bytes that began no record


def decode_log(data: bytes) -> DecodedLog:
    records: list[Record] = []
    skipped = 0
    i = 0
    while i < len(data):
        byte = data[i]
        if 0x40 <= byte <= 0x5F and i + 1 < len(data) and data[i + 1] < 64:
            records.append(FieldRecord(data[i + 1], byte & 0x0F, bool(byte & 0x10)))
            i += 2
        elif _is_clock(byte) and i + 2 < len(data) and _bcd_ok(data[i + 1], data[i + 2]):
            seconds = (byte & 0x0F) * 3600 + _bcd(data[i + 1]) * 60 + _bcd(data[i + 2])
            records.append(ClockRecord(bool(byte & 0x10), seconds))
            i += 3
        elif byte in _TAGS:
            records.append(TagRecord(byte))
            i += 1
        else:
            skipped += 1
            i += 1
    return DecodedLog(records, skipped)


def _is_clock(byte: int) -> bool:
    return 0x60 <= byte <= 0x69 or 0x70 <= byte <= 0x79


def _bcd(value: int) -> int:
    return (value >> 4) * 10 + (value & 0x0F)


def _bcd_ok(*values: int) -> bool:
    return all((value >> 4) <= 5 and (value & 0x0F) <= 9 for value in values)


def records_after_last(records: list[Record], tag: Tag) -> list[Record]:
    """The records that follow the last ``tag`` (all of them if it never occurs)."""
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        if isinstance(record, TagRecord) and record.tag == tag:
            return records[index + 1 :]
    return records


def replay_positions(
    base: Position, records: Sequence[Record], *, last_known: Position | None = None
) -> list[Position]:
    """The positions the records lead through from ``base``, as the board numbers squares.

    A power-up tag starts again from an empty board (the board then logs every piece it
    finds). With ``last_known``, positions up to the last time the board stood there are
    dropped: the host saw those live. Pieces in passing (a slide) are left in: telling them
    from real moves takes the rules, which is the game tracker's business. (The records'
    "quick" bit cannot tell either: a fast player's real move is quick too.)
    """
    squares: list[str | None] = list(base)
    trail: list[Position] = []
    for record in records:
        if isinstance(record, TagRecord) and record.tag == Tag.POWER_UP:
            squares = [None] * 64
        if not isinstance(record, FieldRecord):
            continue
        code = record.piece_code
        squares[dgt_to_square(record.field)] = PIECE_LETTERS.get(code)
        trail.append(tuple(squares))
    if last_known is not None and last_known in trail:
        last = len(trail) - 1 - trail[::-1].index(last_known)
        return trail[last + 1 :]
    return trail
