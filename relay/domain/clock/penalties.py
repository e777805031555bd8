"""The time penalties the Laws give, proposed for the arbiter to confirm.

* A completed illegal move (7.5.5): two minutes more for the opponent, one in rapid and blitz
  (A.3); the increment the offender's press earned is taken back, since the move it paid
  for did not stand. A second completed illegal move loses (7.5.5): that is a result, not
  a time change.
* A wrong draw claim (9.5.3): two minutes more for the opponent, one in rapid and blitz
  (A.3).

Nothing here changes a clock: these are the changes the arbiter is shown and confirms.
"""

from __future__ import annotations

from dataclasses import dataclass

from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.clock.time_control import Bonus, GameClass, TimeControl
from relay.domain.errors import RefusedError
from relay.domain.game.record import GameRecord


class PenaltyError(ValueError, RefusedError):
    """No penalty of that kind applies to the game as it stands."""


@dataclass(frozen=True, slots=True)
class ProposedChange:
    player: str  # "white" or "black"
    change: str  # "add" or "subtract"
    seconds: float
    cause: ClockChangeCause
    reason: str


def penalty_seconds(control: TimeControl) -> int:
    """Two minutes in standard chess, one in rapid and blitz (A.3); standard when unknown."""
    return 60 if control.classify() in (GameClass.RAPID, GameClass.BLITZ) else 120


def illegal_move_changes(record: GameRecord, control: TimeControl) -> list[ProposedChange]:
    """The changes for the game's last completed illegal move."""
    if not record.illegal_moves:
        raise PenaltyError("no illegal move has been completed in this game")
    last = record.illegal_moves[-1]
    if last.penalty == "loss":
        raise PenaltyError(
            f"{last.player}'s second completed illegal move loses the game (7.5.5): "
            "enter the result instead"
        )
    offender = last.player
    changes = [
        ProposedChange(
            _other(offender),
            "add",
            penalty_seconds(control),
            ClockChangeCause.ILLEGAL_MOVE,
            f"{offender} completed an illegal move: {last.reason}",
        )
    ]
    if control.timed:
        played = sum(1 for move in record.moves if (move.ply % 2 == 1) == (offender == "white"))
        period = control.period_at(played + 1)[1]
        if period.bonus is Bonus.FISCHER and period.bonus_seconds:
            changes.append(
                ProposedChange(
                    offender,
                    "subtract",
                    period.bonus_seconds,
                    ClockChangeCause.INCREMENT,
                    "the increment earned by the illegal move's press",
                )
            )
    return changes


def wrong_claim_change(claimant: str, control: TimeControl) -> ProposedChange:
    """The change for ``claimant``'s wrong draw claim."""
    if claimant not in ("white", "black"):
        raise PenaltyError(f"claimant {claimant!r}: white or black")
    return ProposedChange(
        _other(claimant),
        "add",
        penalty_seconds(control),
        ClockChangeCause.WRONG_CLAIM,
        f"{claimant}'s draw claim was wrong (9.5.3)",
    )


def _other(player: str) -> str:
    return "black" if player == "white" else "white"
