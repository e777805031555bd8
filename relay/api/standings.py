"""The standings over HTTP: points and tie-breaks per player, best first.

The rules (FIDE C.07 tie-breaks, byes and forfeits, round-robin withdrawals, the estimated
rating change) are the hub's :mod:`relay.hub.standings`, over the domain; this router says
which rounds the reader sees (the public: published rounds, verified results, each round its
transmission delay ago) and shapes the answer.
"""

from __future__ import annotations

from fastapi import APIRouter

from relay.api.deps import HubDep, SessionDep, ViewerDep
from relay.api.games import tournament_or_404, visible_rounds
from relay.api.ids import TournamentId
from relay.api.schemas.standings import PlayerStandingRow
from relay.hub.standings import PlayerStanding, player_standings

router = APIRouter(prefix="/api", tags=["read"])


@router.get("/tournaments/{tournament_id}/standings", response_model=list[PlayerStandingRow])
async def tournament_standings(
    hub: HubDep, session: SessionDep, identity: ViewerDep, tournament_id: TournamentId
) -> list[PlayerStandingRow]:
    """Points per player with tie-breaks (FIDE C.07, in the edition that ranks the
    tournament: see ``GET .../rules``), best first, in the tournament's tie-break order;
    byes, forfeits and round-robin withdrawals counted by the rules. The
    public counts verified results only; with a token, provisional results are counted
    apart in the points and included in the tie-breaks."""
    tournament = tournament_or_404(session, tournament_id)
    rows = await player_standings(
        hub.views,
        session,
        tournament,
        visible_rounds(session, tournament_id, identity),
        provisional=identity is not None,
    )
    return [_row(row) for row in rows]


def _row(row: PlayerStanding) -> PlayerStandingRow:
    player = row.player
    return PlayerStandingRow(
        start_number=player.start_number,
        name=player.name,
        title=player.title,
        rating=player.rating,
        fide_id=player.fide_id,
        federation=player.federation,
        team=player.team,
        points=row.points,
        played=row.played,
        provisional=row.provisional,
        rating_change=row.rating_change,
        tie_breaks=dict(row.tie_breaks),
        rank=row.rank,
        place=row.place,
    )
