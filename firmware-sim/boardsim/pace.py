"""How fast the simulated players are: thinking time per ply and time between two touches.

Each pause is drawn uniformly from ``[(1 - jitter) * mean, (1 + jitter) * mean]`` with the
caller's seeded ``random.Random``, so a seed replays the same game at the same speed. The
thinking time is the pause before a move's first touch; the pauses between the touches of a
move, and between its last touch and the press of the clock, are "between touches" pauses
(times the touch's own factor: short for a slide, long for a pawn lingering on the last
rank, see :mod:`boardsim.hands`).

Two refinements for fast chess, both off by default:

* a player on a budget (``game_seconds``, a sudden-death clock such as G/1) watches their
  own time: a thinking time is cut to an even share of what is left of
  :data:`BUDGET_SHARE` of the budget over the player's moves still to play, less the
  move's own handling (its touches and the press), but never below
  ``least_think_seconds``. Hands are never hurried: only thinking shrinks, so a long game
  speeds up towards its end instead of losing on time;
* a time scramble: the last ``scramble_plies`` plies of a game are played at the
  ``scramble`` pace (thinking and touches) instead.

The named paces (:data:`PACES`, ``boardsim serve --pace``), each with the time control its
clock is set to (:data:`TIME_CONTROLS`):

* ``hall``: 0.75-2.25 s of thought a ply, 0.06-0.18 s between touches, on 90+30. A
  tournament hall with the thinking squeezed (nothing happens on a board while a player
  thinks); the accuracy bench plays it 8 times faster still, windows and all;
* ``blitz``: 1.5-4.5 s of thought a ply, 0.10-0.20 s between touches, on 3+2;
* ``scramble``: blitz on a 3-minute sudden-death clock (budget 180 s), whose last 20 plies
  (10 moves each) are played at lightning pace;
* ``lightning``: G/1, 60 s for each player's whole game: 0.15-0.55 s of thought a ply (less
  in a long game, never below 0.1 s) and 0.10-0.20 s between touches, so a plain move takes
  0.35-0.95 s of its player's clock from the opponent's press to their own.

Each named pace has its players' press habits (:mod:`boardsim.presses`): in the hall a look
of up to 2 s before the press, the move often written down first, a press forgotten now and
then; at blitz and lightning quick presses, some before the piece has landed. The noise
model says how often they are used (``human_presses``).

At blitz and lightning pace (a scramble too) the touches stay at human speed: at least
0.1 s between two touches, so a capture with the captured man taken off first (three
touches) takes at least 0.2 s of hand movement and a press 0.1 s more; a slide's squares
come 30-60 ms apart (a piece pushed across 5.5 cm squares), a knocked piece falls 20-40 ms
after the touch that knocked it and is picked up 0.2-0.4 s later.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from boardsim.presses import BLITZ_PRESSES, HALL_PRESSES, LIGHTNING_PRESSES, PressHabits

#: The part of a budget a player means to spend: the rest is a reserve against slow hands
#: (a messy move's extra touches, a host that sleeps late).
BUDGET_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class Pace:
    """Seconds of thought per ply and between two touches of one move."""

    ply_seconds: float = 1.5
    touch_seconds: float = 0.12
    jitter: float = 0.5
    #: The spread of the pauses between touches; None: ``jitter``.
    touch_jitter: float | None = None
    #: Each player's time for the whole game (sudden death), or None for no budget.
    game_seconds: float | None = None
    #: How short a player short of time thinks at least.
    least_think_seconds: float = 0.1
    #: The pace of the last ``scramble_plies`` plies of a game, or None for no scramble.
    scramble: Pace | None = None
    scramble_plies: int = 0
    #: When its players press the clock after a move (used as the noise model says).
    presses: PressHabits = field(default_factory=PressHabits)
    #: The least time from a move's last touch to the reply's first: a player answers a
    #: move they have seen land, however early its mover pressed (0 for hands that only
    #: feed a board as fast as it reads, as protocol tests do).
    reaction_seconds: float = 0.0

    def __post_init__(self) -> None:
        jitters = (self.jitter, self.jitter if self.touch_jitter is None else self.touch_jitter)
        if (
            self.ply_seconds < 0
            or self.touch_seconds < 0
            or not all(0 <= jitter <= 1 for jitter in jitters)
            or (self.game_seconds is not None and self.game_seconds <= 0)
            or self.least_think_seconds < 0
            or self.reaction_seconds < 0
            or self.scramble_plies < 0
            or (self.scramble_plies > 0 and self.scramble is None)
        ):
            raise ValueError(f"pace {self}")

    def think(self, rng: random.Random) -> float:
        return self.ply_seconds * rng.uniform(1 - self.jitter, 1 + self.jitter)

    def between_touches(self, rng: random.Random) -> float:
        jitter = self.jitter if self.touch_jitter is None else self.touch_jitter
        return self.touch_seconds * rng.uniform(1 - jitter, 1 + jitter)

    def at_ply(self, ply: int, plies: int) -> Pace:
        """The pace ply ``ply`` (from 1) of a game of ``plies`` plies is played at."""
        if self.scramble is not None and ply > plies - self.scramble_plies:
            return self.scramble
        return self

    def think_for(
        self, rng: random.Random, *, ply: int, plies: int, used: float, handling: float
    ) -> float:
        """The thinking time before ply ``ply`` of ``plies``: drawn at the ply's pace, then,
        for a player on a budget, cut to their share of the time left.

        ``used`` is the mover's time spent so far (their thinking, touches and presses);
        ``handling`` is what this move's touches and press will take on average.
        """
        think = self.at_ply(ply, plies).think(rng)
        if self.game_seconds is None:
            return think
        moves_left = (plies - ply) // 2 + 1  # the mover's, this one included
        share = (self.game_seconds * BUDGET_SHARE - used) / moves_left - handling
        return min(think, max(self.least_think_seconds, share))

    def faster(self, speed: float) -> Pace:
        """Every human timing divided by ``speed`` (the board's own timing is unchanged)."""
        if speed <= 0:
            raise ValueError(f"speed {speed}")
        return replace(
            self,
            ply_seconds=self.ply_seconds / speed,
            touch_seconds=self.touch_seconds / speed,
            game_seconds=None if self.game_seconds is None else self.game_seconds / speed,
            least_think_seconds=self.least_think_seconds / speed,
            reaction_seconds=self.reaction_seconds / speed,
            scramble=None if self.scramble is None else self.scramble.faster(speed),
            presses=self.presses.faster(speed),
        )


#: Tournament pace, thinking squeezed: what the demo and the accuracy gate play.
#: A player sees a move land before answering it: 0.2 s at least, at every named pace.
REACTION_SECONDS = 0.2
HALL = Pace(
    ply_seconds=1.5,
    touch_seconds=0.12,
    jitter=0.5,
    presses=HALL_PRESSES,
    reaction_seconds=REACTION_SECONDS,
)
#: G/1: 0.15-0.55 s of thought, 0.10-0.20 s between touches, 60 s a player.
LIGHTNING = Pace(
    ply_seconds=0.35,
    touch_seconds=0.15,
    jitter=4 / 7,
    touch_jitter=1 / 3,
    game_seconds=60.0,
    presses=LIGHTNING_PRESSES,
    reaction_seconds=REACTION_SECONDS,
)
#: 1.5-4.5 s of thought, 0.10-0.20 s between touches.
BLITZ = Pace(
    ply_seconds=3.0,
    touch_seconds=0.15,
    jitter=0.5,
    touch_jitter=1 / 3,
    presses=BLITZ_PRESSES,
    reaction_seconds=REACTION_SECONDS,
)
#: Blitz on a 3-minute clock whose last 20 plies are played at lightning pace.
SCRAMBLE = replace(
    BLITZ, game_seconds=180.0, scramble=replace(LIGHTNING, game_seconds=None), scramble_plies=20
)

#: The named paces (``boardsim serve --pace``, ``bench.accuracy --pace``).
PACES = {"hall": HALL, "blitz": BLITZ, "scramble": SCRAMBLE, "lightning": LIGHTNING}
#: The time control each named pace's clock is set to (:meth:`TimeControl.parse` syntax).
TIME_CONTROLS = {"hall": "90+30", "blitz": "3+2", "scramble": "3", "lightning": "1"}


def named_pace(name: str) -> Pace:
    """The pace called ``name``; raises ValueError for an unknown name."""
    if name not in PACES:
        raise ValueError(f"pace {name!r}: expected one of {', '.join(PACES)}")
    return PACES[name]
