"""How long a board must stand still before the tracker decides, and what waits longer.

Three stages per placement, each from the moment the board last changed:

1. the *settle* window: a legal move, a corrected last move, a result gesture or a new game
   is decided;
2. the *recover* window: a takeback, or two or three plies ahead (a move missed while pieces
   were in the air), which a passing hand can imitate for a moment, so they wait longer;
3. the *alert* window: a placement nothing explains is reported to the arbiter.

The windows adapt: a clock press by the mover decides after a short press window, time for
a polled board's next sweep (the "clock move" rule of seed 003: the press completes the
move); in time trouble hands are hurried and knock pieces, so the windows grow; on a slow
link (a board swept or polled every few hundred milliseconds) a position needs at least
two updates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

#: How long a placement must stand still before it is decided, by default.
DEFAULT_SETTLE_SECONDS = 0.25


class Windows(NamedTuple):
    """The three stages' windows, in seconds of stillness after the board last changed."""

    settle: float
    recover: float
    alert: float


@dataclass(frozen=True, slots=True)
class Settling:
    settle_seconds: float = DEFAULT_SETTLE_SECONDS
    recover_seconds: float = 1.0
    alert_seconds: float = 3.0
    #: The board's update interval when it is polled (0 for boards that report changes).
    link_seconds: float = 0.0
    #: Below this much time left, the mover is in time trouble.
    time_trouble_seconds: float = 60.0
    time_trouble_factor: float = 2.0
    #: A running clock reports at least every second; a longer silence means its link
    #: dropped readings, so presses may have been missed.
    clock_silence_seconds: float = 2.5

    def __post_init__(self) -> None:
        if not 0 <= self.settle_seconds <= self.recover_seconds <= self.alert_seconds:
            raise ValueError(f"settling windows must grow stage by stage: {self}")

    @classmethod
    def settling_in(cls, seconds: float, *, link_seconds: float = 0.0) -> Settling:
        """The default windows with the settle window set (the later ones never shorter)."""
        default = cls()
        return cls(
            settle_seconds=seconds,
            recover_seconds=max(default.recover_seconds, seconds),
            alert_seconds=max(default.alert_seconds, seconds),
            link_seconds=link_seconds,
        )

    def windows(self, time_trouble: bool) -> Windows:
        """The three stage windows, in seconds after the last change."""
        factor = self.time_trouble_factor if time_trouble else 1.0
        floor = 2 * self.link_seconds
        return Windows(
            settle=max(self.settle_seconds, floor) * factor,
            recover=max(self.recover_seconds, 2 * floor) * factor,
            alert=max(self.alert_seconds, 4 * floor) * factor,
        )

    def press_window(self) -> float:
        """How long after a clock press the board's report is judged: a polled board shows
        the completed move on its next sweep, which may come after the press."""
        return max(2 * self.link_seconds, 0.5 * self.settle_seconds)

    def faster(self, speed: float) -> Settling:
        """Every window of the hands and the board divided by ``speed``: for simulations
        played faster than life. The clock's silence stays as it is: a clock reports as its
        display changes, once a second of real time however fast the game is played."""
        return replace(
            self,
            settle_seconds=self.settle_seconds / speed,
            recover_seconds=self.recover_seconds / speed,
            alert_seconds=self.alert_seconds / speed,
            link_seconds=self.link_seconds / speed,
        )
