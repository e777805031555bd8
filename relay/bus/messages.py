"""What travels on the bus: a stored game event and the topics it is published under."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Published:
    """A committed event of one game, with the game's round for round-wide followers."""

    round_id: int
    game_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    #: When the event was committed, Unix seconds (transmission delays count from here).
    recorded_at: float = 0.0


def game_topic(game_id: int) -> str:
    return f"game:{game_id}"


def round_topic(round_id: int) -> str:
    return f"round:{round_id}"
