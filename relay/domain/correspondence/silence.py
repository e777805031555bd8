"""What falls due in a correspondence game on a given day, by the IECG Rules and
Regulations 6.4, section C (Rules of Play): :func:`due`.

While a player keeps silent on a move:

* from the 11th day (rapid: 6th) of his move, or the 21st (11th) if he sent a notice, his
  time counts double (C.3.1.B);
* after 10 days (rapid: 5) with no reply, counted from the day the move was mailed, his
  opponent repeats the move with a copy to the TS (C.3.1.C);
* after a further 10 days (rapid: 5) the opponent tells the TS and waits for his decision
  (C.3.1.D);
* a rapid game in which no move has been mailed for 20 days may be scored as lost to either
  player, or both, who did not tell the TS of the delay (C.3.1.E);
* a team game in which no legal move was made for 60 days is lost by the player to move
  (C.3.2.E).

And from the clocks (:func:`~relay.domain.correspondence.timekeeping.clock`): a fallen flag
(C.6.B), a move over the 30 (rapid: 20) days (C.3.1.A), in team events a withdrawal
(C.3.2.A).

Decisions, where the rules leave it open:

* Days of leave of the player to move (C.8) are not days of silence: his announced absence
  stops the counts of C.3.1.C-D and C.3.2.E as it stops his clock. (Rapid games have no
  leave, so C.3.1.E counts every day.)
* The "further 10 days" of C.3.1.D run from the day the reminder was mailed, so the TS is
  told only once the opponent has been reminded.
* In C.3.1.E the player to move "informed the TS about the delay" when he sent the notice
  of C.3.1.B, which goes to the TS too; his opponent did when he told the TS (C.3.1.D).
* A notice of C.3.1.B does not put off the reminder of C.3.1.C: the rule does not say so,
  and the reminder also guards against a lost message.
* Once the game is lost (a flag, a forfeit, the 60 days of a team game), only that is due:
  reminders and doubled time no longer matter.
* A team withdrawal is listed only for the move being thought about: one on an earlier
  move is history (it is in the player's clock's rulings).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Literal

from relay.domain.correspondence.days import (
    CorrespondenceControl,
    EventKind,
    Turn,
    counted_days,
    dates_between,
    notice_in_time,
)
from relay.domain.correspondence.leave import Leave, game_leave
from relay.domain.correspondence.timekeeping import ClockDecision, clock
from relay.domain.errors import InvalidInputError

Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")

#: Days with no move after which a rapid game may be scored as lost (C.3.1.E).
RAPID_ABANDONED_DAYS = 20
#: Days with no legal move after which a team game is lost by the player to move (C.3.2.E).
TEAM_ABANDONED_DAYS = 60


class GameStateError(ValueError, InvalidInputError):
    """A game's state that cannot be: not exactly one player to move, or a reminder or
    message to the TS dated before the move it is about."""


class DueKind(StrEnum):
    """What can fall due, each with its article (:attr:`article`)."""

    #: The opponent of the silent player repeats the move, copy to the TS (C.3.1.C).
    REMINDER = "reminder"
    #: The opponent of the silent player tells the TS and waits for his decision (C.3.1.D).
    INFORM_TS = "inform-ts"
    #: The time of the player to move counts double from this day (C.3.1.B).
    DOUBLED_TIME = "doubled-time"
    #: The game may be scored as lost to this player (rapid, C.3.1.E).
    SCORE_AS_LOST = "score-as-lost"
    #: The player is withdrawn from the team tournament (C.3.2.A).
    WITHDRAWAL = "withdrawal"
    #: The player's flag fell: he lost the game (C.6.B).
    FLAG = "flag"
    #: The player took more than 30 (rapid: 20) days for a move: game forfeited (C.3.1.A).
    FORFEIT = "forfeit"
    #: No legal move for 60 days in a team game: lost by the player to move (C.3.2.E).
    GAME_LOST = "game-lost"

    @property
    def article(self) -> str:
        return _ARTICLES[self]

    @property
    def ends_game(self) -> bool:
        return self in (DueKind.FLAG, DueKind.FORFEIT, DueKind.GAME_LOST)


_ARTICLES = {
    DueKind.REMINDER: "C.3.1.C",
    DueKind.INFORM_TS: "C.3.1.D",
    DueKind.DOUBLED_TIME: "C.3.1.B",
    DueKind.SCORE_AS_LOST: "C.3.1.E",
    DueKind.WITHDRAWAL: "C.3.2.A",
    DueKind.FLAG: "C.6.B",
    DueKind.FORFEIT: "C.3.1.A",
    DueKind.GAME_LOST: "C.3.2.E",
}

_FROM_CLOCK = {
    ClockDecision.FLAG_FELL: DueKind.FLAG,
    ClockDecision.FORFEITED: DueKind.FORFEIT,
    ClockDecision.WITHDRAWN: DueKind.WITHDRAWAL,
}


@dataclass(frozen=True, slots=True, order=True)
class Due:
    """Something due: what, for which player, since which day.

    ``side`` is the player who must act (the reminder and the message to the TS are the
    waiting player's) or whom it concerns (doubled time, a flag, a forfeit, a loss).
    """

    since: date
    kind: DueKind
    side: Side

    @property
    def article(self) -> str:
        """The article of section C it comes from."""
        return self.kind.article


@dataclass(frozen=True, slots=True)
class GameState:
    """A correspondence game as the rules see it: each player's moves (the last of one of
    them pending), each player's leaves, and the waiting player's messages about the
    pending move: the day he repeated it (``reminder``, C.3.1.C) and the day he told the TS
    (``informed``, C.3.1.D), None until he has."""

    control: CorrespondenceControl
    white: tuple[Turn, ...]
    black: tuple[Turn, ...]
    white_leaves: tuple[Leave, ...] = ()
    black_leaves: tuple[Leave, ...] = ()
    reminder: date | None = None
    informed: date | None = None

    def __post_init__(self) -> None:
        white_to_move = len(self.white) == len(self.black) + 1
        black_to_move = len(self.white) == len(self.black) and bool(self.black)
        pending = [side for side in SIDES if self._pending(side)]
        if not (white_to_move or black_to_move) or pending != [self.to_move]:
            raise GameStateError("exactly one player is to move, on his last move")
        sent = self.pending.sent
        for name, day in (("reminder", self.reminder), ("message to the TS", self.informed)):
            if day is not None and day < sent:
                raise GameStateError(f"a {name} on {day}, before the move sent on {sent}")

    @property
    def to_move(self) -> Side:
        return "white" if len(self.white) > len(self.black) else "black"

    @property
    def waiting(self) -> Side:
        return "black" if self.to_move == "white" else "white"

    @property
    def pending(self) -> Turn:
        """The move being thought about."""
        return self.turns(self.to_move)[-1]

    def turns(self, side: Side) -> tuple[Turn, ...]:
        return self.white if side == "white" else self.black

    def leaves(self, side: Side) -> tuple[Leave, ...]:
        return self.white_leaves if side == "white" else self.black_leaves

    def _pending(self, side: Side) -> bool:
        return any(turn.replied is None for turn in self.turns(side))


def due(state: GameState, today: date) -> list[Due]:
    """What is due in the game on ``today``, earliest first (see the module's words for the
    rules and the decisions)."""
    found = [*_from_clocks(state, today), *_from_silence(state, today)]
    ending = sorted(item for item in found if item.kind.ends_game)
    return ending[:1] if ending else sorted(found)


def _from_clocks(state: GameState, today: date) -> list[Due]:
    found: list[Due] = []
    for side in SIDES:
        turns = state.turns(side)
        for ruling in clock(state.control, turns, today, state.leaves(side)).rulings:
            current = side == state.to_move and ruling.move == len(turns)
            if ruling.decision.ends_game or current:
                found.append(Due(ruling.on, _FROM_CLOCK[ruling.decision], side))
    return found


def _from_silence(state: GameState, today: date) -> list[Due]:
    mover = state.to_move
    replies = [turn.replied for turn in state.turns(mover) if turn.replied]
    off = game_leave(state.leaves(mover), replies, state.control)
    silent = list(dates_between(state.pending.sent, today, off))
    return [
        *_doubled(state, today, off),
        *_messages(state, today, off, silent),
        *_abandoned(state, silent),
    ]


def _doubled(state: GameState, today: date, off: frozenset[date]) -> list[Due]:
    """C.3.1.B: the day the pending move's time began to count double, if it has."""
    days = counted_days(state.pending, today, off)
    doubling = state.control.doubling_from(notice_in_time(state.pending, state.control, days))
    if len(days) < doubling:
        return []
    return [Due(days[doubling - 1], DueKind.DOUBLED_TIME, state.to_move)]


