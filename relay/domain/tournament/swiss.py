"""A Swiss tournament as a pairing engine sees it: players, rounds played, byes asked for.

The engine (run by ``relay.hub.pairing_engine``) reads a TRF(x) file. :func:`engine_trf`
builds it from a :class:`SwissState`: start numbers 1..n in initial-ranking order, ratings,
every finished round (games, forfeits, byes), points, a rank for each player (the engine
refuses a player line without one), the number of rounds and the first-round colour.
A bye asked for the round about to be paired (``H``, ``F``, ``Z``: :attr:`ByeKind.trf_code`)
is written as that round's entry, which is how JaVaFo-style engines learn who is not to be
paired.

Titles, sex and birth dates are left out on purpose: pairing does not use them, and
engines and TRFs have written titles in more than one form (``GM``, ``gm``, ``g``). The
tournament report adds the titles (``relay.hub.swiss_round.tournament_report``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import chess

from relay.domain.errors import RefusedError
from relay.domain.formats.trf import (
    RESULT_HALF_POINTS,
    FirstColour,
    TrfPlayer,
    TrfResult,
    TrfTournament,
)
from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind


class SwissError(ValueError, RefusedError):
    """A Swiss state or round that does not hold together (unknown or repeated player...)."""


class GameResult(enum.Enum):
    """How a paired game ended, as the TRF codes of White and Black."""

    WHITE_WINS = ("1", "0")
    BLACK_WINS = ("0", "1")
    DRAW = ("=", "=")
    WHITE_WINS_BY_FORFEIT = ("+", "-")
    BLACK_WINS_BY_FORFEIT = ("-", "+")
    DOUBLE_FORFEIT = ("-", "-")

    @classmethod
    def of(cls, result: Result, *, forfeit: bool) -> GameResult | None:
        """A stored result and its ``forfeit`` flag (a forfeit is won by the side the result
        names); None while the game is open."""
        if result is Result.DRAW:
            return cls.DRAW
        if result.winner is None:
            return None
        if result.winner == chess.WHITE:
            return cls.WHITE_WINS_BY_FORFEIT if forfeit else cls.WHITE_WINS
        return cls.BLACK_WINS_BY_FORFEIT if forfeit else cls.BLACK_WINS

    @property
    def white_code(self) -> str:
        return self.value[0]

    @property
    def black_code(self) -> str:
        return self.value[1]

    @property
    def is_forfeit(self) -> bool:
        """The game was not played: one side, or both, did not come."""
        return self in _FORFEITS


_FORFEITS = frozenset(
    {
        GameResult.WHITE_WINS_BY_FORFEIT,
        GameResult.BLACK_WINS_BY_FORFEIT,
        GameResult.DOUBLE_FORFEIT,
    }
)


@dataclass(frozen=True)
class SwissPlayer:
    start_number: int
    name: str
    rating: int | None = None
    federation: str | None = None
    fide_id: int | None = None


@dataclass(frozen=True)
class Board:
    """One game of a round; ``result`` None until it is known."""

    white: int
    black: int
    result: GameResult | None = None


@dataclass(frozen=True)
class SwissRound:
    boards: tuple[Board, ...] = ()
    byes: Mapping[int, ByeKind] = field(default_factory=dict)

    def players(self) -> list[int]:
        """Everyone with an entry in this round, in order of appearance (repeats kept)."""
        return [n for b in self.boards for n in (b.white, b.black)] + list(self.byes)

    def with_results(self, results: Mapping[tuple[int, int], GameResult]) -> SwissRound:
        """The round with the results of the boards keyed (White, Black) filled in."""
        known = {(b.white, b.black) for b in self.boards}
        stray = sorted(set(results) - known)
        if stray:
            raise SwissError(f"no board {stray[0][0]} - {stray[0][1]} in this round")
        boards = tuple(
            replace(b, result=results.get((b.white, b.black), b.result)) for b in self.boards
        )
        return replace(self, boards=boards)


@dataclass(frozen=True)
class SwissState:
    """Everything the pairing of the next round depends on.

    ``requested_byes`` are for the round to be paired next (``len(rounds) + 1``); players
    who are in no board and have no bye in a finished round were absent (written as ``Z``).
    """

    name: str
    players: tuple[SwissPlayer, ...]
    total_rounds: int
    first_colour: FirstColour = "white"
    rounds: tuple[SwissRound, ...] = ()
    requested_byes: Mapping[int, ByeKind] = field(default_factory=dict)

    def __post_init__(self) -> None:
        numbers = [p.start_number for p in self.players]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise SwissError("start numbers must be 1..n, each once")
        if self.total_rounds < 1:
            raise SwissError(f"a tournament of {self.total_rounds} rounds")
        if len(self.rounds) > self.total_rounds:
            raise SwissError(f"{len(self.rounds)} rounds played of {self.total_rounds}")
        for number, swiss_round in enumerate(self.rounds, start=1):
            self._check_round(swiss_round, number, finished=True)
        for player, bye in self.requested_byes.items():
            self._check_player(player, len(self.rounds) + 1)
            if not bye.requestable:
                raise SwissError(f"player {player} cannot ask for a {bye.name} bye")

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def _check_player(self, player: int, round_number: int) -> None:
        if not 1 <= player <= len(self.players):
            raise SwissError(f"round {round_number}: no player {player}")

    def _check_round(self, swiss_round: SwissRound, number: int, *, finished: bool) -> None:
        seen: set[int] = set()
        for player in swiss_round.players():
            self._check_player(player, number)
            if player in seen:
                raise SwissError(f"round {number}: player {player} has two entries")
            seen.add(player)
        for board in swiss_round.boards:
            if finished and board.result is None:
                raise SwissError(f"round {number}: {board.white} - {board.black} has no result")

    def with_requested_byes(self, byes: Mapping[int, ByeKind]) -> SwissState:
        return replace(self, requested_byes=dict(byes))

    def paired_round(
        self, pairs: Sequence[tuple[int, int]], allocated_bye: int | None
    ) -> SwissRound:
        """The next round as paired: boards without results, the requested byes, and the
        pairing-allocated bye (if any)."""
        byes = dict(self.requested_byes)
        if allocated_bye is not None:
            if allocated_bye in byes:
                raise SwissError(f"player {allocated_bye} already has a bye this round")
            byes[allocated_bye] = ByeKind.PAIRING_ALLOCATED
        swiss_round = SwissRound(tuple(Board(w, b) for w, b in pairs), byes)
        self._check_round(swiss_round, self.next_round, finished=False)
        return swiss_round

    def record_round(self, swiss_round: SwissRound) -> SwissState:
        """The state after a finished round; the requested byes were spent on it."""
        return replace(self, rounds=(*self.rounds, swiss_round), requested_byes={})


def seed_players(entrants: Iterable[tuple[str, int | None]]) -> tuple[SwissPlayer, ...]:
    """Start numbers in the initial ranking order: rating (unrated last), then name."""
    ordered = sorted(entrants, key=lambda e: (-(e[1] or 0), e[0]))
    return tuple(SwissPlayer(n, name, rating) for n, (name, rating) in enumerate(ordered, start=1))


def entries(state: SwissState, *, with_requested_byes: bool = False) -> dict[int, list[TrfResult]]:
    """Each player's TRF round entries, every finished round filled in."""
    table: dict[int, list[TrfResult]] = {p.start_number: [] for p in state.players}
    for number, swiss_round in enumerate(state.rounds, start=1):
        entered: set[int] = set()
        for b in swiss_round.boards:
            assert b.result is not None  # SwissState refuses a finished round without one
            table[b.white].append(TrfResult(number, b.black, "w", b.result.white_code))
            table[b.black].append(TrfResult(number, b.white, "b", b.result.black_code))
            entered |= {b.white, b.black}
        for player, bye in swiss_round.byes.items():
            table[player].append(TrfResult(number, None, "-", bye.trf_code))
            entered.add(player)
        for player in table.keys() - entered:
            table[player].append(TrfResult(number, None, "-", ByeKind.ZERO_POINT.trf_code))
    if with_requested_byes:
        for player, bye in state.requested_byes.items():
            table[player].append(TrfResult(state.next_round, None, "-", bye.trf_code))
    return table


