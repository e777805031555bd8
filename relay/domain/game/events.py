"""The events of a game's log and their stored form.

A game's state is a fold of these events (:mod:`relay.domain.game.record`). Each event
turns into a ``(kind, data)`` pair of plain JSON values for storage and streaming, and back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, ClassVar


class EventFormatError(ValueError):
    """A stored event that cannot be read back (unknown kind, missing or wrong fields)."""


@dataclass(frozen=True, slots=True)
class MoveMade:
    """A move was played on the board. ``at`` is when it was decided, in Unix seconds."""

    kind: ClassVar[str] = "move"
    ply: int
    uci: str
    san: str
    fen: str
    at: float


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The laws ended the game (checkmate, stalemate, dead position, repetition, ...)."""

    kind: ClassVar[str] = "end"
    result: str
    termination: str
    at: float


GameEvent = MoveMade | GameEnded

_KINDS: dict[str, type[MoveMade] | type[GameEnded]] = {
    MoveMade.kind: MoveMade,
    GameEnded.kind: GameEnded,
}


def event_data(event: GameEvent) -> dict[str, Any]:
    """The JSON-ready fields of an event (its kind is stored beside them)."""
    return asdict(event)


def event_from_data(kind: str, data: Mapping[str, Any]) -> GameEvent:
    """Rebuild an event from its stored kind and fields."""
    cls = _KINDS.get(kind)
    if cls is None:
        raise EventFormatError(f"unknown event kind {kind!r}")
    try:
        return cls(**data)
    except TypeError as error:
        raise EventFormatError(f"{kind} event: {error}") from None
