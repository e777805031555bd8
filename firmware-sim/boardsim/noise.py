"""How untidily the simulated players handle the pieces: one probability per habit.

Every habit a human shows at a DGT board, and that a host must survive, has a knob here:

* ``captured_first``: a capture takes the captured man off before the capturing piece is
  lifted (otherwise after);
* ``castle_rook_first``: castling moves the rook before the king;
* ``en_passant_captured_first``: en passant takes the captured pawn off first;
* ``promotion_pawn_lingers``: the pawn is put on the last rank for a moment before it is
  swapped for the new piece;
* ``slide``: a rook, bishop, queen or pawn double step is slid over the squares in between;
* ``adjust``: a piece is lifted and put back on its own square (j'adoube), before the move
  or, re-centring, after it;
* ``knock``: a piece that plays no part in the move is knocked over, lands on a neighbouring
  empty square with probability ``knock_lands_nearby``, and is put back after the move;
* ``result_gesture`` (per game): a result is shown at the end, with the marker pieces
  (13/14/15) with probability ``result_markers``, otherwise with both kings on the centre;
* ``rotated`` (per game): the board was set up the wrong way round;
* ``human_presses``: the clock is pressed as the pace's players press it
  (:mod:`boardsim.presses`: a look first, the move written down, a press forgotten, a press
  before the piece has landed) rather than one pause between touches after the last touch.

:meth:`NoiseModel.clean` is what the existing demo path plays: only the capture order
varies, which every host must handle and which leaves no intermediate position that could be
read as another move. Draws use the caller's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class NoiseModel:
    """Probabilities of untidy habits (per move unless the docstring says per game)."""

    captured_first: float = 0.5
    castle_rook_first: float = 0.0
    en_passant_captured_first: float = 0.0
    promotion_pawn_lingers: float = 0.0
    slide: float = 0.0
    adjust: float = 0.0
    knock: float = 0.0
    knock_lands_nearby: float = 0.5
    result_gesture: float = 0.0
    result_markers: float = 0.5
    rotated: float = 0.0
    human_presses: float = 0.0

    def __post_init__(self) -> None:
        for knob in fields(self):
            value = getattr(self, knob.name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{knob.name} = {value} is not a probability")

    @classmethod
    def clean(cls) -> NoiseModel:
        return cls()

    @classmethod
    def human(cls) -> NoiseModel:
        """Ordinary tournament players: some slides, lingering pawns, rook-first castling."""
        return cls(
            castle_rook_first=0.2,
            en_passant_captured_first=0.3,
            promotion_pawn_lingers=0.3,
            slide=0.15,
            adjust=0.05,
            result_gesture=0.5,
            human_presses=0.5,
        )

    @classmethod
    def messy(cls) -> NoiseModel:
        """Everything, often: for hosts that claim to survive anything."""
        return cls(
            castle_rook_first=0.5,
            en_passant_captured_first=0.5,
            promotion_pawn_lingers=0.6,
            slide=0.4,
            adjust=0.15,
            knock=0.05,
            result_gesture=0.9,
            rotated=0.25,
            human_presses=1.0,
        )

    @classmethod
    def preset(cls, name: str) -> NoiseModel:
        presets = {"clean": cls.clean, "human": cls.human, "messy": cls.messy}
        if name not in presets:
            raise ValueError(f"noise {name!r}: expected one of {', '.join(presets)}")
        return presets[name]()


def chance(rng: random.Random, probability: float) -> bool:
    """True with ``probability``; draws nothing when the habit is off."""
    return probability > 0 and rng.random() < probability
