"""The result both players agree on the electronic scoresheet, as they sign a paper one
(seed 004 ch. 17 item 12): White confirms, then Black; only then is the result proposed
for the arbiter (``result-proposed``, gesture ``agreed``), who confirms it like any result.

A result the game already has (a checkmate the hub recorded) or already proposed the same
way is acknowledged and nothing recorded; another result than the game's is refused in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from relay.domain.errors import RefusedError
from relay.domain.game.events import ResultProposed
from relay.domain.game.record import GameRecord
from relay.domain.results import Result

#: The order in which the players confirm: White first, then Black.
SIGNATURES = ("white", "black")
GESTURE = "agreed"


class ResultAgreementError(ValueError, RefusedError):
    """A result the players cannot propose: not a result, not confirmed by both, or not the
    game's."""


def agreed_result(
    record: GameRecord, *, result: Result, signed: Sequence[str], at: float
) -> ResultProposed | None:
    """The proposal of ``result`` once both players confirmed it (``signed``: White, then
    Black); None when there is nothing to record (the game has it already, or it is proposed
    already)."""
    if not result.is_decided:
        raise ResultAgreementError("the players agree on a result: 1-0, 0-1 or 1/2-1/2")
    if tuple(signed) != SIGNATURES:
        got = ", ".join(signed) or "nobody"
        raise ResultAgreementError(
            f"both players confirm the result, White first, then Black (confirmed: {got})"
        )
    if record.result.is_decided:
        if record.result == result:
            return None
        how = f", {record.termination}" if record.termination else ""
        raise ResultAgreementError(
            f"the game ended {record.result}{how}, not {result}: tell the arbiter"
        )
    if record.proposed_result == result:
        return None
    return ResultProposed(result=result, gesture=GESTURE, at=at)
