"""Round-robin pairings from the Berger tables (FIDE C.05, Annex 1).

Players are start numbers 1..n (n even; with an odd number of players one more number is
added, and whoever meets it has the bye). Player n stays on board 1: in round r it meets
player p = ((r - 1) * n/2 mod (n - 1)) + 1, with White in odd rounds for p and in even rounds
for n. On board k + 1 player p + k (mod n - 1, in 1..n-1) has White against p - k.

A double round robin plays the cycle twice, the second time with colours reversed; in
each cycle the last two rounds are swapped, so that nobody gets the same colour three
times running at the turn of the cycles (seed 004 appendix 1).
"""

from __future__ import annotations

from relay.domain.errors import RefusedError

Pairing = tuple[int, int]  # (White, Black) start numbers


class BergerError(ValueError, RefusedError):
    """A round robin that cannot be paired (fewer than two players)."""


def berger_rounds(players: int) -> list[list[Pairing]]:
    """Every round's pairings, board by board; with an odd number of players, the games
    against ``players + 1`` are the byes."""
    if players < 2:
        raise BergerError(f"a round robin needs two players or more, not {players}")
    n = players + players % 2
    half = n // 2
    rounds = []
    for number in range(1, n):
        p = ((number - 1) * half) % (n - 1) + 1
        boards: list[Pairing] = [(p, n) if number % 2 == 1 else (n, p)]
        for k in range(1, half):
            boards.append((_wrap(p + k, n), _wrap(p - k, n)))
        rounds.append(boards)
    return rounds


def double_round_robin(players: int) -> list[list[Pairing]]:
    """Two cycles: the second with colours reversed, each with its last two rounds swapped
    (for more than four players; with four the swap would not help)."""
    cycle = berger_rounds(players)
    if len(cycle) > 3:
        cycle = [*cycle[:-2], cycle[-1], cycle[-2]]
    return cycle + [[(black, white) for white, black in boards] for boards in cycle]


def _wrap(number: int, n: int) -> int:
    return (number - 1) % (n - 1) + 1
