"""Knock-out events: the bracket, the matches and their tie-breaks, withdrawals.

What seed 004 says (chapter 12, "Withdrawals"):

* rule 1: a player who withdraws before the start of an event should be replaced, so the
  bracket is drawn from the field that starts, and nothing here replaces anyone later;
* rule 2: a player who withdraws during a knock-out is not replaced, and his opponent
  receives a bye into the next round (``Match.withdraw``).

The seed is silent on the rest; there we follow FIDE World Cup practice:

* players are seeded by rating, seed 1 the highest; the bracket pairs 1 v N, 2 v N-1, ...,
  placed so that when the favourites win, round k pairs seed s with seed M + 1 - s (M the
  players left), so 1 and 2 can meet only in the final, 1 and 4 in the semi-final;
* when the field is not a power of two it is filled up to one with byes, and the byes go to
  the top seeds;
* a match is a few classical games (two at the World Cup) with colours alternating, the first
  colour drawn; if it ends level, tie-break stages follow in order: at the World Cup two
  rapid games (25'+10"), two more (10'+10"), two blitz games (5'+3") and one Armageddon game
  in which a draw counts as a win for Black. A stage may instead be sudden death: games until
  one is won. Colours keep alternating across the stages; the Armageddon's White may be
  given (at the World Cup the players draw lots for it);
* a stage stops as soon as one player cannot be caught within it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from relay.domain.errors import RefusedError


class KnockoutError(ValueError, RefusedError):
    """A bracket or a match used against its rules."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """A match of a round: two seeds, or a seed and a bye (``bottom`` is None)."""

    top: int
    bottom: int | None

    @property
    def is_bye(self) -> bool:
        return self.bottom is None


def bracket_order(size: int) -> list[int]:
    """The seeds 1..size (a power of two) from the top of the bracket to the bottom: each
    seed s of the half-size order is followed by size + 1 - s."""
    if size < 2 or size & (size - 1):
        raise KnockoutError(f"a bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for s in order for seed in (s, places + 1 - s)]
    return order


def first_round(players: int) -> list[Pairing]:
    """Round 1 for ``players`` seeds; seeds above ``players`` are byes, which go to the top
    seeds."""
    if players < 2:
        raise KnockoutError(f"a knock-out needs two players or more, not {players}")
    size = 1 << (players - 1).bit_length()
    order = bracket_order(size)
    return [
        Pairing(top, bottom if bottom <= players else None)
        for top, bottom in zip(order[::2], order[1::2], strict=True)
    ]


def next_round(winners: Sequence[int]) -> list[Pairing]:
    """The next round from the previous round's winners, match by match down the bracket:
    the winners of matches 1 and 2 meet, of 3 and 4, and so on; the better seed is named
    first."""
    if len(winners) < 2 or len(winners) % 2:
        raise KnockoutError(f"{len(winners)} winners cannot make a round")
    pairs = zip(winners[::2], winners[1::2], strict=True)
    return [Pairing(min(a, b), max(a, b)) for a, b in pairs]


@dataclass(frozen=True, slots=True)
class Stage:
    """A part of a match: ``games`` games, or with ``sudden_death`` games until one is won
    (``games`` is then the most that will be played); ``armageddon`` makes a draw count as a
    win for Black (one game)."""

    name: str
    games: int
    sudden_death: bool = False
    armageddon: bool = False

    def __post_init__(self) -> None:
        if self.games < 1:
            raise KnockoutError(f"stage {self.name!r} has no games")
        if self.armageddon and self.games != 1:
            raise KnockoutError("an Armageddon stage is one game")


#: The FIDE World Cup's match: two classical games, then the tie-breaks.
WORLD_CUP = (
    Stage("classical", 2),
    Stage("rapid 25+10", 2),
    Stage("rapid 10+10", 2),
    Stage("blitz 5+3", 2),
    Stage("armageddon", 1, armageddon=True),
)


class MatchState(Enum):
    PLAYING = "playing"
    DECIDED = "decided"
    LEVEL = "level"  # every stage played and still level: the regulations must say more


@dataclass(frozen=True, slots=True)
class MatchGame:
    """The next game to play: its stage (index into the stages), its number in the stage
    (from 1), and the colours."""

    stage: int
    number: int
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class Match:
    """A match between two players, ``first`` having White in game 1. ``results`` holds
    White's points of every game played, in order."""

    first: int
    second: int
    stages: tuple[Stage, ...] = WORLD_CUP
    armageddon_white: int | None = None
    results: tuple[float, ...] = ()
    withdrawn: int | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise KnockoutError("a player cannot meet himself")
        if not self.stages:
            raise KnockoutError("a match needs a stage")
        if self.armageddon_white not in (None, self.first, self.second):
            raise KnockoutError(f"{self.armageddon_white} does not play this match")

    def _walk(self) -> tuple[MatchState, int | None, MatchGame | None]:
        """Replay the results through the stages: the state, the winner, the next game."""
        if self.withdrawn is not None:
            opponent = self.second if self.withdrawn == self.first else self.first
            return MatchState.DECIDED, opponent, None
        played = 0
        for index, stage in enumerate(self.stages):
            points = {self.first: 0.0, self.second: 0.0}
            for number in range(1, stage.games + 1):
                white, black = self._colours(stage, played)
                if played == len(self.results):
                    return MatchState.PLAYING, None, MatchGame(index, number, white, black)
                result = self.results[played]
                played += 1
                if stage.armageddon:
                    return MatchState.DECIDED, white if result == 1.0 else black, None
                points[white] += result
                points[black] += 1.0 - result
                if stage.sudden_death:
                    if result != 0.5:
                        return MatchState.DECIDED, white if result == 1.0 else black, None
                    continue
                left = stage.games - number
                lead = points[self.first] - points[self.second]
                if abs(lead) > left:
                    winner = self.first if lead > 0 else self.second
                    return MatchState.DECIDED, winner, None
        return MatchState.LEVEL, None, None

    def _colours(self, stage: Stage, played: int) -> tuple[int, int]:
        if stage.armageddon and self.armageddon_white is not None:
            white = self.armageddon_white
        else:
            white = self.first if played % 2 == 0 else self.second
        return white, self.second if white == self.first else self.first

    @property
    def state(self) -> MatchState:
        return self._walk()[0]

    @property
    def winner(self) -> int | None:
        return self._walk()[1]

    @property
    def next_game(self) -> MatchGame | None:
        return self._walk()[2]

    def record(self, white_points: float) -> Match:
        """The match with one more game: 1, 0.5 or 0 for White."""
        if white_points not in (0.0, 0.5, 1.0):
            raise KnockoutError(f"a game scores 1, 1/2 or 0 for White, not {white_points}")
        if self.state is not MatchState.PLAYING:
            raise KnockoutError("the match is over")
        return replace(self, results=(*self.results, white_points))

    def withdraw(self, player: int) -> Match:
        """The match after ``player`` withdraws: his opponent goes through (seed 004,
        chapter 12, rule 2)."""
        if player not in (self.first, self.second):
            raise KnockoutError(f"{player} does not play this match")
        if self.state is not MatchState.PLAYING:
            raise KnockoutError("the match is over")
        return replace(self, withdrawn=player)


def bye_winner(pairing: Pairing) -> int:
    """Who goes through a bye."""
    if pairing.bottom is not None:
        raise KnockoutError(f"{pairing.top} v {pairing.bottom} is a match, not a bye")
    return pairing.top
