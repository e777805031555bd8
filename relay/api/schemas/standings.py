"""The standings' answers: a player's line (``/standings``) and a team's
(``/team-standings``)."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Number, Schema


class PlayerStandingRow(Schema):
    """A player with points, games played, provisional points, the estimated rating change
    and the tie-breaks, in the tournament's order."""

    start_number: int
    name: str
    title: str | None
    rating: int | None
    fide_id: int | None
    federation: str | None
    team: str | None
    points: Number
    played: int
    provisional: Number
    rating_change: Number | None
    tie_breaks: dict[str, Number]
    rank: int = Field(
        description="the place: shared by players equal in points and in every tie-break of "
        "the tournament's order (FIDE C.07 2.1)"
    )
    place: str = Field(description='the place as it is written: "2=" when shared')


class TeamMatchInfo(Schema):
    """A finished team match: the home team's points on each board, board 1 first."""

    home: str
    away: str
    boards: list[Number]


class TeamStandingRow(Schema):
    team: str
    match_points: Number
    game_points: Number
    matches: list[TeamMatchInfo]
