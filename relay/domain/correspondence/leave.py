"""Leave by the IECG Rules and Regulations 6.4, article C.8.

* A leave is an announced absence from a tournament: up to 45 days in all in each 12
  months from the tournament's start date, in standard and team tournaments; none in rapid
  ones, and no special leave for any reason (C.8.A).
* It must be announced to all opponents and the TS in advance; a leave that was not is
  void and normal timekeeping goes on (C.8.B).
* It stops only the clock of the player on leave; his opponents answer as usual (C.8.A).
* A player who answers a move during his leave cancels the rest of it for that game
  (C.8.C).
* Days of leave do not count towards the 30 (rapid: 20) days of a move (C.3.1.A, C.3.2.A).

What a game's clock needs is the set of days its player's clock is stopped:
:func:`game_leave`. :func:`check_leave` says whether a leave asked for can be granted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from relay.domain.correspondence.days import CorrespondenceControl
from relay.domain.errors import InvalidInputError, RefusedError

#: Days of leave in each 12 months from the tournament's start (C.8.A).
LEAVE_DAYS = 45


class LeaveDatesError(ValueError, InvalidInputError):
    """A leave whose last day comes before its first."""


class LeaveRefusedError(ValueError, RefusedError):
    """A leave the rules do not grant: in a rapid tournament, not announced in advance, or
    beyond the 45 days of its 12 months (C.8.A-B)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A leave from ``first`` to ``last``, both days included, announced on ``announced``."""

    announced: date
    first: date
    last: date

    def __post_init__(self) -> None:
        if self.last < self.first:
            raise LeaveDatesError(f"a leave from {self.first} to {self.last}: last before first")

    @property
    def days(self) -> int:
        """Its length in days: a leave from 1 to 10 July is 10 days."""
        return (self.last - self.first).days + 1

    @property
    def in_advance(self) -> bool:
        """Whether it was announced before its first day (C.8.B). Decision: announcing it on
        its first day is not "in advance"."""
        return self.announced < self.first

    def dates(self) -> Iterator[date]:
        """Its days, first to last."""
        for offset in range(self.days):
            yield self.first + timedelta(days=offset)

    def until(self, day: date) -> Leave | None:
        """The part of it before ``day``, None if nothing is left."""
        if day <= self.first:
            return None
        return Leave(self.announced, self.first, min(self.last, day - timedelta(days=1)))


def leave_year(start: date, day: date) -> int:
    """Which 12 months from the tournament's ``start`` ``day`` falls in: 0 for the first
    (C.8.A). A tournament started on 29 February starts its years on 1 March when the year
    has no 29 February."""
    years = day.year - start.year
    return years - 1 if (day.month, day.day) < (start.month, start.day) else years


def valid(leaves: Iterable[Leave]) -> list[Leave]:
    """The leaves that count: those announced in advance (C.8.B)."""
    return [leave for leave in leaves if leave.in_advance]


def days_taken(leaves: Iterable[Leave], start: date, year: int) -> int:
    """The days of valid leave taken in 12 months number ``year`` from ``start``; a day
    covered by two leaves counts once."""
    taken = {day for leave in valid(leaves) for day in leave.dates()}
    return sum(1 for day in taken if leave_year(start, day) == year)


def leave_left(taken: Iterable[Leave], start: date, on: date) -> int:
    """The days of leave still to take in the 12 months that ``on`` falls in (C.8.A)."""
    return max(LEAVE_DAYS - days_taken(taken, start, leave_year(start, on)), 0)


def check_leave(
    new: Leave, taken: Iterable[Leave], start: date, control: CorrespondenceControl
) -> None:
    """Refuse, with :class:`LeaveRefusedError`, a leave the rules do not grant: in a rapid
    tournament (C.8.A), not announced in advance (C.8.B), or making any 12 months from
    ``start`` hold more than 45 days of leave (C.8.A). A leave over two such years counts
    each day in its own year."""
    if not control.allows_leave:
        raise LeaveRefusedError("no leave can be granted in rapid tournaments (C.8.A)")
    if not new.in_advance:
        raise LeaveRefusedError(
            f"a leave from {new.first} announced on {new.announced} is not in advance (C.8.B)"
        )
    every = [*taken, new]
    for year in sorted({leave_year(start, day) for day in new.dates()}):
        if days_taken(every, start, year) > LEAVE_DAYS:
            raise LeaveRefusedError(
                f"more than {LEAVE_DAYS} days of leave in 12 months number {year + 1} "
                f"from the tournament's start on {start} (C.8.A)"
            )


def game_leave(
    leaves: Iterable[Leave], replies: Iterable[date], control: CorrespondenceControl
) -> frozenset[date]:
    """The days a player's clock is stopped in one game: the days of his leaves announced in
    advance (C.8.A-B), each cut at the first of his ``replies`` in this game that falls in
    it (C.8.C).

    Decision: the days of a leave before the reply stay leave; the reply's day and the rest
    of the leave count as normal time in this game (and only in this game).
    Raises :class:`LeaveRefusedError` for a leave in a rapid game (C.8.A). Whether the
    leaves keep to the 45 days is :func:`check_leave`'s question, asked when each is granted.
    """
    counted = valid(leaves)
    if counted and not control.allows_leave:
        raise LeaveRefusedError("no leave can be granted in rapid tournaments (C.8.A)")
    answered = sorted(replies)
    days: set[date] = set()
    for leave in counted:
        during = [day for day in answered if leave.first <= day <= leave.last]
        kept = leave.until(during[0]) if during else leave
        if kept is not None:
            days.update(kept.dates())
    return frozenset(days)
