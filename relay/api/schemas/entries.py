"""Moves entered by hand (docs/game-input.md): the entry, and what the hub made of it."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema
from relay.domain.results import Result

#: Longer than any move as people write it ("Ng1xf3+!?", "e7-e8=Q#").
MAX_ENTRY = 24


class EntryIn(Schema):
    ply: int = Field(ge=1, le=10_000, description="the ply the move is for; 1 is White's first")
    move: str = Field(
        min_length=1,
        max_length=MAX_ENTRY,
        description="the move as written: SAN (Nf3, exd5, O-O, e8=Q; +, #, ! ignored) or UCI",
        examples=["Nf3"],
    )


class EntryAnswer(Schema):
    """The entry as recorded (``repeated`` false) or as recorded before (``repeated`` true:
    the same move was already at that ply, nothing was added)."""

    game_id: int
    ply: int
    san: str
    repeated: bool
    v: int | None = Field(description="the game's log version after the entry; null for a repeat")
    plies: int = Field(description="the game's plies after the entry")
    fen: str = Field(description="the position after the game's last move")
    result: Result
