"""The board's sensors: what is physically on the squares, and what each scan reads.

Sans I/O, time passed in. A real board reads its 64 sensors one after another, a8 to h1,
taking 200-250 ms for the sweep, and reports the differences from the previous sweep when it
ends. This module models that sweep: square ``i`` of a scan running from ``start`` to ``end``
is read at ``start + (end - start) * i / 64``, so

* a lift and a placement that both happen before their squares are read show only the end
  state (a fast capture reads as "new piece on c4, b3 empty");
* a piece moved from a square read early to one read late can be seen on both;
* a piece slid across the board leaves a trail of partial states.

Scans follow each other with no gap; each lasts a period drawn from :class:`ScanTiming`
(seeded). With ``timing=None`` the scanner is *instant*: every change is reported the moment
it is made, which fast tests and the existing callers rely on.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScanTiming:
    """How long one sweep of the sensors takes, drawn uniformly per scan."""

    period_min: float = 0.2
    period_max: float = 0.25

    def __post_init__(self) -> None:
        if not 0 < self.period_min <= self.period_max:
            raise ValueError(f"scan period {self.period_min}..{self.period_max}")

    @classmethod
    def parse(cls, text: str) -> ScanTiming | None:
        """``"200-250"`` (milliseconds) or ``"225"``; ``"0"`` means instant (None)."""
        low, _, high = text.partition("-")
        try:
            period = (float(low) / 1000, float(high or low) / 1000)
        except ValueError:
            raise ValueError(f"scan time {text!r}: expected MS or MIN-MAX in ms") from None
        if period == (0, 0):
            return None
        return cls(*period)


@dataclass(frozen=True, slots=True)
class Scan:
    """One completed sweep: when it ended and the squares that differ from the last one."""

    at: float
    changes: tuple[tuple[int, int], ...]
    squares: tuple[int, ...]


class Scanner:
    """Physical squares and scanned squares of one board."""

    def __init__(
        self,
        squares: Sequence[int],
        timing: ScanTiming | None,
        rng: random.Random,
        now: float = 0.0,
    ) -> None:
        if len(squares) != 64:
            raise ValueError("a position has 64 squares")
        self.timing = timing
        self._rng = rng
        self._physical = list(squares)
        self._scanned = tuple(squares)
        # The physical board as of the end of the last scan, and changes made since.
        self._base = list(squares)
        self._pending: list[tuple[float, int, int]] = []
        self._scan_start = now
        self._scan_end = now + self._period()

    @property
    def physical(self) -> tuple[int, ...]:
        return tuple(self._physical)

    @property
    def scanned(self) -> tuple[int, ...]:
        """The board as the last scan read it: what the firmware reports and dumps."""
        return self._scanned

    def place(self, index: int, piece: int, now: float) -> list[Scan]:
        """``piece`` is put on square ``index`` (0 lifts); returns scans completed by now."""
        scans = self.advance(now)
        if self._physical[index] == piece:
            return scans
        self._physical[index] = piece
        if self.timing is None:
            self._base[index] = piece
            before = self._scanned
            self._scanned = tuple(self._physical)
            if before[index] != piece:
                scans.append(Scan(now, ((index, piece),), self._scanned))
        else:
            self._pending.append((now, index, piece))
        return scans

    def advance(self, now: float) -> list[Scan]:
        """Scans that ended by ``now`` and saw something change, oldest first."""
        scans: list[Scan] = []
        if self.timing is None:
            return scans
        while self._scan_end <= now:
            if self._idle():
                # Nothing to see: jump over whole scans without sampling them.
                period = self._scan_end - self._scan_start
                skipped = math.floor((now - self._scan_end) / period) + 1
                self._scan_start += skipped * period
                self._scan_end += skipped * period
                break
            scan = self._sweep()
            if scan is not None:
                scans.append(scan)
            self._scan_start = self._scan_end
            self._scan_end = self._scan_start + self._period()
        return scans

    def next_deadline(self) -> float | None:
        """When the scan in progress ends, if it can report anything."""
        if self.timing is None or self._idle():
            return None
        return self._scan_end

    def _idle(self) -> bool:
        return not self._pending and tuple(self._base) == self._scanned

    def _period(self) -> float:
        if self.timing is None:
            return 1.0
        return self._rng.uniform(self.timing.period_min, self.timing.period_max)

    def _sweep(self) -> Scan | None:
        start, end = self._scan_start, self._scan_end
        step = (end - start) / 64
        seen = list(self._base)
        for at, index, piece in self._pending:  # pending is in time order
            if at <= start + step * index:
                seen[index] = piece
        folded = [change for change in self._pending if change[0] <= end]
        for _, index, piece in folded:
            self._base[index] = piece
        del self._pending[: len(folded)]
        before = self._scanned
        self._scanned = tuple(seen)
        changes = tuple((i, p) for i, p in enumerate(seen) if p != before[i])
        return Scan(end, changes, self._scanned) if changes else None
