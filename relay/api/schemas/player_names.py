"""Player names that may be one person's, merging them, and the publish answer's warnings."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema
from relay.api.schemas.rounds import RoundInfo
from relay.api.schemas.tournaments import StartingListEntry


class NameClashInfo(Schema):
    """Two players who are probably one person, and the merge suggested for them."""

    players: list[StartingListEntry] = Field(description="the two players, by start number")
    reasons: list[str] = Field(description='why, in words ("initial V matches Vladimir")')
    keep: int = Field(description="the player id the suggested merge keeps")
    drop: int = Field(description="the player id it removes")
    name: str = Field(description='the name suggested for the one player, "Family, Given"')
    refused: str | None = Field(
        description="why a merge is refused (both play in one round: two people), or null"
    )
    published_results: str | None = Field(
        description="why the suggested merge needs rewrite_published (the player removed has "
        "verified results in published rounds), or null"
    )


class NameClashes(Schema):
    tournament_id: int
    clashes: list[NameClashInfo]
    warning: str | None = Field(
        description='"2 players may be the same person: ..." while a merge could resolve one'
    )


class Renumbered(Schema):
    before: int
    after: int


class PlayersMerged(Schema):
    """What a merge did."""

    player: StartingListEntry = Field(description="the one player, as stored now")
    dropped: int = Field(description="the id of the player removed")
    dropped_name: str
    games: int = Field(description="games that moved to the player kept")
    byes: int = Field(description="byes that moved to the player kept")
    renumbered: list[Renumbered] = Field(
        description="start numbers moved down to close the gap the removed player left"
    )


class RoundPublished(RoundInfo):
    """A round after publishing it, with what the arbiter should look at."""

    warnings: list[str] = Field(
        default_factory=list,
        description='e.g. "2 players may be the same person: Kramnik, V and Kramnik, Vladimir"',
    )
