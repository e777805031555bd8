"""Days on a correspondence clock by the IECG Rules and Regulations 6.4, section C (Rules of
Play): the time controls and the days one move takes.

* Time controls (C.6.A): 40 days for every 10 moves in standard and team tournaments, time
  saved carried forward (C.6.C); 10 days + 1 day a move, a Fischer clock, in rapid ones.
* The days of one move (C.6.D): "the difference in days between the date on which the
  opponent's latest move was received and the mailing date of the reply". A move is
  received one day after it was sent, the accepted time of an email (C.2.B): reading it
  later is at the reader's expense, and reading it sooner gains nothing.
* Days of leave are not counted (C.3.1.A, C.8.A); :mod:`relay.domain.correspondence.leave`
  says which days those are, here they are only a set of dates.
* The time of a player who takes more than 10 days (5 in rapid) for a move without a notice
  to the opponent is doubled (C.3.1.B); a penalty of 5 days (3 in rapid) is added for each
  illegible, invalid or illegal move or wrong repetition (C.2.G).

Every date is a :class:`datetime.date`; nothing here reads a clock: "today" is always given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from relay.domain.errors import InvalidInputError

ONE_DAY = timedelta(days=1)


class ControlError(ValueError, InvalidInputError):
    """A time control that cannot be used: a count of days or moves below what it needs."""


class TurnError(ValueError, InvalidInputError):
    """The dates of a move that cannot be: a reply mailed before the move it answers, a
    pending move counted without a "today", a negative penalty count."""


class EventKind(StrEnum):
    """The kinds of event whose timekeeping the rules tell apart."""

    #: Standard class, Large, Quad, Cup, World Championship, thematic, two-game matches.
    STANDARD = "standard"
    #: Team tournaments (C.3.2): a move over the limit withdraws the player, not the game.
    TEAM = "team"
    #: Rapid class tournaments (RCT): a Fischer clock, shorter limits, no leave (C.8.A).
    RAPID = "rapid"


@dataclass(frozen=True, slots=True)
class CorrespondenceControl:
    """A correspondence time control, in whole days.

    With ``moves`` above 0 the control is periodic: ``days`` for every ``moves`` moves,
    checked at moves ``moves``, ``2 * moves``, ..., the time saved carried forward (C.6.A,
    C.6.C). With ``moves`` 0 it is a Fischer clock: ``days`` at the start and ``increment``
    days for each move.

    ``move_limit`` caps a single move (C.3.1.A, C.3.2.A), ``notice_after`` is the days a
    move may take before a notice is needed (C.3.1.B) and also the days of silence before a
    reminder and then before the TS is told (C.3.1.C-D), ``penalty_days`` the days of one
    C.2.G penalty. :meth:`standard`, :meth:`team` and :meth:`rapid` give the rules' numbers;
    other numbers serve a two-game match played at a time control of its own (D.2.6).
    """

    kind: EventKind
    days: int
    moves: int
    increment: int
    move_limit: int
    notice_after: int
    penalty_days: int

    def __post_init__(self) -> None:
        if self.days < 1 or self.move_limit < 1 or self.notice_after < 1:
            raise ControlError("a control needs at least 1 day, move limit and notice period")
        if self.moves < 0 or self.increment < 0 or self.penalty_days < 0:
            raise ControlError("moves, increment and penalty days cannot be negative")
        if self.moves and self.increment:
            raise ControlError("a control is periodic (moves) or Fischer (increment), not both")

    @classmethod
    def standard(cls) -> CorrespondenceControl:
        """40 days per 10 moves (C.6.A), 30 days at most for a move (C.3.1.A), a notice
        after 10 days (C.3.1.B), 5 days a penalty (C.2.G)."""
        return cls(EventKind.STANDARD, 40, 10, 0, 30, 10, 5)

    @classmethod
    def team(cls) -> CorrespondenceControl:
        """As :meth:`standard` (C.6.A, C.3.2.A).

        Decision: C.3.2 (team tournaments) says nothing of notices and reminders, but its
        paragraph D counts "doubled reflection time" among the penalties that apply, so the
        standard rules C.3.1.B-D apply to teams too, with their numbers (doubling from the
        11th day), not the "after 12 days" of C.3.2.D's example.
        """
        return cls(EventKind.TEAM, 40, 10, 0, 30, 10, 5)

    @classmethod
    def rapid(cls) -> CorrespondenceControl:
        """10 days + 1 day a move (C.6.A), 20 days at most for a move (C.3.1.A), a notice
        after 5 days (C.3.1.B), 3 days a penalty (C.2.G)."""
        return cls(EventKind.RAPID, 10, 0, 1, 20, 5, 3)

    @property
    def allows_leave(self) -> bool:
        """No leave can be granted in rapid tournaments (C.8.A)."""
        return self.kind is not EventKind.RAPID

    def next_control(self, move: int) -> int:
        """The move at which the time for the player's move ``move`` is checked: the end of
        its period of ``moves`` moves, or the move itself on a Fischer clock."""
        if self.moves:
            return -(-move // self.moves) * self.moves
        return move

    def allowance(self, move: int) -> int:
        """The days a player may have used in all by the end of his move ``move``.

        Periodic: ``days`` for each period begun, so 40 by move 10 and 80 by move 20, the
        time saved in one period kept for the next (C.6.C). Fischer: the start's ``days``
        and ``increment`` for every move up to this one. Decision: the increment for a move
        is credited with that move, so a rapid player may have used 11 days by his first
        move and 10 + n by his n-th ("10 days + 1 day/move", C.6.A).
        """
        if self.moves:
            return self.days * (self.next_control(move) // self.moves)
        return self.days + self.increment * move

    def doubling_from(self, notice: bool) -> int:
        """The first day of a move that counts double (C.3.1.B): the 11th (rapid: 6th)
        without a notice, else the 21st (rapid: 11th).

        Decision: C.3.1.B reads "If not, his time is doubled from the 11th/6th day, or from
        the 21st/11th day". We read the second pair as the case of a player who did send the
        notice: the notice buys 10 (rapid: 5) more single days, not an unlimited move.
        """
        return self.notice_after * (2 if notice else 1) + 1


@dataclass(frozen=True, slots=True)
class Turn:
    """One move of one player, by the dates the rules count with.

    ``sent`` is the day the opponent mailed the move being answered (for White's first move,
    the day the game started); ``replied`` the day the answer was mailed, None while the
    player is still to move. ``transmission`` is the days the move counts as travelling:
    one (C.2.B), 0 for a game's first move, another number only if the TS rules so (C.2.D).

    ``notice`` is the day the player told the opponent and the TS that he will take more
    than 10 (rapid: 5) days (C.3.1.B); ``penalties`` the number of C.2.G penalties charged
    to this move (each illegible, invalid or illegal move, or wrong repetition, sent while
    answering). Decision: a penalty is charged on the day the move is completed (its reply,
    or today while it is pending), since the rules keep no date for it.
    """

    sent: date
    replied: date | None = None
    notice: date | None = None
    penalties: int = 0
    transmission: int = 1

    def __post_init__(self) -> None:
        if self.replied is not None and self.replied < self.sent:
            raise TurnError(f"a reply on {self.replied} to a move sent on {self.sent}")
        if self.notice is not None and self.notice < self.sent:
            raise TurnError(f"a notice on {self.notice} before the move sent on {self.sent}")
        if self.penalties < 0 or self.transmission < 0:
            raise TurnError("penalties and transmission days cannot be negative")

    @classmethod
    def first(cls, start: date, replied: date | None = None, notice: date | None = None) -> Turn:
        """White's first move. Decision: its clock runs from the game's start date itself,
        with no day of transmission, since no move was mailed to White."""
        return cls(start, replied, notice, transmission=0)

    @property
    def received(self) -> date:
        """The day the move counts as received: sent + the transmission day (C.2.B)."""
        return self.sent + timedelta(days=self.transmission)

    def end(self, today: date | None) -> date:
        """The last day this move's time runs to: its reply, or ``today`` while pending."""
        if self.replied is not None:
            return self.replied
        if today is None:
            raise TurnError(f"the move sent on {self.sent} is pending: its time needs a today")
        return today


