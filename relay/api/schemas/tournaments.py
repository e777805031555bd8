"""Tournaments, their players and their electronic boards."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class TournamentSummary(Schema):
    id: int
    name: str
    site: str
    start_date: str | None = Field(description="ISO 8601 date")
    end_date: str | None = Field(description="ISO 8601 date")
    time_control: str | None = Field(description="as in the event file, e.g. 40/5400+30:1800+30")
    rounds_planned: int | None


class PlayerInfo(Schema):
    """A player as the pairings and games name them."""

    start_number: int
    name: str = Field(description='"Family, Given"')
    title: str | None
    rating: int | None
    fide_id: int | None
    federation: str | None
    team: str | None


class _PlayerId(Schema):
    id: int


class StartingListEntry(PlayerInfo, _PlayerId):
    """A player of the starting list, with the database's id first."""


class EBoardInfo(Schema):
    """An electronic board of the tournament and its port."""

    id: int
    number: int
    driver: str
    url: str
    clock: str = Field(description="White's side of its clock: white-left, white-right or auto")
