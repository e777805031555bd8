"""Time controls: periods of moves and time, their bonuses, and how they are written.

A :class:`TimeControl` is a value (``docs/laws.md``, "Time controls"). The game clock asks it
which period a move falls in and what time a completed period brings; the FIDE class (Laws
A.1, B.1) and lightning chess (seed 003) are read from it too.

The PGN ``TimeControl`` tag (PGN standard 9.6.1) is exact and is written back unchanged by
:func:`format_pgn`. What organisers write ("90 min/40 moves + 30 min + 30 s/move", "G/90;
d5", "3+2") is read in :mod:`relay.domain.clock.written_time_control`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from relay.domain.errors import InvalidInputError


class TimeControlError(ValueError, InvalidInputError):
    """A time control that cannot exist, or text that is not a time control."""


class Bonus(Enum):
    """What a period gives per move. Bronstein is not in the Laws but is common on clocks."""

    FISCHER = "fischer"  # increment added after each move
    DELAY = "delay"  # simple/US delay: the main time starts only after the delay (6.3.2)
    BRONSTEIN = "bronstein"  # the time used is given back, at most the delay


class GameClass(Enum):
    """The class of a game by the time each player has for 60 moves (FIDE Laws A.1, B.1)."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


@dataclass(frozen=True, slots=True)
class Period:
    """Time for a number of moves, or for the rest of the game, and the bonus per move."""

    #: Time given at the start of the period.
    seconds: int
    #: Moves to make within the period; None: the rest of the game.
    moves: int | None = None
    bonus_seconds: int = 0
    bonus: Bonus = Bonus.FISCHER

    def __post_init__(self) -> None:
        if self.seconds < 0:
            raise TimeControlError(f"a period of {self.seconds} s: time cannot be negative")
        if self.moves is not None and self.moves < 1:
            raise TimeControlError(f"a period of {self.moves} moves: it needs at least 1")
        if self.bonus_seconds < 0:
            raise TimeControlError(f"a bonus of {self.bonus_seconds} s cannot be negative")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """The periods of a game, or none: ``-`` in PGN is untimed, ``?`` is not known."""

    periods: tuple[Period, ...] = ()
    #: PGN ``*180``: one period, no bonus, and the time one player uses flows to the other.
    sandclock: bool = False
    #: False for PGN ``?``: nobody said what the time control was.
    known: bool = True

    def __post_init__(self) -> None:
        if not self.known and (self.periods or self.sandclock):
            raise TimeControlError("an unknown time control has no periods")
        for period in self.periods[:-1]:
            if period.moves is None:
                raise TimeControlError(
                    "only the last period may be for the rest of the game; "
                    f"a period of {period.seconds} s has no move count"
                )
        if self.sandclock and (
            len(self.periods) != 1 or self.periods[0] != Period(self.periods[0].seconds)
        ):
            raise TimeControlError(
                "a sandclock is one period for the whole game, without moves or bonus"
            )

    @property
    def timed(self) -> bool:
        """True when the game is played with a clock whose periods are known."""
        return bool(self.periods)

    @property
    def starting_seconds(self) -> int:
        """Each player's time at the start (0 when untimed)."""
        return self.periods[0].seconds if self.periods else 0

    def period_at(self, move_number: int) -> tuple[int, Period]:
        """The period in force for a player's move ``move_number`` (from 1), and its index.

        A last period with a move count repeats: "40/7200" is 2 h for 40 moves, then 2 h
        more for each further 40. Each repetition has the next index, so a change of index
        is always a period change.
        """
        if move_number < 1:
            raise ValueError(f"move {move_number}: a player's moves are numbered from 1")
        if not self.periods:
            raise TimeControlError("an untimed game has no periods")
        *leading, last = self.periods
        made = 0  # the player's moves before the period
        for index, period in enumerate(leading):
            if period.moves is None or move_number <= made + period.moves:
                return index, period
            made += period.moves
        if last.moves is None:
            return len(leading), last
        return len(leading) + (move_number - made - 1) // last.moves, last

    def time_added_after(self, move_number: int) -> int:
        """Period time that reaches a player on completing move ``move_number``.

        The next period's time when that move ends a period ("40/5400+30:1800+30": 1800
        after move 40, nothing after 39 or 41), else 0. Bonuses are not included.
        """
        if not self.periods:
            return 0
        now, _ = self.period_at(move_number)
        following, period = self.period_at(move_number + 1)
        return period.seconds if following != now else 0

    def classify(self) -> GameClass | None:
        """The FIDE class (Laws A.1, B.1), or None when unknown or untimed.

        The time for 60 moves is the time of every period that starts by move 60 plus the
        bonus in force for each of the first 60 moves. A delay or Bronstein bonus counts as
        a Fischer increment would: the Laws speak only of increments, and no bonus gives
        more. Blitz up to 10 minutes; rapid above 10 and below 60; standard from 60. A
        sandclock's time is its one period. python-chess's ``Game.time_control()`` draws
        other lines (blitz below 15 minutes): do not mix the two.
        """
        if not self.periods:
            return None
        total = 0
        current = -1
        for move_number in range(1, 61):
            index, period = self.period_at(move_number)
            if index != current:
                total += period.seconds
                current = index
            total += period.bonus_seconds
        if total <= 600:
            return GameClass.BLITZ
        if total < 3600:
            return GameClass.RAPID
        return GameClass.STANDARD

    @property
    def is_lightning(self) -> bool:
        """Lightning chess (seed 003, definition 8): at most 1 minute for a player's whole game.

        Only "G/1" or shorter qualifies: one period, no bonus, no sandclock (which could
        give a player more than it started with).
        """
        if self.sandclock or len(self.periods) != 1:
            return False
        period = self.periods[0]
        return period.moves is None and period.seconds <= 60 and period.bonus_seconds == 0