def _messages(state: GameState, today: date, off: frozenset[date], silent: list[date]) -> list[Due]:
    """C.3.1.C-D: the reminder after 10 (rapid: 5) days of silence, then the message to the
    TS a further 10 (5) days after the reminder."""
    period = state.control.notice_after
    if state.reminder is None:
        if len(silent) < period:
            return []
        return [Due(silent[period - 1], DueKind.REMINDER, state.waiting)]
    further = list(dates_between(state.reminder, today, off))
    if state.informed is not None or len(further) < period:
        return []
    return [Due(further[period - 1], DueKind.INFORM_TS, state.waiting)]


def _abandoned(state: GameState, silent: list[date]) -> list[Due]:
    """C.3.2.E in team games, C.3.1.E in rapid ones."""
    kind = state.control.kind
    if kind is EventKind.TEAM and len(silent) >= TEAM_ABANDONED_DAYS:
        return [Due(silent[TEAM_ABANDONED_DAYS - 1], DueKind.GAME_LOST, state.to_move)]
    if kind is not EventKind.RAPID or len(silent) < RAPID_ABANDONED_DAYS:
        return []
    since = silent[RAPID_ABANDONED_DAYS - 1]
    at_risk: list[Side] = []
    if state.informed is None:
        at_risk.append(state.waiting)
    if state.pending.notice is None:
        at_risk.append(state.to_move)
    return [Due(since, DueKind.SCORE_AS_LOST, side) for side in at_risk]