def counted_days(
    turn: Turn, today: date | None = None, off: frozenset[date] = frozenset()
) -> list[date]:
    """The days that count as the move's time, in order: the dates after its day of
    receipt up to its reply (or ``today``), leaving out ``off`` (days of leave).

    The days are counted as a difference (C.6.D): a reply on the day of receipt, or before
    it, takes 0 days, a reply the next day 1. So the k-th day in the list is the move's
    "k-th day" of C.3.1.A-B: a reply mailed on it has taken k days.
    """
    return list(dates_between(turn.received, turn.end(today), off))


def reflection_days(
    turn: Turn, today: date | None = None, off: frozenset[date] = frozenset()
) -> int:
    """The days the move has taken (C.6.D), days of leave left out (C.3.1.A): the count the
    single-move limit of 30 (rapid: 20) days applies to. Never negative."""
    return len(counted_days(turn, today, off))


def notice_in_time(turn: Turn, control: CorrespondenceControl, days: list[date]) -> bool:
    """Whether the move's notice (C.3.1.B) spares it the doubling from the 11th (rapid: 6th)
    day. Decision: the notice must be mailed no later than the last single day, the 10th
    (rapid: 5th) counted day; a later notice does not undo the doubling."""
    if turn.notice is None:
        return False
    if len(days) < control.notice_after:
        return True
    return turn.notice <= days[control.notice_after - 1]


def charge(days: int, doubling_from: int) -> int:
    """The clock's days for a move of ``days`` days whose days from ``doubling_from`` on
    count double (C.3.1.B)."""
    single = doubling_from - 1
    return days if days <= single else single + 2 * (days - single)


def charged_days(
    turn: Turn,
    control: CorrespondenceControl,
    today: date | None = None,
    off: frozenset[date] = frozenset(),
) -> int:
    """The days the move costs on the clock: its days (C.6.D), doubled from the 11th (rapid:
    6th) day without a notice in time and from the 21st (rapid: 11th) with one (C.3.1.B),
    plus its C.2.G penalties.

    Decision: doubling and penalties count on the clock only: the single-move limit of
    C.3.1.A counts the days actually taken (:func:`reflection_days`).
    """
    days = counted_days(turn, today, off)
    doubling = control.doubling_from(notice_in_time(turn, control, days))
    return charge(len(days), doubling) + turn.penalties * control.penalty_days


def dates_between(after: date, until: date, off: frozenset[date] = frozenset()) -> Iterator[date]:
    """The dates after ``after`` up to ``until``, leaving out ``off``."""
    day = after + ONE_DAY
    while day <= until:
        if day not in off:
            yield day
        day += ONE_DAY
