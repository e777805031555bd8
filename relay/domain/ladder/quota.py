"""Graded ladders and the ECF's free quota for non-members (seed 002: "ECF allow
non-members 3 SP games (6 RP games) to be graded for free").

A game is graded when it counts for at least one of the club's graded ladders; it is graded
once however many graded ladders it counts for. A player who is not an ECF member has a free
quota per rate of play (3 standard, 6 rapid by default; each ladder may set its own, and
the smallest of the graded ladders a game counts for applies). The quota is per ECF season,
1 September to 31 August: a game counts in the season of the day it was played. The
officer is warned when a player reaches the quota (the next graded game would not be free)
and when a game goes over it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from relay.domain.ladder.rules import ClubResult, Ladder, LadderRate

#: The month the ECF's season starts in: it runs from 1 September to 31 August.
SEASON_STARTS = 9


def season_of(day: date) -> int:
    """The season ``day`` falls in, named by the year it starts in (2024: 2024-25)."""
    return day.year if day.month >= SEASON_STARTS else day.year - 1


def season_label(season: int) -> str:
    """``2024`` as ``"2024-25"``."""
    return f"{season}-{(season + 1) % 100:02d}"


@dataclass(frozen=True, slots=True)
class QuotaWarning:
    """A non-member at or over a free quota in a season."""

    player: int
    name: str
    rate: LadderRate
    games: int
    quota: int
    season: int

    @property
    def over(self) -> bool:
        return self.games > self.quota

    def __str__(self) -> str:
        kind = f"graded {self.rate.value} games in the {season_label(self.season)} season"
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
    ladders: Collection[Ladder],
    results: Iterable[ClubResult],
    non_members: Collection[int],
    season: int,
) -> dict[tuple[int, LadderRate], int]:
    """Each non-member's graded games of ``season``, by rate of play."""
    counts: dict[tuple[int, LadderRate], int] = {}
    for game in results:
        if season_of(game.played_on) != season or graded_quota(ladders, game) is None:
            continue
        for player in (game.white, game.black):
            if player in non_members:
                counts[player, game.rate] = counts.get((player, game.rate), 0) + 1
    return counts


def game_warnings(
    ladders: Collection[Ladder],
    results: Iterable[ClubResult],
    non_members: Collection[int],
    names: Mapping[int, str],
    game: ClubResult,
) -> list[QuotaWarning]:
    """What entering ``game`` (one of ``results``) tells the officer: its players who are
    now at or over the free quota at its rate, in its season; nothing when the game itself
    is not graded."""
    quota = graded_quota(ladders, game)
    if quota is None:
        return []
    season = season_of(game.played_on)
    counts = graded_counts(ladders, results, non_members, season)
    return [
        _warning(names, player, game.rate, games, quota, season)
        for player in (game.white, game.black)
        if player in non_members and (games := counts.get((player, game.rate), 0)) >= quota
    ]


def quota_warnings(
    ladders: Collection[Ladder],
    results: Iterable[ClubResult],
    non_members: Collection[int],
    names: Mapping[int, str],
    *,
    season: int,
) -> list[QuotaWarning]:
    """Every non-member at or over a free quota in ``season``; where a player's games of a
    rate count for graded ladders with different quotas, the smallest applies."""
    results = [r for r in results if season_of(r.played_on) == season]
    counts = graded_counts(ladders, results, non_members, season)
    warnings = []
    for (player, rate), games in sorted(counts.items()):
        quota = min(
            q
            for r in results
            if r.rate is rate and player in (r.white, r.black)
            if (q := graded_quota(ladders, r)) is not None
        )
        if games >= quota:
            warnings.append(_warning(names, player, rate, games, quota, season))
    return warnings


def _warning(
    names: Mapping[int, str], player: int, rate: LadderRate, games: int, quota: int, season: int
) -> QuotaWarning:
    return QuotaWarning(player, names.get(player, f"player {player}"), rate, games, quota, season)
