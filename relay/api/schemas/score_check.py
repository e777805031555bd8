"""What the arbiter's score check and an alert's repairs answer (``relay.api.score_check``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from relay.api.schemas.common import Schema


class ScoreDifference(Schema):
    kind: Literal["extra", "missing", "different", "unreadable"] = Field(
        description="extra: the record has plies the scoresheet lacks; missing: the "
        "scoresheet has plies the record lacks; different: another move at the ply; "
        "unreadable: the scoresheet's entry is no legal move there"
    )
    ply: int = Field(description="the first ply concerned (1 = White's first move)")
    recorded: list[str] = Field(description="the e-board record's moves there, SAN")
    scoresheet: list[str] = Field(description="the scoresheet's moves there, SAN")
    words: str


class ProposedCorrection(Schema):
    """The arbiter's correction it proposes: send ``ply`` and ``san`` to
    ``POST /api/games/{id}/moves`` (the mainline from ``ply`` replaced, never a variation)."""

    ply: int
    san: list[str] = Field(description="the moves from that ply on; empty removes them")
    words: str


class ScoreCheckAnswer(Schema):
    game_id: int
    recorded_plies: int
    scoresheet_plies: int
    agrees: bool
    differences: list[ScoreDifference]
    correction: ProposedCorrection | None = Field(
        description="null when the record agrees or the scoresheet does not say enough"
    )
    words: str = Field(description="the finding in one sentence")


class SquareToSet(Schema):
    square: str
    game: str | None = Field(description='what the game has there ("white queen"), null: empty')
    board: str | None = Field(description="what the board shows there, null: empty")


class RepairsAnswer(Schema):
    """The ways out of an illegal position on the board: accept the continuation, or set
    the board back to the last legal position (``game_fen``, changing ``squares``)."""

    game_id: int
    ply: int = Field(description="plies in the record")
    game_fen: str = Field(description="the last legal position, the record's")
    board_fen: str | None = Field(description="the board's piece placement; null: unknown")
    squares: list[SquareToSet]
    continuation: ProposedCorrection | None = Field(
        description="legal moves from the record that reach the board's position"
    )
    words: str
