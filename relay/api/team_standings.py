"""Team standings over HTTP: match points and game points (seed 004 chapter 13).

The matches and the ranking are the hub's :mod:`relay.hub.team_standings`; this router says
which rounds the reader sees (the public: published rounds, verified results) and shapes
the answer.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from relay.api.deps import HubDep, SessionDep, ViewerDep
from relay.api.games import tournament_or_404, visible_rounds
from relay.api.ids import TournamentId
from relay.api.schemas.standings import TeamMatchInfo, TeamStandingRow
from relay.hub.team_standings import TeamStanding, team_standings_of

router = APIRouter(prefix="/api", tags=["read"])


@router.get("/tournaments/{tournament_id}/team-standings", response_model=list[TeamStandingRow])
async def tournament_team_standings(
    hub: HubDep,
    session: SessionDep,
    identity: ViewerDep,
    tournament_id: TournamentId,
    primary: Annotated[Literal["MP", "GP"], Query()] = "MP",
) -> list[TeamStandingRow]:
    """Teams ranked on match points then game points (``primary=GP``: the other way
    round), with their finished matches."""
    tournament_or_404(session, tournament_id)
    rows = await team_standings_of(
        hub.views,
        session,
        tournament_id,
        visible_rounds(session, tournament_id, identity),
        provisional=identity is not None,
        primary=primary,
    )
    return [_row(row) for row in rows]


def _row(row: TeamStanding) -> TeamStandingRow:
    return TeamStandingRow(
        team=row.team,
        match_points=row.match_points,
        game_points=row.game_points,
        matches=[
            TeamMatchInfo(home=m.home, away=m.away, boards=list(m.boards)) for m in row.matches
        ],
    )
