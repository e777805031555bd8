"""How fast the simulated players are: thinking time per ply and time between two touches.

Each pause is drawn uniformly from ``[(1 - jitter) * mean, (1 + jitter) * mean]`` with the
caller's seeded ``random.Random``, so a seed replays the same game at the same speed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Pace:
    """Seconds of thought per ply and between two touches of one move."""

    ply_seconds: float = 1.5
    touch_seconds: float = 0.12
    jitter: float = 0.5

    def __post_init__(self) -> None:
        if self.ply_seconds < 0 or self.touch_seconds < 0 or not 0 <= self.jitter <= 1:
            raise ValueError(f"pace {self}")

    def think(self, rng: random.Random) -> float:
        return self.ply_seconds * rng.uniform(1 - self.jitter, 1 + self.jitter)

    def between_touches(self, rng: random.Random) -> float:
        return self.touch_seconds * rng.uniform(1 - self.jitter, 1 + self.jitter)

    def faster(self, speed: float) -> Pace:
        """Every human timing divided by ``speed`` (the board's own timing is unchanged)."""
        if speed <= 0:
            raise ValueError(f"speed {speed}")
        return replace(
            self, ply_seconds=self.ply_seconds / speed, touch_seconds=self.touch_seconds / speed
        )
