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
    notes: list[str] = Field(
        default=[],
        description="a line for each stored board the file differs from: a port or clock "
        "setting the file changed is applied; one changed on the console since is kept",
    )
    not_followed: dict[int, str] = Field(
        default={},
        description="games whose board could not be opened on its new port, with the reason",
    )


class TournamentImported(Schema):
    tournament_id: int
    players: int
    rounds: int
    games: int
    notes: list[str] = Field(description="what was odd in the file and how it was read")
