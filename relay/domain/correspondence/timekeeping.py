"""A player's correspondence clock over one game, by the IECG Rules and Regulations 6.4,
section C (Rules of Play).

:func:`clock` walks a player's moves (:class:`~relay.domain.correspondence.days.Turn`) and
says how many days he has used (C.6.D, doubled as C.3.1.B says, penalties of C.2.G added,
leave left out as C.8 says), how many are left before his next control (C.6.A, the time
saved carried forward by C.6.C), and what the rules decided on the way:

* the time at a control exceeded, the flag falls: the game is lost (C.6.B);
* more than 30 days (rapid: 20) for one move, leave left out: the game is forfeited at once
  (C.3.1.A); in a team tournament the player is withdrawn instead (C.3.2.A), and a
  replacement goes on with the same clock (C.3.2.B, D).

The controls and the days of one move are in :mod:`relay.domain.correspondence.days`, leave
in :mod:`relay.domain.correspondence.leave`, what falls due on a given day (reminders, the TS
told, doubled time) in :mod:`relay.domain.correspondence.silence`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from relay.domain.correspondence.days import (
    CorrespondenceControl,
    EventKind,
    Turn,
    TurnError,
    charge,
    charged_days,
    counted_days,
    notice_in_time,
)
from relay.domain.correspondence.leave import Leave, game_leave

__all__ = [
    "ClockDecision",
    "CorrespondenceControl",
    "PlayerClock",
    "Ruling",
    "clock",
    "over_limit",
]


class ClockDecision(StrEnum):
    """What the rules made of a player's time."""

    #: Nothing decided: the player is within his time.
    IN_TIME = "in-time"
    #: The time at a control was exceeded: the game is lost (C.6.B).
    FLAG_FELL = "flag-fell"
    #: More than 30 (rapid: 20) days for one move: the game is forfeited (C.3.1.A).
    FORFEITED = "forfeited"
    #: More than 30 days for one move in a team tournament: the player is withdrawn from the
    #: tournament, the game goes on with his replacement (C.3.2.A-D).
    WITHDRAWN = "withdrawn"

    @property
    def ends_game(self) -> bool:
        """Whether the game is lost by it (a withdrawal in a team event is not)."""
        return self in (ClockDecision.FLAG_FELL, ClockDecision.FORFEITED)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A decision of the rules: which, on the player's move ``move``, on day ``on``."""

    decision: ClockDecision
    move: int
    on: date


@dataclass(frozen=True, slots=True)
class PlayerClock:
    """A player's clock in one game on a given day.

    ``moves`` is the moves he has mailed; ``used`` the days charged to him in all, the move
    he is thinking about counted up to the day; ``next_control`` the move at which his time
    is next checked and ``allowance`` the days he may have used in all by then. ``rulings``
    lists what the rules decided, in order, up to the first that ends the game.
    """

    moves: int
    used: int
    next_control: int
    allowance: int
    rulings: tuple[Ruling, ...] = ()

    @property
    def left(self) -> int:
        """Days left before the next control; 0 once they are all used (the flag falls the
        day after that, when a reply would exceed them)."""
        return max(self.allowance - self.used, 0)

    @property
    def decision(self) -> ClockDecision:
        """The ruling that ended the game; else a withdrawal if there was one; else in time."""
        for ruling in self.rulings:
            if ruling.decision.ends_game:
                return ruling.decision
        if self.rulings:
            return self.rulings[0].decision
        return ClockDecision.IN_TIME


def clock(
    control: CorrespondenceControl,
    turns: Sequence[Turn],
    today: date,
    leaves: Sequence[Leave] = (),
) -> PlayerClock:
    """The clock of a player whose moves in one game are ``turns`` (his first move first; only
    the last may still be pending), as it stands on ``today``, with his ``leaves`` from the
    tournament.

    The flag falls (C.6.B) on the first day on which the days charged in all exceed the
    allowance of the control the move belongs to. Decision: the flag falls as soon as a
    reply mailed that day would exceed it, not only when the control's move is mailed: days
    charged never go down, so waiting for the control would change nothing.

    The single-move limit is checked on each move's counted days (C.3.1.A): the day after
    the 30th (rapid: 20th) it is exceeded. Decision: when both happen on the same day the
    single-move ruling comes first (in a team event that is the withdrawal, then the flag).

    Raises :class:`~relay.domain.correspondence.days.TurnError` for a pending move that is
    not the last, or a reply after ``today``, and
    :class:`~relay.domain.correspondence.leave.LeaveRefusedError` for leave in a rapid game.
    """
    _check_turns(turns, today)
    off = game_leave(leaves, [turn.replied for turn in turns if turn.replied], control)
    made = sum(1 for turn in turns if turn.replied is not None)
    return PlayerClock(
        moves=made,
        used=sum(charged_days(turn, control, today, off) for turn in turns),
        next_control=control.next_control(made + 1),
        allowance=control.allowance(made + 1),
        rulings=_rulings(control, turns, today, off),
    )


def over_limit(control: CorrespondenceControl) -> ClockDecision:
    """What a move over the single-move limit decides: a withdrawal in a team event
    (C.3.2.A), else the game forfeited (C.3.1.A)."""
    if control.kind is EventKind.TEAM:
        return ClockDecision.WITHDRAWN
    return ClockDecision.FORFEITED


def _check_turns(turns: Sequence[Turn], today: date) -> None:
    for move, turn in enumerate(turns, start=1):
        if turn.replied is None and move < len(turns):
            raise TurnError(f"move {move} is pending but is not the player's last")
        if turn.replied is not None and turn.replied > today:
            raise TurnError(f"move {move} was replied on {turn.replied}, after today {today}")


def _rulings(
    control: CorrespondenceControl, turns: Sequence[Turn], today: date, off: frozenset[date]
) -> tuple[Ruling, ...]:
    found: list[Ruling] = []
    before = 0
    for move, turn in enumerate(turns, start=1):
        for ruling in _move_rulings(control, move, turn, today, off, before):
            found.append(ruling)
            if ruling.decision.ends_game:
                return tuple(found)
        before += charged_days(turn, control, today, off)
    return tuple(found)


def _move_rulings(
    control: CorrespondenceControl,
    move: int,
    turn: Turn,
    today: date,
    off: frozenset[date],
    before: int,
) -> list[Ruling]:
    """The rulings of one move, in the order of their days, given the days charged
    ``before`` it."""
    days = counted_days(turn, today, off)
    found: list[Ruling] = []
    if len(days) > control.move_limit:
        found.append(Ruling(over_limit(control), move, days[control.move_limit]))
    doubling = control.doubling_from(notice_in_time(turn, control, days))
    penalty = turn.penalties * control.penalty_days
    room = control.allowance(move) - before
    flag = _flag_day(room, days, doubling, penalty, turn.end(today))
    if flag is not None:
        found.append(Ruling(ClockDecision.FLAG_FELL, move, flag))
    return sorted(found, key=lambda ruling: ruling.on)


def _flag_day(room: int, days: list[date], doubling: int, penalty: int, end: date) -> date | None:
    """The first of ``days`` on which the move's charge exceeds the ``room`` left on the
    clock; its ``end`` if only its penalty makes it exceed; None if it never does."""
    for count, day in enumerate(days, start=1):
        if charge(count, doubling) > room:
            return day
    if charge(len(days), doubling) + penalty > room:
        return end
    return None
