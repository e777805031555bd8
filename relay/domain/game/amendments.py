"""Which of a game's moves an arbiter amended (seed 004, ch. 18: a corrected score is marked).

An amendment is an ``arbiter-correction`` event that changed moves the game already had:
moves replaced, removed or added after the record had some. Moves imported into a game
that had none are its first record, not an amendment.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from relay.domain.game.events import GameEvent, MovesReplaced
from relay.domain.game.record import GameRecord


@dataclass(frozen=True, slots=True)
class Amendment:
    #: The first ply the correction changed (1 = White's first move).
    ply: int
    #: Plies taken out of the record and put in.
    removed: int
    added: int
    by: str
    reason: str
    at: float

    def words(self) -> str:
        """``"amended by the arbiter: <reason>"``, as the PGN comment at the ply says it."""
        return f"amended by the arbiter: {self.reason}" if self.reason else "amended by the arbiter"


def amendments(events: Iterable[GameEvent]) -> tuple[Amendment, ...]:
    """The arbiter's amendments of a game's moves, in the order they were made."""
    record = GameRecord()
    found: list[Amendment] = []
    for event in events:
        if isinstance(event, MovesReplaced):
            before = [move.uci for move in record.moves]
            record.apply(event)
            after = [move.uci for move in record.moves]
            amended = _amendment(event, before, after)
            if amended is not None:
                found.append(amended)
        else:
            record.apply(event)
    return tuple(found)


def _amendment(event: MovesReplaced, before: list[str], after: list[str]) -> Amendment | None:
    if not before or before == after:
        return None
    first = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    return Amendment(
        ply=first + 1,
        removed=len(before) - first,
        added=len(after) - first,
        by=event.by,
        reason=event.reason,
        at=event.at,
    )
