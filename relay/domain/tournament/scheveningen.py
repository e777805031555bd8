"""Scheveningen pairings: two teams of n players, each player of team A meets each player of
team B once, in n rounds (seed 004, appendix 2, "Tables for the Scheveningen System").

The seed's tables for four, eight, nine and ten boards all follow one rule. Player Ai sits
on board i, except in a round where team B has every White: there Bj sits on board j (the
nine-board table's even rounds). The boards are cut into b blocks of m boards each; in round r
(counting from 0) let t = r // m and s = r % m. Then the player in place p of A's block k
meets the player in place (p + s) mod m of B's block (k - t) mod b, and A has White when
k + r is even. For even n, m is even, so every block keeps White and Black level in each
run of m rounds, and every player has White n/2 times. The blocks are:

* two halves when a half has an even number of boards (four and eight boards);
* pairs of boards when it does not (ten boards, the table Geurt Gijssen devised). Two odd
  halves would leave some players of team B with six Blacks out of ten;
* one block of all the boards when n is odd (nine boards): team A plays White in the odd
  rounds. In the last round, to hand out the extra White, Bj has White when j is odd and
  greater than 1, as the seed's nine-board table has it.

The seed's six-board table follows none of these rules, and no other rule we could find
produces it. Its board-by-round grid is not even isotopic to a group's multiplication
table, so no cyclic or group construction can give it. Arbiters know the published table,
so for six boards it is used as printed (:data:`SIX_BOARDS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from relay.domain.errors import RefusedError


class Team(Enum):
    A = "A"
    B = "B"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player by team and board order: ``Seat(Team.B, 3)`` is B3."""

    team: Team
    number: int

    def __str__(self) -> str:
        return f"{self.team.value}{self.number}"


@dataclass(frozen=True, slots=True)
class Game:
    white: Seat
    black: Seat

    def __str__(self) -> str:
        return f"{self.white}-{self.black}"


class ScheveningenError(ValueError, RefusedError):
    """A match that cannot be paired (no boards)."""


def blocks(boards: int) -> tuple[int, int]:
    """How the boards are cut: (number of blocks, boards per block)."""
    if boards < 1:
        raise ScheveningenError(f"a Scheveningen match needs one board or more, not {boards}")
    if boards % 2 == 1:
        return 1, boards
    if boards // 2 % 2 == 0:
        return 2, boards // 2
    return boards // 2, 2


#: Seed 004 appendix 2, "Match on Six Boards", round by round, board by board.
SIX_BOARDS = (
    "B1-A1 B5-A2 A3-B4 A4-B2 A5-B3 B6-A6",
    "B2-A1 A2-B1 B3-A3 B4-A4 A5-B6 A6-B5",
    "A1-B3 A2-B2 B1-A3 B6-A4 B5-A5 A6-B4",
    "A1-B4 B6-A2 A3-B5 A4-B1 B2-A5 B3-A6",
    "B5-A1 B4-A2 A3-B6 B3-A4 A5-B1 A6-B2",
    "A1-B6 A2-B3 B2-A3 A4-B5 B4-A5 B1-A6",
)


def _seat(text: str) -> Seat:
    return Seat(Team(text[0]), int(text[1:]))


def scheveningen_rounds(boards: int) -> list[list[Game]]:
    """Every round's games, board by board, for teams of ``boards`` players."""
    if boards == 6:
        return [
            [Game(*map(_seat, game.split("-"))) for game in line.split()] for line in SIX_BOARDS
        ]
    count, size = blocks(boards)
    rounds = []
    for r in range(boards):
        shift, step = divmod(r, size)
        games = []
        for i in range(boards):
            block, place = divmod(i, size)
            j = (block - shift) % count * size + (place + step) % size
            if boards % 2 == 1 and r == boards - 1:
                a_white = j % 2 == 1 or j == 0  # B(j + 1) has White if j + 1 is odd and > 1
            else:
                a_white = (block + r) % 2 == 0
            a, b = Seat(Team.A, i + 1), Seat(Team.B, j + 1)
            games.append(Game(a, b) if a_white else Game(b, a))
        if all(game.white.team is Team.B for game in games):
            games.sort(key=lambda game: game.white.number)
        rounds.append(games)
    return rounds
