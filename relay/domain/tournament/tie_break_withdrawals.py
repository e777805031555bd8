"""A player who withdraws from a round robin, as seed 004 chapter 12 ("Tournament Chart")
scores it, turned into the games and forfeits the standings count.

The seed: "Where the player has played less than half the games, his score is deleted from
the tournament table for prize money purposes. Where the player has played half or more of
the games, his results stand and he is deemed to have lost the remaining games by default."
In a double round robin "each half of the tournament is treated by Rule 1 or 2 as if a
separate tournament"; its 8-player example shows what that means for the second half: under
half of it played, "he loses the entire second half by forfeit" (rule c), while under half
of the first half deletes him from the tournament (rule a).

Reading "deleted from the tournament table" as removing the player's row and the results
against him, so no one keeps points or tie-break values from him. Forfeits are given
without a round (the withdrawal does not say when the missing games were scheduled) and name
the opponent, so round-robin standings (``round_robin=True``) count them as games (C.07
article 15.2). "The player's results stand for rating and historical purposes": this table
is for the standings only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from relay.domain.tournament.tie_break_results import Played, Unplayed, UnplayedKind

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Counted(Generic[P]):
    """What the standings count after a withdrawal."""

    players: tuple[P, ...]
    games: tuple[Played[P], ...]
    unplayed: tuple[Unplayed[P], ...]


def round_robin_withdrawal(
    players: Sequence[P], games: Iterable[Played[P]], withdrawn: P, *, cycles: int = 1
) -> Counted[P]:
    """The table once ``withdrawn`` has left a round robin of ``cycles`` cycles. With more
    than one cycle every game of the withdrawn player needs its round: cycle k holds rounds
    k*R+1 to (k+1)*R, R being the rounds of one cycle (players - 1, or players when odd)."""
    if withdrawn not in players:
        raise ValueError(f"{withdrawn!r} is not among the players")
    if cycles < 1:
        raise ValueError("a round robin has at least one cycle")
    games = list(games)
    opponents = [p for p in players if p != withdrawn]
    per_cycle = len(opponents)
    rounds_per_cycle = len(players) - 1 if len(players) % 2 == 0 else len(players)

    def cycle_of(game: Played[P]) -> int:
        if cycles == 1:
            return 0
        if game.round is None:
            raise ValueError("a double round robin needs the round of each game")
        return min(cycles - 1, (game.round - 1) // rounds_per_cycle)

    his = [g for g in games if withdrawn in (g.white, g.black)]
    by_cycle = [[g for g in his if cycle_of(g) == c] for c in range(cycles)]
    if 2 * len(by_cycle[0]) < per_cycle:  # rule 1 / rule 3(a): deleted
        return Counted(tuple(opponents), tuple(g for g in games if g not in his), ())
    kept = [g for g in games if g not in his]
    unplayed: list[Unplayed[P]] = []
    for number, played in enumerate(by_cycle):
        if number > 0 and 2 * len(played) < per_cycle:  # rule 3(c): the half lost by forfeit
            played = []
        kept.extend(played)
        met = {g.black if g.white == withdrawn else g.white for g in played}
        for opponent in opponents:
            if opponent not in met:
                unplayed.append(Unplayed(withdrawn, None, UnplayedKind.FORFEIT_LOSS, opponent))
                unplayed.append(Unplayed(opponent, None, UnplayedKind.FORFEIT_WIN, withdrawn))
    return Counted(tuple(players), tuple(kept), tuple(unplayed))
