"""Team standings: match points and game points (seed 004 chapter 13).

A team match is every game of a round between the players of two teams (the players'
``team``). The home team is the one with White on the match's first board; board points
are the home team's, board by board. A match counts once every one of its games has a
result (verified, for the public), so a match in progress never shows as won or lost.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from relay.api.deps import HubDep, SessionDep, ViewerDep
from relay.api.games import tournament_or_404, visible_rounds
from relay.api.standings import SCORES
from relay.domain.tournament.team_tie_breaks import Match, team_standings
from relay.store.tournaments import list_players

router = APIRouter(prefix="/api", tags=["read"])


@router.get("/tournaments/{tournament_id}/team-standings")
async def tournament_team_standings(
    hub: HubDep,
    session: SessionDep,
    identity: ViewerDep,
    tournament_id: int,
    primary: Annotated[Literal["MP", "GP"], Query()] = "MP",
) -> list[dict[str, Any]]:
    """Teams ranked on match points then game points (``primary=GP``: the other way
    round), with their finished matches."""
    tournament_or_404(session, tournament_id)
    players = sorted(
        list_players(session, tournament_id=tournament_id), key=lambda p: p.start_number
    )
    team_of = {p.id: p.team for p in players}
    teams = list(dict.fromkeys(p.team for p in players if p.team))
    matches: list[Match[str]] = []
    for round_id, _, cut in visible_rounds(session, tournament_id, identity):
        boards: dict[frozenset[str], list[tuple[int, str, float | None]]] = defaultdict(list)
        for view in await hub.views.round(round_id):
            game = view.pairing.game
            white, black = team_of[game.white_id], team_of[game.black_id]
            if not white or not black or white == black:
                continue
            record = view.record(view.version_at(cut))
            scores = SCORES.get(record.result)
            known = scores is not None and (identity is not None or record.verified)
            boards[frozenset((white, black))].append(
                (game.board, white, scores[0] if known and scores else None)
            )
        for pair, games in boards.items():
            match = _match(pair, sorted(games))
            if match is not None:
                matches.append(match)
    rows = team_standings(teams, matches, primary=primary)
    return [
        {
            "team": row.team,
            "match_points": row.match_points,
            "game_points": row.game_points,
            "matches": [
                {"home": m.home, "away": m.away, "boards": list(m.boards)}
                for m in matches
                if row.team in (m.home, m.away)
            ],
        }
        for row in rows
    ]


def _match(pair: frozenset[str], games: list[tuple[int, str, float | None]]) -> Match[str] | None:
    """The match from its games (board, White's team, White's points), board order; None
    while a game has no result."""
    home = games[0][1]
    (away,) = pair - {home}
    boards = []
    for _, white, points in games:
        if points is None:
            return None
        boards.append(points if white == home else 1.0 - points)
    return Match(home, away, tuple(boards))
