"""The board's own log: the EEPROM ring that EE_MOVES and the bus change replies read.

Records, as the firmware writes them:

* field change, 2 bytes: ``0 1 0 r pppp`` then the square ``00 ffffff``; ``r`` is set when
  the change came less than 250 ms after the previous field change;
* clock, 3 bytes: ``0 1 1 f hhhh`` (``f`` = left side), minutes BCD, seconds BCD, written on
  a lever change with the time of the side that was halted;
* one-byte tags (:class:`Tag`).

The ring holds :data:`CAPACITY` bytes. It keeps whole records: when it is full the oldest
records go, so a dump never starts in the middle of one (a real ring can; hosts must cope,
but a simulator that garbles its own head adds nothing a fault cannot add on purpose).

Two cursors serve the bus: :meth:`BoardLog.take_changes` returns what was written since the
previous call, and :meth:`BoardLog.from_start` returns everything from the latest start tag
up to that cursor. A field record is overwritten in place, not followed by a new one, when it
is for the same square as the record before it and the host has not fetched that one yet
(the header's "if only one piece is changing" rule, as this simulator reads it).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import IntEnum

#: Bytes of EEPROM given to the log (the dump is this, plus the EOF tag, at most).
CAPACITY = 0x1F00 - 1

#: A change sooner than this after the previous one sets the record's "quick" bit.
QUICK_SECONDS = 0.25


class Tag(IntEnum):
    """One-byte log records."""

    NOP2 = 0x00
    POWERUP = 0x6A
    EOF = 0x6B
    FOURROWS = 0x6C
    EMPTYBOARD = 0x6D
    DOWNLOADED = 0x6E
    BEGINPOS = 0x6F
    BEGINPOS_ROT = 0x7A
    START_TAG = 0x7B
    WATCHDOG_ACTION = 0x7C
    NOP = 0x7F


def field_record(square: int, piece: int, *, quick: bool) -> bytes:
    if not 0 <= square < 64 or not 0 <= piece <= 15:
        raise ValueError(f"square {square}, piece {piece}")
    return bytes((0x40 | (0x10 if quick else 0) | piece, square))


def _bcd(value: int) -> int:
    if not 0 <= value <= 59:
        raise ValueError(f"{value} is not a clock minute or second")
    return (value // 10) << 4 | value % 10


def clock_record(*, left: bool, hours: int, minutes: int, seconds: int) -> bytes:
    if not 0 <= hours <= 9:
        raise ValueError(f"{hours} hours do not fit a clock record")
    return bytes((0x60 | (0x10 if left else 0) | hours, _bcd(minutes), _bcd(seconds)))


@dataclass(slots=True)
class _Record:
    seq: int
    data: bytes
    square: int | None = None


class BoardLog:
    """The EEPROM ring, oldest record first."""

    def __init__(self, capacity: int = CAPACITY, *, overwrite_same_square: bool = True) -> None:
        if capacity < 3:
            raise ValueError("the log needs room for at least one record")
        self.capacity = capacity
        self.overwrite_same_square = overwrite_same_square
        self._records: deque[_Record] = deque()
        self._size = 0
        self._seq = 0
        self._fetched = 0  # records with seq <= this have been taken by SEND_CHANGES
        self._last_change: float | None = None

    def __len__(self) -> int:
        """Bytes held."""
        return self._size

    def field_change(self, square: int, piece: int, now: float) -> None:
        quick = self._last_change is not None and now - self._last_change < QUICK_SECONDS
        self._last_change = now
        data = field_record(square, piece, quick=quick)
        last = self._records[-1] if self._records else None
        if (
            self.overwrite_same_square
            and last is not None
            and last.square == square
            and last.seq > self._fetched
        ):
            last.data = data
            return
        self._append(data, square)

    def clock(self, *, left: bool, hours: int, minutes: int, seconds: int) -> None:
        self._append(clock_record(left=left, hours=hours, minutes=minutes, seconds=seconds))

    def tag(self, tag: Tag) -> None:
        self._append(bytes((tag,)))

    def contents(self) -> bytes:
        """Every record held, oldest first, without the closing EOF."""
        return b"".join(record.data for record in self._records)

    def dump(self) -> bytes:
        """The EE_MOVES data: every record held, oldest first, then EOF."""
        return self.contents() + bytes((Tag.EOF,))

    def take_changes(self) -> bytes:
        """Records written since the previous call (the bus SEND_CHANGES answer)."""
        data = b"".join(record.data for record in self._records if record.seq > self._fetched)
        self._fetched = self._seq
        return data

    def from_start(self) -> bytes:
        """From the latest START_TAG (or the oldest record) to the last fetched change."""
        records = [record for record in self._records if record.seq <= self._fetched]
        starts = [i for i, record in enumerate(records) if record.data == bytes((Tag.START_TAG,))]
        first = starts[-1] if starts else 0
        return b"".join(record.data for record in records[first:])

    def _append(self, data: bytes, square: int | None = None) -> None:
        self._seq += 1
        self._records.append(_Record(self._seq, data, square))
        self._size += len(data)
        while self._size > self.capacity:
            self._size -= len(self._records.popleft().data)
