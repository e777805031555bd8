"""Direct encounter (DE), FIDE C.07 article 6, the same in the 2024 and 2026 editions.

Among participants tied with each other, the encounters between them make a small table
(6.1). A player's score in it counts each opponent of the group once: the points taken from
that opponent, averaged when they met more than once (6.1.2). Which encounters count is the
caller's to say: in a Swiss, games over the board only (forfeits stay out, 6.1.1); in a
round robin forfeits too (15.2).

* 6.2, everyone in the group met everyone else: the small table ranks them; players still
  level in it form a smaller group, to which the rule is applied again, and so on while it
  separates someone.
* 6.3, not everyone met (as in a Swiss): a player is ranked first only when their score is
  higher than any score another could reach had every encounter they missed in the group
  been won; then the next, against those left, and so on while it holds. The players left
  over form a new group, to which article 6 is applied again.

A group DE cannot split keeps its tie for the next tie-break. The value of a player is the
number of players of their group that DE ranks below them: higher is better, and 0 for
everyone where DE separates nobody.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

#: Encounters of a player: (opponent, points the player took), one per game.
Encounters = Callable[[P], Iterable[tuple[P, float]]]

#: The points of a win, which 6.3 gives each missed encounter.
WIN = 1.0


def direct_encounter(group: Sequence[P], encounters: Encounters[P]) -> dict[P, float]:
    """DE for each player of ``group`` (players tied with each other), from their
    ``encounters``."""
    tiers = _tiers(list(group), encounters)
    result: dict[P, float] = {}
    below = len(group)
    for tier in tiers:
        below -= len(tier)
        result |= dict.fromkeys(tier, float(below))
    return result


def _tiers(group: list[P], encounters: Encounters[P]) -> list[list[P]]:
    """The group in DE order: a list of tiers, best first, each still tied within."""
    if len(group) < 2:
        return [group]
    members = set(group)
    taken: dict[P, dict[P, list[float]]] = {player: {} for player in group}
    for player in group:
        for opponent, points in encounters(player):
            if opponent in members and opponent != player:
                taken[player].setdefault(opponent, []).append(points)
    score = {p: sum(sum(each) / len(each) for each in taken[p].values()) for p in group}
    missed = {p: len(group) - 1 - len(taken[p]) for p in group}
    if not any(missed.values()):  # 6.2
        levels = sorted({score[p] for p in group}, reverse=True)
        if len(levels) == 1:
            return [group]
        tiers = [[p for p in group if score[p] == level] for level in levels]
        return [deeper for tier in tiers for deeper in _tiers(tier, encounters)]
    # 6.3: first only with a score no one else can reach, then the next, and so on.
    best = {p: score[p] + WIN * missed[p] for p in group}
    rest = sorted(group, key=lambda p: (-score[p], -best[p]))
    decided: list[list[P]] = []
    while len(rest) > 1 and score[rest[0]] > max(best[p] for p in rest[1:]):
        decided.append([rest[0]])
        rest = rest[1:]
    if not decided:
        return [group]
    return decided + _tiers(rest, encounters)