def first_move(periods: Sequence[Period], index: int) -> int:
    """A player's first move in period ``index`` (one of ``periods``)."""
    return 1 + sum(period.moves or 0 for period in periods[:index])


def has_bonus(period: Period) -> bool:
    # A zero delay is still written, so that every value survives a round trip.
    return period.bonus_seconds > 0 or period.bonus is not Bonus.FISCHER


# The PGN tag

_PGN_FIELD = re.compile(r"(?:([0-9]+)/)?([0-9]+)(?:([+db])([0-9]+))?")
_PGN_SANDCLOCK = re.compile(r"\*([0-9]+)")
_PGN_BONUS = {"+": Bonus.FISCHER, "d": Bonus.DELAY, "b": Bonus.BRONSTEIN}
_PGN_SIGN = {bonus: sign for sign, bonus in _PGN_BONUS.items()}
_PGN_FORMS = (
    "expected N, N+I, M/N or M/N+I (seconds; I the increment), NdI or NbI for a simple or "
    "Bronstein delay, or ?, - or *N on their own"
)


def read_number(digits: str, where: str) -> int:
    try:
        return int(digits)
    except ValueError:  # beyond Python's limit on digits: nobody's clock
        raise TimeControlError(f"{where}: the number is too long") from None


def parse_pgn(text: str) -> TimeControl:
    """A PGN ``TimeControl`` value (PGN standard 9.6.1), read strictly.

    Fields are separated by ":". Besides the standard forms it reads ``M/N+I`` (a period of
    moves with an increment, common in the wild) and this project's own ``NdI`` (simple
    delay) and ``NbI`` (Bronstein), also after ``M/``: no standard exists for delays.
    """
    if text == "?":
        return TimeControl(known=False)
    if text == "-":
        return TimeControl()
    if not text:
        raise TimeControlError(f"empty TimeControl: {_PGN_FORMS}")
    fields = text.split(":")
    for item in fields:
        if len(fields) > 1 and (item in ("?", "-") or item.startswith("*")):
            raise TimeControlError(f"TimeControl {text!r}: field {item!r} must stand alone")
    sandclock = _PGN_SANDCLOCK.fullmatch(text)
    if sandclock is not None:
        seconds = read_number(sandclock[1], f"TimeControl field {text!r}")
        return TimeControl((Period(seconds),), sandclock=True)
    periods = tuple(_pgn_period(item, item is fields[-1]) for item in fields)
    return TimeControl(periods)


def _pgn_period(item: str, last: bool) -> Period:
    where = f"TimeControl field {item!r}"
    match = _PGN_FIELD.fullmatch(item)
    if match is None:
        raise TimeControlError(f"{where}: {_PGN_FORMS}")
    moves, seconds, sign, bonus = match.groups()
    try:
        period = Period(
            read_number(seconds, where),
            None if moves is None else read_number(moves, where),
            0 if bonus is None else read_number(bonus, where),
            _PGN_BONUS[sign] if sign else Bonus.FISCHER,
        )
    except TimeControlError as error:
        raise TimeControlError(f"{where}: {error}") from error
    if period.moves is None and not last:
        raise TimeControlError(f"{where}: only the last period may be for the rest of the game")
    return period


def format_pgn(control: TimeControl) -> str:
    """The PGN ``TimeControl`` value of ``control``; :func:`parse_pgn` reads it back equal."""
    if not control.known:
        return "?"
    if not control.periods:
        return "-"
    if control.sandclock:
        return f"*{control.periods[0].seconds}"
    return ":".join(_pgn_field(period) for period in control.periods)


def _pgn_field(period: Period) -> str:
    text = str(period.seconds) if period.moves is None else f"{period.moves}/{period.seconds}"
    if has_bonus(period):
        text += f"{_PGN_SIGN[period.bonus]}{period.bonus_seconds}"
    return text
