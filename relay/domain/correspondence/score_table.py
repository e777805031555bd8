"""A correspondence event's score table (IECG Rules and Regulations 6.4, section C): points,
and ties broken by Sonneborn-Berger (article 14): "A = 100% of his opponent's points if he
won the individual game, B = 50% ... if he drew, C = 0% ... if he lost; the value is
A + B + C". The games are as the table counts them after withdrawals (9.B,
:mod:`relay.domain.correspondence.withdrawal`): a forfeit counts its point like a win.

Readings: the opponents' points are their points in this table (forfeits included, as the
table shows them); an unfinished game counts nothing; players equal on points and
Sonneborn-Berger share their place (article 14 names no further tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from relay.domain.correspondence.withdrawal import TableGame
from relay.domain.results import Result

__all__ = ["TableLine", "score_table"]

_POINTS = {
    Result.WHITE_WINS: (Fraction(1), Fraction(0)),
    Result.BLACK_WINS: (Fraction(0), Fraction(1)),
    Result.DRAW: (Fraction(1, 2), Fraction(1, 2)),
}


@dataclass(frozen=True, slots=True)
class TableLine:
    """One player's line: place (shared places have the same number), points,
    Sonneborn-Berger, games counted (finished or forfeited) and of them forfeits won and
    lost."""

    place: int
    player: int
    points: Fraction
    sonneborn_berger: Fraction
    counted: int
    forfeits_won: int
    forfeits_lost: int


def score_table(players: Sequence[int], games: Sequence[TableGame]) -> list[TableLine]:
    """The table of ``players`` from ``games``, best first (ties by player number)."""
    points = {player: Fraction(0) for player in players}
    scores: dict[int, list[tuple[int, Fraction]]] = {player: [] for player in players}
    forfeits = {player: [0, 0] for player in players}
    for game in games:
        shares = _POINTS.get(game.result)
        if shares is None:
            continue  # unfinished: nothing counts yet
        for me, opponent, share in ((game.white, game.black, shares[0]),
                                    (game.black, game.white, shares[1])):  # fmt: skip
            points[me] += share
            scores[me].append((opponent, share))
            if game.forfeit:
                forfeits[me][0 if share else 1] += 1
    lines = sorted(
        (
            (points[p], sum((share * points[o] for o, share in scores[p]), Fraction(0)), p)
            for p in players
        ),
        key=lambda line: (-line[0], -line[1], line[2]),
    )
    table: list[TableLine] = []
    for index, (score, sb, player) in enumerate(lines):
        shared = table and (table[-1].points, table[-1].sonneborn_berger) == (score, sb)
        place = table[-1].place if shared else index + 1
        won, lost = forfeits[player]
        table.append(TableLine(place, player, score, sb, len(scores[player]), won, lost))
    return table
