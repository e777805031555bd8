"""A stored tournament as the Swiss engine and the pairing rules see it.

:func:`swiss_state` turns the rounds before ``number`` into the pure
:class:`~relay.domain.tournament.swiss.SwissState` (start numbers, results with forfeits,
byes), with the byes asked for round ``number`` and a zero-point bye for each player who
has withdrawn; the engine pairs everyone else.
"""

from __future__ import annotations

from dataclasses import replace

from relay.domain.errors import RefusedError
from relay.domain.formats.trf import TrfTournament, title_of
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_rules import check_round
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.tournament.swiss import (
    Board,
    GameResult,
    SwissError,
    SwissPlayer,
    SwissRound,
    SwissState,
    tournament_trf,
)
from relay.domain.tournament.tie_break_names import parse_order
from relay.domain.tournament.tie_breaks import DEFAULT_ORDER
from relay.hub.pairing_engine import PairingEngine
from relay.hub.standings import edition_of
from relay.hub.tournament_history import RoundHistory, TournamentHistory


class SwissRoundError(ValueError, RefusedError):
    """The stored tournament cannot be handed to the Swiss engine; the message says why."""


def _round(history: RoundHistory) -> SwissRound:
    boards = []
    for game in sorted(history.games, key=lambda g: g.board):
        result = GameResult.of(game.result, forfeit=game.forfeit)
        if result is None:
            raise SwissRoundError(f"round {history.number}, board {game.board} has no result")
        boards.append(Board(game.white, game.black, result))
    return SwissRound(tuple(boards), dict(history.byes))


def swiss_state(history: TournamentHistory, number: int) -> SwissState:
    """The tournament as it stands before round ``number`` is paired."""
    tournament = history.tournament
    players = tuple(
        SwissPlayer(p.start_number, p.name, p.rating, p.federation, p.fide_id)
        for p in history.players
    )
    requested: dict[int, ByeKind] = {}
    for round_history in history.rounds:
        if round_history.number == number:
            requested = {n: kind for n, kind in round_history.byes if kind.requestable}
    for player in history.players:
        if player.withdrawn_after is not None and player.withdrawn_after < number:
            requested[player.start_number] = ByeKind.ZERO_POINT
    rounds = tuple(_round(r) for r in history.rounds if r.number < number)
    try:
        return SwissState(
            name=tournament.name,
            players=players,
            total_rounds=max(tournament.rounds_planned or number, number),
            rounds=rounds,
            requested_byes=requested,
        )
    except SwissError as error:
        raise SwissRoundError(str(error)) from None


async def pair_swiss_round(
    history: TournamentHistory, number: int
) -> tuple[list[tuple[int, int]], list[tuple[int, ByeKind]]]:
    """Round ``number`` paired by the FIDE Dutch system: games (White, Black) in board
    order, and byes (the requested ones and the pairing-allocated one)."""
    state = swiss_state(history, number)
    pairing = await PairingEngine.find().pair_next_round(state)
    byes = [
        (player, bye)
        for player, bye in state.requested_byes.items()
        if not _withdrawn(history, player, number)
    ]
    if pairing.bye is not None:
        byes.append((pairing.bye, ByeKind.PAIRING_ALLOCATED))
    return list(pairing.pairs), byes


def _withdrawn(history: TournamentHistory, start_number: int, number: int) -> bool:
    after = history.by_number(start_number).withdrawn_after
    return after is not None and after < number


def warnings_for(history: TournamentHistory, number: int) -> list[str]:
    """What breaks the Dutch system's absolute criteria in round ``number`` as paired (a
    Swiss only), and who is neither paired nor has a bye."""
    this = next(r for r in history.rounds if r.number == number)
    system = history.tournament.pairing_system
    if system is PairingSystem.KNOCKOUT:
        return []  # eliminated and waiting players are rightly not paired
    placed = {n for g in this.games for n in (g.white, g.black)} | {n for n, _ in this.byes}
    left_out = [
        p.start_number
        for p in history.players
        if p.start_number not in placed and not _withdrawn(history, p.start_number, number)
    ]
    active = sum(not _withdrawn(history, p.start_number, number) for p in history.players)
    if system is not None and system.cycles is not None and active % 2 == 1:
        # An odd number round a Berger table: one player meets the dummy and rests.
        left_out = left_out if len(left_out) > 1 else []
    warnings = [f"not paired: {', '.join(map(str, left_out))}"] if left_out else []
    if system is not PairingSystem.SWISS or not this.games:
        return warnings
    try:
        state = swiss_state(history, number)
    except SwissRoundError as error:
        return [*warnings, f"pairing rules not checked: {error}"]
    pairs = [(g.white, g.black) for g in sorted(this.games, key=lambda g: g.board)]
    allocated = next((n for n, kind in this.byes if kind is ByeKind.PAIRING_ALLOCATED), None)
    return warnings + [str(violation) for violation in check_round(state, pairs, allocated)]


def tournament_report(history: TournamentHistory) -> TrfTournament:
    """The tournament report: every round whose results are all verified."""
    finished = 0
    for round_history in history.rounds:
        if not round_history.games or round_history.unverified():
            break
        finished = round_history.number
    state = swiss_state(history, finished + 1)
    report = tournament_trf(state.with_requested_byes({}))
    tournament = history.tournament
    # Titles in the official form; one the TRF has no code for (LM) is left out.
    titles = {p.start_number: title_of(p.title or "") for p in history.players}
    return TrfTournament(
        name=report.name,
        city=tournament.site if tournament.site != "?" else None,
        start=tournament.start_date,
        end=tournament.end_date,
        rounds=max(tournament.rounds_planned or 0, finished),
        time_control=tournament.time_control,
        first_colour=report.first_colour,
        players=[replace(p, title=titles.get(p.start_number)) for p in report.players],
        tie_breaks=parse_order(tournament.tie_breaks) if tournament.tie_breaks else DEFAULT_ORDER,
        tie_break_edition=edition_of(tournament).value,
    )
