"""Games as readers see them: board summaries, a game's moves, claims and alerts (the
shapes that ``relay.hub.game_views`` renders), and what an arbiter's change answers."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Number, Schema
from relay.api.schemas.tournaments import PlayerInfo
from relay.domain.results import Result


class FallenFlag(Schema):
    player: str = Field(description="white or black")
    at: Number = Field(description="Unix seconds")


class ClockDrift(Schema):
    """Per player, the e-clock's reading minus the hub's own count at their last move where
    both were known (seconds)."""

    white: Number | None
    black: Number | None


class ClockSummary(Schema):
    """Both clocks in centiseconds as of ``since`` (Unix seconds); the ``running`` side
    counts down from then, after ``delay`` seconds of simple delay."""

    white: int | None = Field(description="centiseconds")
    black: int | None = Field(description="centiseconds")
    running: str | None = Field(description="white, black, or null when no clock runs")
    since: Number | None
    delay: Number
    paused: bool
    flag_at: Number | None = Field(description="when the running side's flag falls")
    flag: FallenFlag | None
    drift: ClockDrift


class AmendedMoves(Schema):
    """An arbiter's correction of the moves (seed 004, ch. 18): the mainline replaced from
    ``ply``, ``removed`` plies taken out and ``added`` put in."""

    ply: int = Field(description="the first ply changed (1 = White's first move)")
    removed: int
    added: int
    by: str
    reason: str


class GameSummary(Schema):
    """A board summary: players, position, last move, result, and the log version ``v``."""

    id: int
    round_id: int
    board: int
    white: PlayerInfo
    black: PlayerInfo
    fen: str
    ply: int
    last_move: str | None = Field(description="UCI")
    last_san: str | None
    check: bool
    result: Result
    termination: str | None
    verified: bool
    proposed_result: Result | None = Field(description="a result the players showed")
    draw_offer: str | None = Field(description="the player whose draw offer stands")
    clock: ClockSummary
    amended: list[AmendedMoves] = Field(
        description="the arbiter's corrections of the moves, oldest first; empty: none "
        "(the game is marked amended)"
    )
    v: int = Field(description="the number of events in the game's log")


class GameMove(Schema):
    ply: int
    uci: str
    san: str
    at: Number = Field(description="when the move was decided, Unix seconds")
    clock: Number | None = Field(description="the mover's time left after it, seconds")
    spent: Number | None = Field(description="the time it took, seconds")
    drift: Number | None = Field(description="e-clock minus the hub's count, seconds")


class DrawClaim(Schema):
    rule: str = Field(description="threefold or fifty-moves")
    now: bool
    moves: list[str] = Field(description="SAN of the moves that would make the claim valid")


class GameDetail(GameSummary):
    """One game: its summary with its moves, claimable draws and alerts."""

    moves: list[GameMove]
    claims: list[DrawClaim]
    illegal_moves: int = Field(description="completed illegal moves")
    alerts: list[str]


class GameChanged(Schema):
    """The game after an arbiter's change."""

    game_id: int
    v: int | None = Field(description="the log's version after the change; null: no event")
    result: Result
    verified: bool
    ply: int
    fen: str


class DrawOfferState(Schema):
    game_id: int
    draw_offer: str | None
    proposed_result: Result | None


class PgnImported(Schema):
    """How many games a PGN import into a round created, corrected, left as they were."""

    created: int
    corrected: int
    unchanged: int
