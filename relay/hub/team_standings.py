"""Team standings: match points and game points (seed 004 chapter 13).

A team match is every game of a round between the players of two teams (the players'
``team``). The home team is the one with White on the match's first board; board points
are the home team's, board by board. A match counts once every one of its games has a
result (verified, for the public), so a match in progress never shows as won or lost.

The ranking is the domain's (``relay.domain.tournament.team_tie_breaks``); this service
finds the matches in the store and the games' views, over the rounds the caller says the
reader sees.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from relay.domain.tournament.team_tie_breaks import Match, team_standings
from relay.hub.game_views import GameViews
from relay.hub.standings import VisibleRound
from relay.store.tournaments import list_players


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """One team's line: its points and its finished matches, in round order."""

    team: str
    match_points: float
    game_points: float
    matches: tuple[Match[str], ...]


async def team_standings_of(
    views: GameViews,
    session: Session,
    tournament_id: int,
    rounds: Sequence[VisibleRound],
    *,
    provisional: bool,
    primary: str = "MP",
) -> list[TeamStanding]:
    """Teams ranked on match points then game points (``primary="GP"``: the other way
    round); ``provisional`` counts results not yet verified."""
    players = sorted(
        list_players(session, tournament_id=tournament_id), key=lambda p: p.start_number
    )
    team_of = {p.id: p.team for p in players}
    teams = list(dict.fromkeys(p.team for p in players if p.team))
    matches: list[Match[str]] = []
    for round_id, _, cut in rounds:
        boards: dict[frozenset[str], list[tuple[int, str, float | None]]] = defaultdict(list)
        for view in await views.round(round_id):
            game = view.pairing.game
            white, black = team_of[game.white_id], team_of[game.black_id]
            if not white or not black or white == black:
                continue
            record = view.record(view.version_at(cut))
            counted = provisional or record.verified
            boards[frozenset((white, black))].append(
                (game.board, white, record.result.white_points if counted else None)
            )
        for pair, games in boards.items():
            match = team_match(pair, sorted(games))
            if match is not None:
                matches.append(match)
    return [
        TeamStanding(
            row.team,
            row.match_points,
            row.game_points,
            tuple(m for m in matches if row.team in (m.home, m.away)),
        )
        for row in team_standings(teams, matches, primary=primary)
    ]


def team_match(
    pair: frozenset[str], games: Sequence[tuple[int, str, float | None]]
) -> Match[str] | None:
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
