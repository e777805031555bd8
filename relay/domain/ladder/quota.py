"""Graded ladders and the ECF's free quota for non-members (seed 002: "ECF allow
non-members 3 SP games (6 RP games) to be graded for free").

A game is graded when it counts for at least one of the club's graded ladders; it is graded
once however many graded ladders it counts for. A player who is not an ECF member has a free
quota per rate of play (3 standard, 6 rapid by default; each ladder may set its own, and
the smallest of the graded ladders a game counts for applies). The officer is warned when
a player reaches the quota (the next graded game would not be free) and when a game goes
over it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from relay.domain.ladder.rules import ClubResult, Ladder, LadderRate


@dataclass(frozen=True, slots=True)
class QuotaWarning:
    """A non-member at or over a free quota."""

    player: int
    name: str
    rate: LadderRate
    games: int
    quota: int

    @property
    def over(self) -> bool:
        return self.games > self.quota

    def __str__(self) -> str:
        kind = f"graded {self.rate.value} games"
        if self.over:
            return (
                f"{self.name} is not an ECF member and has now played {self.games} {kind}: "
                f"over the free quota of {self.quota}"
            )
        return (
            f"{self.name} is not an ECF member and has played {self.games} {kind}, the free "
            "quota: the next one would not be free"
        )


def graded_quota(ladders: Iterable[Ladder], game: ClubResult) -> int | None:
    """The free quota that applies to ``game``: the smallest of the graded ladders it counts
    for; None when it counts for no graded ladder (it is not graded)."""
    fitting = [
        ladder.free_quota(game.rate) for ladder in ladders if ladder.graded and ladder.counts(game)
    ]
    return min(fitting) if fitting else None


def graded_counts(
    ladders: Collection[Ladder], results: Iterable[ClubResult], non_members: Collection[int]
) -> dict[tuple[int, LadderRate], int]:
    """Each non-member's graded games, by rate of play."""
    counts: dict[tuple[int, LadderRate], int] = {}
    for game in results:
        if graded_quota(ladders, game) is None:
            continue
        for player in (game.white, game.black):
            if player in non_members:
                counts[player, game.rate] = counts.get((player, game.rate), 0) + 1
    return counts


def quota_warnings(
    ladders: Collection[Ladder],
    results: Iterable[ClubResult],
    non_members: Collection[int],
    names: Mapping[int, str],
    *,
    game: ClubResult | None = None,
) -> list[QuotaWarning]:
    """The non-members at or over a free quota, counting ``results`` (which include
    ``game`` when it is given); with ``game``, only its two players, at its rate, and only
    when the game itself is graded."""
    results = list(results)
    counts = graded_counts(ladders, results, non_members)
    if game is not None:
        quota = graded_quota(ladders, game)
        if quota is None:
            return []
        wanted = [(player, game.rate, quota) for player in (game.white, game.black)]
    else:
        wanted = []
        for player, rate in sorted(counts):
            quotas = [
                q
                for r in results
                if r.rate is rate and player in (r.white, r.black)
                if (q := graded_quota(ladders, r)) is not None
            ]
            wanted.append((player, rate, min(quotas)))
    return [
        QuotaWarning(player, names.get(player, f"player {player}"), rate, games, quota)
        for player, rate, quota in wanted
        if player in non_members and (games := counts.get((player, rate), 0)) >= quota
    ]
