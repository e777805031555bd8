"""What loading an event file or importing a tournament created."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class EventLoaded(Schema):
    tournament_id: int
    created: bool = Field(description="false: the tournament was there and is updated")
    players: int
    boards: int
    rounds: int
    games: int


class TournamentImported(Schema):
    tournament_id: int
    players: int
    rounds: int
    games: int
    notes: list[str] = Field(description="what was odd in the file and how it was read")
