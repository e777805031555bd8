"""A correspondence game as the hub keeps it, read by the rules: the day the game started,
the day each move was sent (from the game's log), the notices of delay, the players' leaves
and the letters already sent, turned into each player's :class:`Turn` s, clocks and what is
due (docs/correspondence.md).

Decision: the days are UTC dates. The rules count whole days between the dates on the
messages; a hub serving players in many time zones needs one calendar, and the pages show
each player the dates in their own zone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from relay.domain.correspondence.days import CorrespondenceControl, Turn
from relay.domain.correspondence.leave import Leave
from relay.domain.correspondence.silence import Due, GameState, Side, due
from relay.domain.correspondence.timekeeping import PlayerClock, clock


def utc_day(at: float) -> date:
    """The UTC date of the Unix time ``at``."""
    return datetime.fromtimestamp(at, UTC).date()


@dataclass(frozen=True, slots=True)
class GameDays:
    """One game's days: ``start``, when White's clock began; ``sent``, the day each ply
    was sent, ply 1 first; ``notices``, ply -> the day its notice of delay was sent."""

    start: date
    sent: tuple[date, ...] = ()
    notices: Mapping[int, date] = field(default_factory=dict)

    @property
    def to_move(self) -> Side:
        return "white" if len(self.sent) % 2 == 0 else "black"

    @property
    def pending_ply(self) -> int:
        """The ply being thought about."""
        return len(self.sent) + 1

    def turns(self, *, pending: bool = True) -> tuple[tuple[Turn, ...], tuple[Turn, ...]]:
        """White's and Black's turns, each move answering the opponent's last; with
        ``pending``, the move being thought about too (a finished game has none)."""
        white: list[Turn] = []
        black: list[Turn] = []
        last = self.pending_ply if pending else len(self.sent)
        for ply in range(1, last + 1):
            replied = self.sent[ply - 1] if ply <= len(self.sent) else None
            notice = self.notices.get(ply)
            if ply == 1:
                turn = Turn.first(self.start, replied, notice)
            else:
                turn = Turn(self.sent[ply - 2], replied, notice)
            (white if ply % 2 else black).append(turn)
        return tuple(white), tuple(black)


@dataclass(frozen=True, slots=True)
class Leaves:
    """Each player's leaves in the event."""

    white: tuple[Leave, ...] = ()
    black: tuple[Leave, ...] = ()


def clocks(
    days: GameDays,
    control: CorrespondenceControl,
    today: date,
    leaves: Leaves = Leaves(),
    *,
    finished: bool = False,
) -> tuple[PlayerClock, PlayerClock]:
    """White's and Black's clocks on ``today`` (a ``finished`` game's stand still at its
    last move)."""
    white, black = days.turns(pending=not finished)
    last = days.sent[-1] if finished and days.sent else today
    on = min(today, last) if finished else today
    return clock(control, white, on, leaves.white), clock(control, black, on, leaves.black)


def due_today(
    days: GameDays,
    control: CorrespondenceControl,
    today: date,
    leaves: Leaves = Leaves(),
    *,
    reminder: date | None = None,
    informed: date | None = None,
) -> list[Due]:
    """What is due in an unfinished game on ``today``; ``reminder`` and ``informed``: the
    days the waiting player's reminder (C.3.1.C) and message to the TS (C.3.1.D) about the
    move being thought about went out, if they did."""
    white, black = days.turns()
    state = GameState(
        control,
        white,
        black,
        leaves.white,
        leaves.black,
        reminder=reminder,
        informed=informed,
    )
    return due(state, today)


def sent_days(times: Sequence[float]) -> tuple[date, ...]:
    """The day each move was sent, from the times its log recorded them."""
    return tuple(utc_day(at) for at in times)
