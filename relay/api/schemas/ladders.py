"""Club ladders (docs/ladders.md): clubs, members, ladders, games with their result logs,
the ladder table and its players' histories, club keys."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from relay.api.schemas.common import Schema
from relay.domain.ladder.rules import LadderRate
from relay.domain.results import Result


class ClubInfo(Schema):
    id: int
    name: str


class MemberInfo(Schema):
    id: int
    club_id: int
    name: str = Field(description='"Family, Given"')
    ecf_member: bool = Field(description="an ECF member (non-members have free quotas)")
    grading_code: str | None


class LadderInfo(Schema):
    id: int
    club_id: int
    name: str
    rate: LadderRate = Field(description="standard, rapid or all")
    starts: date = Field(description="the first day of the period")
    ends: date = Field(description="the last day of the period (counted)")
    initial_points: int
    min_games: int = Field(description="games needed to qualify for the final placings")
    graded: bool
    quota_standard: int = Field(description="graded standard games free for a non-member")
    quota_rapid: int = Field(description="graded rapid games free for a non-member")


class ClubLadders(Schema):
    club: ClubInfo
    ladders: list[LadderInfo]


class HistoryEntry(Schema):
    """One game of a player's ladder history."""

    game: int = Field(description="the club game's id")
    played_on: date
    opponent: int
    opponent_name: str
    colour: str = Field(description="white or black")
    score: float = Field(description="1, 0.5 or 0")
    before: int = Field(description="the player's points before the game")
    opponent_before: int
    change: int
    after: int


class LadderLine(Schema):
    """A player's line of the table."""

    rank: int
    place: str = Field(description='the rank, "2=" when shared')
    player: int = Field(description="the member's id")
    name: str
    points: int
    games: int
    wins: int
    draws: int
    losses: int
    qualified: bool = Field(description="played the minimum number of games")
    history: list[HistoryEntry]


class LadderTable(Schema):
    ladder: LadderInfo
    club: ClubInfo
    lines: list[LadderLine] = Field(
        description="qualified players first, by points, then the others by points; players "
        "level on points share the place"
    )


class ResultEntry(Schema):
    """One entry of a club game's result log."""

    seq: int
    result: Result | None = Field(description="null: the game was deleted")
    by: str
    at: float = Field(description="Unix seconds")
    reason: str


class ClubGameInfo(Schema):
    id: int
    club_id: int
    played_on: date
    rate: LadderRate
    white: int
    black: int
    game_id: int | None = Field(description="the hub game it was played as, on a board")
    board_result: Result | None = Field(
        description="the result of the hub game, once the public may see it"
    )
    result: Result | None = Field(description="the result that counts; null: none")
    log: list[ResultEntry]


class QuotaWarningInfo(Schema):
    player: int
    name: str
    rate: LadderRate
    games: int = Field(description="graded games at this rate")
    quota: int
    season: str = Field(description="the ECF season counted, 1 September to 31 August: 2024-25")
    over: bool = Field(description="over the free quota (else at it)")
    message: str


class ResultEntered(Schema):
    game: ClubGameInfo
    warnings: list[QuotaWarningInfo] = Field(
        description="non-members at or over a free quota of graded games after this game"
    )


class ClubKey(Schema):
    user: str
    role: str
    club_id: int
    member_id: int | None
    token: str = Field(description="shown once; the hub keeps only its digest")


class KeysRevoked(Schema):
    revoked: int