def points(state: SwissState) -> dict[int, float]:
    """Points from the finished rounds."""
    return _points_of(entries(state))


def ranks(state: SwissState, *, with_requested_byes: bool = False) -> dict[int, int]:
    """Rank 1..n by points, then start number: the order pairing uses, not a tie-broken
    standing (that is the tie-break module's job)."""
    return _ranks_of(_points_of(entries(state, with_requested_byes=with_requested_byes)))


def _points_of(table: Mapping[int, Sequence[TrfResult]]) -> dict[int, float]:
    return {p: sum(RESULT_HALF_POINTS[r.result] for r in rs) / 2 for p, rs in table.items()}


def _ranks_of(scores: Mapping[int, float]) -> dict[int, int]:
    order = sorted(scores, key=lambda player: (-scores[player], player))
    return {player: rank for rank, player in enumerate(order, start=1)}


def tournament_trf(state: SwissState, *, with_requested_byes: bool = False) -> TrfTournament:
    """The state as a TRF tournament. With ``with_requested_byes`` the byes asked for the
    next round are written as its entries (what an engine needs); points and ranks then
    count them, as the engine checks points against all entries."""
    table = entries(state, with_requested_byes=with_requested_byes)
    scores = _points_of(table)
    rank = _ranks_of(scores)
    players = [
        TrfPlayer(
            start_number=p.start_number,
            name=p.name,
            rating=p.rating,
            federation=p.federation,
            fide_id=p.fide_id,
            points=scores[p.start_number],
            rank=rank[p.start_number],
            results=table[p.start_number],
        )
        for p in state.players
    ]
    return TrfTournament(
        name=state.name,
        rounds=state.total_rounds,
        first_colour=state.first_colour,
        players=players,
    )


def engine_trf(state: SwissState) -> TrfTournament:
    """What the pairing engine reads to pair round ``state.next_round``."""
    if state.next_round > state.total_rounds:
        raise SwissError(f"all {state.total_rounds} rounds are paired")
    return tournament_trf(state, with_requested_byes=True)
