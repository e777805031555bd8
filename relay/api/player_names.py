"""The arbiter's names routes: players who are probably one person, and merging them
(docs/game-input.md, "Names"). Both need an arbiter token; a merge is audited."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from relay.api.deps import ArbiterDep, HubDep
from relay.api.ids import BodyId, TournamentId
from relay.api.refusals import refusals
from relay.api.schemas.common import PLAIN_TEXT
from relay.api.schemas.player_names import (
    NameClashes,
    NameClashInfo,
    PlayersMerged,
    Renumbered,
)
from relay.api.schemas.tournaments import StartingListEntry
from relay.hub.game_views import player_view
from relay.hub.player_names import MAX_NAME, Clash, clash_warning
from relay.store.models import Player

router = APIRouter(prefix="/api", tags=["names"])


class MergeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keep: BodyId = Field(description="the id of the player who stays")
    drop: BodyId = Field(description="the id of the player merged into them and removed")
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        pattern=PLAIN_TEXT,
        description='the one player\'s name, tidied to "Family, Given"; null: the fuller one',
    )
    reason: str = Field(
        default="", max_length=1000, pattern=PLAIN_TEXT, description="why, for the audit trail"
    )
    rewrite_published: bool = Field(
        default=False,
        description="merge even though the player removed has verified results in published "
        "rounds (they move to the player kept; the standings change)",
    )


def _entry(player: Player) -> StartingListEntry:
    return StartingListEntry.model_validate({"id": player.id, **player_view(player)})


def _clash(clash: Clash) -> NameClashInfo:
    pair = sorted((clash.first, clash.second), key=lambda p: p.start_number)
    assert clash.keep.id is not None
    assert clash.drop.id is not None
    return NameClashInfo(
        players=[_entry(p) for p in pair],
        reasons=list(clash.reasons),
        keep=clash.keep.id,
        drop=clash.drop.id,
        name=clash.name,
        refused=clash.refused,
        published_results=clash.published_results,
    )


@router.get("/tournaments/{tournament_id}/name-clashes")
async def name_clashes(hub: HubDep, who: ArbiterDep, tournament_id: TournamentId) -> NameClashes:
    """Players whose names probably belong to one person (accents, order, initials; the same
    FIDE id), each with the reasons and a suggested merge."""
    with refusals(f"tournament {tournament_id}"):
        clashes = await hub.names.clashes(tournament_id=tournament_id)
    return NameClashes(
        tournament_id=tournament_id,
        clashes=[_clash(c) for c in clashes],
        warning=clash_warning(clashes),
    )


@router.post("/tournaments/{tournament_id}/players/merge")
async def merge_players(
    hub: HubDep, who: ArbiterDep, tournament_id: TournamentId, body: MergeIn
) -> PlayersMerged:
    """Make two players of the tournament one: every game and bye of ``drop`` becomes
    ``keep``'s, ``keep`` takes the name chosen, ``drop`` is removed and the start numbers
    after it move down by one. Refused (409) for two players who play in one round, who have
    different FIDE ids, or (without ``rewrite_published``) when ``drop`` has verified
    results in published rounds."""
    with refusals(f"player {body.keep} or {body.drop} in tournament {tournament_id}"):
        merged = await hub.names.merge(
            tournament_id=tournament_id,
            keep_id=body.keep,
            drop_id=body.drop,
            name=body.name,
            who=who,
            reason=body.reason,
            rewrite_published=body.rewrite_published,
        )
    return PlayersMerged(
        player=_entry(merged.kept),
        dropped=merged.dropped_id,
        dropped_name=merged.dropped_name,
        games=merged.games,
        byes=merged.byes,
        renumbered=[Renumbered(before=b, after=a) for b, a in merged.renumbered],
    )
