"""A club ladder and its table (seed 002).

A ladder has a rate of play (standard, rapid or all), a period (first and last day, both
counted; periods of a club's ladders may overlap), the points every player starts with, the
games a player needs to qualify for the final placings, and whether it is graded. A game
counts for every ladder of its rate (or of rate ``all``) whose period contains its date.

The table is a replay: the games that count, in order of date and then of id (the order
they were entered), each moving points between its players by
:func:`~relay.domain.tournament.ratings.ladder_change`, from the ladder's initial points.
Nothing is stored between games, so an edited or deleted result changes the table the next
time it is read.

Ranking, decided from the seed ("Players need a minimum number of games to qualify for
final ladder placings"): the qualified players come first, by points, then those not yet
qualified, by points. Players level on points in the same group share the place
("2=", as chess tables write it) and are listed by name, then by member id; the seed names
no tie-break, so none is invented.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from relay.domain.errors import InvalidInputError
from relay.domain.results import Result
from relay.domain.tournament.ratings import ladder_change
from relay.domain.vocabulary import parse_word

#: Seed 002's example values: "All players start with the same initial points (e.g. 50)",
#: "a minimum number of games (e.g. 8)".
DEFAULT_INITIAL_POINTS = 50
DEFAULT_MIN_GAMES = 8
#: "ECF allow non-members 3 SP games (6 RP games) to be graded for free".
DEFAULT_FREE_STANDARD = 3
DEFAULT_FREE_RAPID = 6


class LadderError(ValueError, InvalidInputError):
    """A ladder or a game that cannot be used as given: a period that ends before it starts,
    a player who plays himself, a game of rate ``all``, a result that is not decided."""


class LadderRate(StrEnum):
    """A ladder's rate of play; a game is ``standard`` or ``rapid``."""

    STANDARD = "standard"
    RAPID = "rapid"
    ALL = "all"

    @classmethod
    def parse(cls, text: object) -> LadderRate:
        return parse_word(cls, text, "rate of play")


@dataclass(frozen=True, slots=True)
class Ladder:
    """One ladder's rules."""

    rate: LadderRate
    starts: date
    ends: date
    initial_points: int = DEFAULT_INITIAL_POINTS
    min_games: int = DEFAULT_MIN_GAMES
    graded: bool = False
    free_standard: int = DEFAULT_FREE_STANDARD
    free_rapid: int = DEFAULT_FREE_RAPID

    def __post_init__(self) -> None:
        if self.ends < self.starts:
            raise LadderError(f"the period ends ({self.ends}) before it starts ({self.starts})")
        if self.min_games < 0:
            raise LadderError("the minimum number of games is 0 or more")
        if min(self.free_standard, self.free_rapid) < 0:
            raise LadderError("a free quota is 0 games or more")

    def counts(self, game: ClubResult) -> bool:
        """Whether ``game`` counts for this ladder: its rate (any, for a ladder of rate
        ``all``) and its date within the period, both ends included."""
        rate_fits = self.rate is LadderRate.ALL or game.rate is self.rate
        return rate_fits and self.starts <= game.played_on <= self.ends

    def free_quota(self, rate: LadderRate) -> int:
        return self.free_standard if rate is LadderRate.STANDARD else self.free_rapid


@dataclass(frozen=True, slots=True)
class ClubResult:
    """A club game with its current result; ``id`` orders games of the same day."""

    id: int
    played_on: date
    rate: LadderRate
    white: int
    black: int
    result: Result

    def __post_init__(self) -> None:
        if self.rate is LadderRate.ALL:
            raise LadderError("a game is played at standard or rapid, not 'all'")
        if self.white == self.black:
            raise LadderError("a player cannot play himself")
        if not self.result.is_decided:
            raise LadderError("a ladder game has a result: 1-0, 0-1 or 1/2-1/2")


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One game of a player's ladder history, from the player's side."""

    game_id: int
    played_on: date
    opponent: int
    colour: str  # "white" or "black"
    score: float  # 1, 0.5 or 0
    before: int
    opponent_before: int
    change: int

    @property
    def after(self) -> int:
        return self.before + self.change


@dataclass(slots=True)
class Standing:
    """A player's line of the table."""

    player: int
    points: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    qualified: bool = False
    #: The place: shared by players level on points in the same group.
    rank: int = 0
    #: "2=" for a shared place, else the number.
    place: str = ""
    history: list[HistoryLine] = field(default_factory=list)


def counted_games(ladder: Ladder, results: Iterable[ClubResult]) -> list[ClubResult]:
    """The games that count for ``ladder``, in the order they are replayed."""
    return sorted((r for r in results if ladder.counts(r)), key=lambda r: (r.played_on, r.id))


def ladder_table(
    ladder: Ladder, results: Iterable[ClubResult], names: Mapping[int, str] | None = None
) -> list[Standing]:
    """The ladder's table: every player with a game that counts, ranked (see the module's
    words); ``names`` (by player id) orders players who share a place."""
    table: dict[int, Standing] = {}

    def standing(player: int) -> Standing:
        if player not in table:
            table[player] = Standing(player, ladder.initial_points)
        return table[player]

    for game in counted_games(ladder, results):
        white, black = standing(game.white), standing(game.black)
        white_score = game.result.white_points
        assert white_score is not None
        change = ladder_change(white.points, black.points, white_score)
        for me, other, colour, score, mine in (
            (white, black, "white", white_score, change),
            (black, white, "black", 1 - white_score, -change),
        ):
            me.history.append(
                HistoryLine(
                    game.id,
                    game.played_on,
                    other.player,
                    colour,
                    score,
                    me.points,
                    other.points,
                    mine,
                )
            )
        white.points += change
        black.points -= change
        for me, score in ((white, white_score), (black, 1 - white_score)):
            me.games += 1
            if score == 1:
                me.wins += 1
            elif score == 0:
                me.losses += 1
            else:
                me.draws += 1
    for line in table.values():
        line.qualified = line.games >= ladder.min_games
    return _ranked(list(table.values()), names or {})


def _ranked(lines: list[Standing], names: Mapping[int, str]) -> list[Standing]:
    lines.sort(key=lambda s: (not s.qualified, -s.points, names.get(s.player, ""), s.player))
    groups: dict[tuple[bool, int], list[Standing]] = {}
    for line in lines:
        groups.setdefault((line.qualified, line.points), []).append(line)
    for n, line in enumerate(lines, start=1):
        level = groups[(line.qualified, line.points)]
        line.rank = n if level[0] is line else level[0].rank
        line.place = f"{line.rank}=" if len(level) > 1 else str(line.rank)
    return lines
