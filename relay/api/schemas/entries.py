"""Moves entered by hand (docs/game-input.md): the entry, and what the hub made of it."""

from __future__ import annotations

from typing import Literal

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
    timed: bool = Field(
        default=True,
        description="false for a move keyed from a paper scoresheet after it was played: its "
        "time of entry says nothing of the players' clocks, so no one is charged for it",
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


class ClaimIn(Schema):
    ply: int = Field(
        ge=1, le=10_000, description="the ply of the move the claim goes with (the next one)"
    )
    rule: Literal["threefold", "fifty-moves"] = Field(
        description="threefold repetition (9.2) or the fifty-move rule (9.3)"
    )
    move: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_ENTRY,
        description="the move the player is about to play, written and not played (9.2.1.1, "
        "9.3.1); null: a claim on the position as it stands",
        examples=["Nf3"],
    )


class ClaimAnswer(Schema):
    """What the hub made of a claim by the player to move: ``correct`` proposes the draw
    (the move is not played); a wrong claim alerts the arbiter and plays the move."""

    game_id: int
    ply: int
    player: str = Field(description="the claimant: white or black")
    rule: str
    san: str | None = Field(description="the intended move as SAN; null without one")
    correct: bool
    words: str = Field(description="the hub's verdict in words, as the arbiter's alert says it")
    repeated: bool = Field(description="the same claim was made before: nothing recorded")
    v: int | None = Field(description="the game's log version after the claim; null: no event")
    plies: int
    proposed_result: Result | None
    result: Result


class AgreementIn(Schema):
    result: Result = Field(description="the result the players agree on: 1-0, 0-1 or 1/2-1/2")
    signed: list[Literal["white", "black"]] = Field(
        max_length=2,
        description="the players who confirmed it, in order: White, then Black",
        examples=[["white", "black"]],
    )


class AgreementAnswer(Schema):
    game_id: int
    v: int | None = Field(description="the log's version after the proposal; null: no event")
    proposed_result: Result | None
    result: Result
