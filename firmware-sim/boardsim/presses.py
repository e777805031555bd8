"""When a simulated player presses the clock after their move: as people do, not at once.

A player lets go of the piece, looks, then presses; some write the move down first; now and
then one forgets and presses only when they notice, seconds later; in fast chess the hand
goes from the piece to the clock at once, and the press comes before the board's next
sweep has seen the piece's square (a sweep takes 200-250 ms). :class:`PressHabits` draws,
per move, how long after the move's last touch its press comes. Every named pace has its
own (:data:`boardsim.pace.PACES`), and the noise model says how often they are used
(``NoiseModel.human_presses``; otherwise the press comes one "between touches" pause after
the last touch, as before).

Draws use the caller's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

#: Why a press came when it did, for noise statistics.
EARLY, LOOKED, WROTE, FORGOT = "press-early", "press-looked", "press-wrote", "press-forgot"


@dataclass(frozen=True, slots=True)
class PressHabits:
    """How one pace's players press. Seconds are of the player's own time; the chances are
    per move and exclusive, tried in the order early, wrote, forgot (else: looked)."""

    #: Pressed as the man is let go: within ``early_seconds`` of the last touch, before the
    #: board's sweep has reported it.
    early: float = 0.1
    early_seconds: float = 0.05
    #: Otherwise the press comes after a look: between these seconds after the last touch.
    look_seconds: tuple[float, float] = (0.1, 2.0)
    #: The move written on the scoresheet first.
    wrote: float = 0.15
    write_seconds: tuple[float, float] = (2.5, 6.0)
    #: The press forgotten until the player notices.
    forgot: float = 0.03
    notice_seconds: tuple[float, float] = (4.0, 10.0)

    def __post_init__(self) -> None:
        chances = (self.early, self.wrote, self.forgot)
        spans = (self.look_seconds, self.write_seconds, self.notice_seconds)
        if (
            not all(0 <= chance <= 1 for chance in chances)
            or sum(chances) > 1
            or self.early_seconds < 0
            or not all(0 <= low <= high for low, high in spans)
        ):
            raise ValueError(f"press habits {self}")

    def draw(self, rng: random.Random) -> tuple[float, str]:
        """Seconds from the move's last touch to its press, and why."""
        roll = rng.random()
        if roll < self.early:
            return rng.uniform(0.0, self.early_seconds), EARLY
        roll -= self.early
        if roll < self.wrote:
            return rng.uniform(*self.write_seconds), WROTE
        roll -= self.wrote
        if roll < self.forgot:
            return rng.uniform(*self.notice_seconds), FORGOT
        return rng.uniform(*self.look_seconds), LOOKED

    @property
    def mean_seconds(self) -> float:
        """The average seconds from the last touch to the press (for a player's budget)."""
        looked = 1 - self.early - self.wrote - self.forgot

        def middle(span: tuple[float, float]) -> float:
            return (span[0] + span[1]) / 2

        return (
            self.early * self.early_seconds / 2
            + self.wrote * middle(self.write_seconds)
            + self.forgot * middle(self.notice_seconds)
            + looked * middle(self.look_seconds)
        )

    def faster(self, speed: float) -> PressHabits:
        """Every timing divided by ``speed``."""

        def scaled(span: tuple[float, float]) -> tuple[float, float]:
            return (span[0] / speed, span[1] / speed)

        return replace(
            self,
            early_seconds=self.early_seconds / speed,
            look_seconds=scaled(self.look_seconds),
            write_seconds=scaled(self.write_seconds),
            notice_seconds=scaled(self.notice_seconds),
        )


#: A tournament hall: a look of up to 2 s, the move often written first (C.07's scoresheet),
#: a press forgotten now and then, noticed 4-10 s later.
HALL_PRESSES = PressHabits()
#: Blitz: no scoresheet; presses quick, some before the board's sweep has seen the piece.
BLITZ_PRESSES = PressHabits(
    early=0.15,
    look_seconds=(0.05, 0.8),
    wrote=0.0,
    forgot=0.02,
    notice_seconds=(1.0, 3.0),
)
#: Lightning: the hand goes from the piece to the clock, often before the board has seen it.
LIGHTNING_PRESSES = PressHabits(
    early=0.2,
    look_seconds=(0.03, 0.3),
    wrote=0.0,
    forgot=0.01,
    notice_seconds=(0.5, 1.5),
)
