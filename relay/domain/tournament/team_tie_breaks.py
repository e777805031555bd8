"""Team competitions as seed 004 chapter 13 scores them: match points, game points, and the
board count that decides a tied team knock-out match.

* Game points: the points the team's players scored on all boards.
* Match points: for each match, a win, draw or loss on game points; 2, 1 and 0 by default
  (the seed does not fix the scale; FIDE C.07 and the Olympiad use 2-1-0).
* Ranking ("Team Round-robin Tournaments" and "Team Swiss Tournaments"): "Where game points
  have been used for the initial ranking, match points scored. Where match points have been
  used for the initial ranking, game points scored." :func:`team_standings` ranks on one and
  breaks ties on the other.
* Board count ("Team Knockout Matches"): "The Board numbers on which each team has won are
  summed and the team with the Lower Board Count wins. If the Board Counts are the same,
  then eliminate the bottom board, etc. until the tie is resolved." The seed's second
  example fixes what elimination means: boards ½ 0 1 1 0 ½ give equal counts (7 each); with
  board 6 (a draw) eliminated the score is still level, and once board 5 (won by the
  Players) goes too, "the Organisers again triumph". That holds only if each elimination
  compares the game points on the boards left (2½-1½ on boards 1-4), not the board counts
  (which would then favour the Players, 2 against 7).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Match(Generic[T]):
    """A team match: the home team's points on each board, board 1 first."""

    home: T
    away: T
    boards: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.boards or any(b not in (0.0, 0.5, 1.0) for b in self.boards):
            raise ValueError(f"each board scores 0, 0.5 or 1 for the home team: {self.boards}")

    @property
    def home_points(self) -> float:
        return sum(self.boards)

    @property
    def away_points(self) -> float:
        return len(self.boards) - self.home_points


class Winner(Enum):
    HOME = "home"
    AWAY = "away"
    NONE = "none"


def board_count(boards: Sequence[float]) -> tuple[int, int]:
    """The sums of the board numbers won by the home and by the away team."""
    home = sum(number for number, b in enumerate(boards, 1) if b == 1.0)
    away = sum(number for number, b in enumerate(boards, 1) if b == 0.0)
    return home, away


def knockout_winner(boards: Sequence[float]) -> Winner:
    """Who wins a knock-out match (seed 004 chapter 13): more game points; level, the lower
    board count; still level, the game points with the bottom board eliminated, then the
    next, until one side leads. ``NONE`` only when every step is level."""
    for kept in range(len(boards), 0, -1):
        home = sum(boards[:kept])
        if home != kept / 2:
            return Winner.HOME if home > kept / 2 else Winner.AWAY
        if kept == len(boards):
            home_count, away_count = board_count(boards)
            if home_count != away_count:
                return Winner.HOME if home_count < away_count else Winner.AWAY
    return Winner.NONE


@dataclass(frozen=True, slots=True)
class TeamStanding(Generic[T]):
    team: T
    match_points: float
    game_points: float


def match_points(match: Match[T], *, win: float = 2, draw: float = 1) -> tuple[float, float]:
    """The match points of the home and the away team."""
    if match.home_points == match.away_points:
        return draw, draw
    return (win, 0.0) if match.home_points > match.away_points else (0.0, win)


def team_standings(
    teams: Sequence[T],
    matches: Iterable[Match[T]],
    *,
    primary: str = "MP",
    win: float = 2,
    draw: float = 1,
) -> list[TeamStanding[T]]:
    """Teams ranked on match points (``primary="MP"``) then game points, or on game points
    (``"GP"``) then match points; equal on both, the order of ``teams`` stays."""
    if primary not in ("MP", "GP"):
        raise ValueError(f"the primary score is MP or GP, not {primary!r}")
    mp = dict.fromkeys(teams, 0.0)
    gp = dict.fromkeys(teams, 0.0)
    for match in matches:
        if match.home not in mp or match.away not in mp:
            raise ValueError(f"a match of a team not listed: {match.home!r}-{match.away!r}")
        home, away = match_points(match, win=win, draw=draw)
        mp[match.home] += home
        mp[match.away] += away
        gp[match.home] += match.home_points
        gp[match.away] += match.away_points
    rank = {team: index for index, team in enumerate(teams)}
    rows = [TeamStanding(team, mp[team], gp[team]) for team in teams]

    def key(row: TeamStanding[T]) -> tuple[float, float, int]:
        first, second = (
            (row.match_points, row.game_points)
            if primary == "MP"
            else (row.game_points, row.match_points)
        )
        return -first, -second, rank[row.team]

    return sorted(rows, key=key)
