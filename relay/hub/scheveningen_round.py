"""A Scheveningen match paired by the hub: every player of one team meets every player of
the other, by the tables of seed 004 appendix 2 (:mod:`relay.domain.tournament.scheveningen`).

The two teams are the players' ``team``: team A is the team of start number 1, team B the
other; within a team the start numbers give the board order (A1 is A's lowest start
number). Round n of the match is round n of the table.
"""

from __future__ import annotations

from relay.domain.errors import RefusedError
from relay.domain.tournament.scheveningen import Seat, Team, scheveningen_rounds
from relay.hub.tournament_history import TournamentHistory


class ScheveningenRoundError(ValueError, RefusedError):
    """The players do not make a Scheveningen match; the message says why."""


def pair_scheveningen_round(history: TournamentHistory, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s games, (White, Black) start numbers, board 1 first."""
    teams: dict[str, list[int]] = {}
    for player in history.players:  # in start-number order
        if not player.team:
            raise ScheveningenRoundError(f"start number {player.start_number} has no team")
        teams.setdefault(player.team, []).append(player.start_number)
    if len(teams) != 2:
        raise ScheveningenRoundError(f"a Scheveningen match is two teams, not {len(teams)}")
    (first, a), (second, b) = teams.items()
    if len(a) != len(b):
        raise ScheveningenRoundError(
            f"{first} has {len(a)} players and {second} {len(b)}: the teams must be equal"
        )
    tables = scheveningen_rounds(len(a))
    if number > len(tables):
        raise ScheveningenRoundError(f"a match of {len(a)} boards has {len(tables)} rounds")
    seats = {Team.A: a, Team.B: b}

    def start_number(seat: Seat) -> int:
        return seats[seat.team][seat.number - 1]

    return [(start_number(g.white), start_number(g.black)) for g in tables[number - 1]]
