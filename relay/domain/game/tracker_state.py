"""What the tracker knows besides the game: the placement it is judging, and the clock.

Two value objects, each with the only code that changes it:

* :class:`Pending`: the placement the board shows now, its marker pieces, since when it has
  stood still, the :class:`Stage` it has reached, and the trail of placements shown since
  the game last changed (to order moves that were missed);
* :class:`ClockPresses`: the clock's presses since the game last changed (how many moves
  they account for, and the time each presser's clock showed at the press), the press
  waiting to be judged, the sweep a press-decided move may still be reported in, and
  whether the clock's readings went missing.

Time is passed in (seconds on a monotonic scale); nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import chess

from relay.domain.game.placement import Placement
from relay.domain.results import Result

#: Placements kept since the last decision, to order moves that were missed.
TRAIL = 256


class Stage(Enum):
    """How far the judging of a placement has gone; each stage has its window of stillness
    (:meth:`relay.domain.game.settling.Settling.windows`)."""

    #: Nothing tried yet: the settle window is running.
    FRESH = "fresh"
    #: Tried after the settle window (one move, a correction, a gesture, a new game).
    SETTLED = "settled"
    #: Tried after the recover window (a takeback, moves missed).
    RECOVERED = "recovered"
    #: Nothing more to try on this placement until the board changes.
    DONE = "done"

    def next(self) -> Stage:
        """The stage after this one (DONE stays DONE)."""
        return _NEXT[self]


_NEXT = {
    Stage.FRESH: Stage.SETTLED,
    Stage.SETTLED: Stage.RECOVERED,
    Stage.RECOVERED: Stage.DONE,
    Stage.DONE: Stage.DONE,
}


@dataclass
class Pending:
    """The placement being judged, and the trail since the game last changed."""

    placement: Placement | None = None
    markers: frozenset[Result] = frozenset()
    #: When the board last changed.
    since: float = 0.0
    stage: Stage = Stage.FRESH
    #: Part of an expected position is shown (pieces in a hand): nothing to decide.
    waiting: bool = False
    trail: list[Placement] = field(default_factory=list)

    def shown(self, placement: Placement, markers: frozenset[Result], now: float) -> None:
        """The board changed: a new placement to judge from the settle stage."""
        self.trail.append(placement)
        if len(self.trail) > TRAIL:
            del self.trail[0]
        self.placement = placement
        self.markers = markers
        self.since = now
        self.stage = Stage.FRESH
        self.waiting = False

    def advance(self) -> Stage:
        """Move on to the next stage; returns the stage being left (the one to judge)."""
        left, self.stage = self.stage, self.stage.next()
        return left

    def judge_afresh(self) -> None:
        self.stage = Stage.FRESH

    def wait_for_hands(self) -> None:
        """Part of an expected position is shown: nothing to decide until the board changes."""
        self.waiting = True

    def settled_on(self, placement: Placement) -> None:
        """The board shows ``placement`` and it is decided (the start of a new game)."""
        self.placement = placement
        self.stage = Stage.DONE

    def give_up(self) -> None:
        """Nothing more to try on this placement until the board changes."""
        self.stage = Stage.DONE

    def forget(self) -> None:
        """The game changed: the placement is judged still, the trail starts again."""
        self.trail.clear()

    def clear(self) -> None:
        """No placement to judge (the board's log was replayed instead)."""
        self.placement = None


@dataclass
class ClockPresses:
    """The clock as far as deciding moves goes: presses, the press being judged, late
    sweeps and missing readings."""

    #: Presses since the game last changed that account for moves not yet decided.
    presses: int = 0
    #: The last decided move's mover has pressed (their press is not counted).
    handed_over: bool = False
    #: When a press waiting to be judged came, by whom, and what the board showed since.
    press: float | None = None
    presser: chess.Color = chess.WHITE
    since_press: list[Placement] = field(default_factory=list)
    #: The player whose press nothing legal explained yet (a completed illegal move?).
    pressed_on: chess.Color | None = None
    #: Presses judged since the game last changed that decided nothing.
    undecided: int = 0
    #: When the clock last reported, and whether readings went missing since the game
    #: last changed (presses may then be missing too).
    reading_at: float | None = None
    silent: bool = False
    #: Readings went missing since the last press seen: whose move the next press seen
    #: ends is not known.
    unsure: bool = False
    #: A press decided the last move: until when the board may still be reporting the rest
    #: of it (a sweep that came late), and whether its next change came in time.
    sweep_grace: float | None = None
    late_sweep: bool = False
    #: The presses since the game last changed that may end moves not yet decided, oldest
    #: first: who pressed, and their time as the clock showed it at the press.
    readings: list[tuple[chess.Color, float]] = field(default_factory=list)
    #: The side to move has pressed and the board has not shown their move yet (it was
    #: judged before the board's sweep came, or it is a press for a move after the one
    #: just decided): it is complete as soon as the board shows it.
    owed: chess.Color | None = None

    def read(self, now: float, silence: float, *, was_running: bool = True) -> None:
        """A reading came at ``now``; a gap longer than ``silence`` means readings (and
        perhaps presses) went missing. ``was_running``: the clock ran at the last reading
        (a stopped clock reports only what changes, and nobody presses for a move on it)."""
        if self.reading_at is not None and now - self.reading_at > silence:
            self.silent = True
            if was_running:
                # The lever may have gone to and fro unseen: the presses kept so far, and
                # the next one seen, may not line up with the moves they would end.
                self.readings = []
                self.unsure = True
        self.reading_at = now

    def counting(self, running: bool, now: float, silence: float) -> bool:
        """Whether a running clock is counting the presses, its readings not gone missing."""
        if not running or self.reading_at is None:
            return False
        return not (self.silent or now - self.reading_at > silence)

    def count(self, to_move: chess.Color, turn: chess.Color) -> None:
        """The lever changed: the clock now runs for ``to_move``; the game has ``turn`` to
        move."""
        if self.handed_over:
            self.presses += 1
        elif to_move == turn:
            self.handed_over = True  # the last decided move's mover handing over
        else:
            self.handed_over = True  # the side to move pressed: a move not yet decided
            self.presses += 1

    def count_from_here(self, to_move: chess.Color | None, turn: chess.Color) -> None:
        """The game changed: presses seen so far belong to the moves decided."""
        self.presses = 0
        self.handed_over = to_move is not None and to_move == turn
        self.silent = False

    def pressed(self, player: chess.Color, now: float, shown: Placement | None) -> None:
        """A press to judge once the board has had time to report the move."""
        self.press = now
        self.presser = player
        self.since_press = [] if shown is None else [shown]

    def shown(self, placement: Placement, now: float) -> None:
        """The board changed: seen since the press, and perhaps a late sweep."""
        if self.sweep_grace is not None:
            self.late_sweep, self.sweep_grace = now <= self.sweep_grace, None
        if self.press is not None:
            self.since_press.append(placement)

    def sides_turned(self, *, handed_over: bool) -> None:
        """The clock's sides were read the wrong way round until now."""
        self.handed_over = handed_over
        self.readings.clear()

    def judged(self) -> None:
        self.press = None

    def sure(self) -> bool:
        """Whether the press just seen can be matched to a move: not the first after a
        silence (its presser's time is that of their latest press, for which move is not
        known). Asked once per press."""
        sure, self.unsure = not self.unsure, False
        return sure

    def ended_a_move(self, presser: chess.Color, seconds: float) -> None:
        """A press that may end a move not yet decided: ``presser``'s time at it."""
        self.readings.append((presser, seconds))

    def ended_nothing(self) -> None:
        """The press just judged ended no move: the board showed the game unchanged all
        through its window (a press after a move that went unseen, a press by habit)."""
        if self.readings and self.readings[-1][0] == self.presser:
            self.readings.pop()

    def times_of(self, movers: list[chess.Color]) -> list[float | None]:
        """The time at each mover's press for moves about to be decided, by ``movers``
        (their colours in order).

        The lever goes from side to side, and the last mover's press after the last
        decision is not among these: the presses since then, oldest first, end the moves
        in order, one each, each by its mover. A mismatch ends the matching: later moves
        get no time rather than another one, and nothing is left over.
        """
        times: list[float | None] = [None] * len(movers)
        for index, (presser, seconds) in enumerate(self.readings[: len(movers)]):
            if presser != movers[index]:
                return times
            times[index] = seconds
        return times

    def left_over(self, decided: int, to_move: chess.Color) -> list[tuple[chess.Color, float]]:
        """The presses after the first ``decided``, if the side now to move made the first
        of them: presses for moves the board has not shown yet."""
        rest = self.readings[decided:]
        return rest if rest and rest[0][0] == to_move else []

    def carry(self, presses: list[tuple[chess.Color, float]]) -> None:
        """After a decision: ``presses`` came for the moves after it (from
        :meth:`left_over`). The last mover has pressed then, and the side to move too."""
        if presses:
            self.readings = list(presses)
            self.handed_over = True
            self.owed = presses[0][0]

    def owe(self, presser: chess.Color) -> None:
        """``presser``'s move is complete as soon as the board shows it."""
        self.owed = presser

    def unexplained(self, player: chess.Color) -> None:
        """Nothing legal explained the board at ``player``'s press (yet)."""
        self.pressed_on = player

    def decided_nothing(self) -> int:
        """A press was judged and nothing was decided; how many so far."""
        self.undecided += 1
        return self.undecided

    def take_pressed_on(self) -> chess.Color | None:
        """The player whose press nothing legal explained, once (their illegal move is
        counted by the caller)."""
        player, self.pressed_on = self.pressed_on, None
        return player

    def swept_late(self) -> None:
        """A press decided a move the board showed before what it shows now: the rest of
        the board's report came after it."""
        self.late_sweep = True

    def may_sweep_late(self, *, until: float) -> None:
        """A press decided the move the board shows: a change before ``until`` is the rest
        of its report (a castling's king after its rook), not the opponent's hand."""
        self.sweep_grace = until

    def no_late_sweep(self) -> None:
        self.late_sweep = False

    def forget(self) -> None:
        """The game changed: no press waits, no sweep is late."""
        self.press = None
        self.pressed_on = None
        self.undecided = 0
        self.sweep_grace = None
        self.late_sweep = False
        self.readings = []
        self.owed = None
