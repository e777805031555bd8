"""The standings: points and tie-breaks per player, best first.

FIDE C.07 (2024) tie-breaks in the tournament's order (``tie_breaks`` in the event file; by
default BH-C1, BH, SB, WIN, BPG, then ARO), with byes and forfeits counted by the rules for
unplayed rounds. In a round robin a player who withdrew is scored as seed 004 chapter 12
says: under half the games played, deleted with every result against him; otherwise the
remaining games lost by default (each cycle of a double round robin judged apart).

The public counts verified results only (seed 004, ch. 17 item 14); operators, arbiters and
admins also see the provisional ones, counted apart in the points and included in the
tie-breaks.

Each rated player's ``rating_change`` is the FIDE change (B.02 8.3, the 400-point rule) over
the games counted against rated opponents, an estimate: K is 20 in rapid and blitz and, in
standard play, 20 below 2400 and 10 from there; the K of a player new to the list or a
junior (40) is the rating officer's to apply.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from relay.api.deps import HubDep, SessionDep, ViewerDep
from relay.api.games import tournament_or_404, visible_rounds
from relay.domain.clock.time_control import GameClass, TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.tournament.ratings import Rated, fide_k_factor, fide_rating_change
from relay.domain.tournament.tie_break_names import parse_order
from relay.domain.tournament.tie_break_results import Unplayed, UnplayedKind
from relay.domain.tournament.tie_break_withdrawals import round_robin_withdrawal
from relay.domain.tournament.tie_breaks import DEFAULT_ORDER, Played, standings
from relay.hub.game_views import player_view
from relay.store.models import Tournament
from relay.store.pairings import tournament_byes
from relay.store.tournaments import list_players

router = APIRouter(prefix="/api", tags=["read"])

#: Points for White and Black by result.
SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
#: Our bye kinds for the tie-breaks.
BYE_KINDS = {
    "pab": UnplayedKind.PAIRING_BYE,
    "half": UnplayedKind.HALF_BYE,
    "full": UnplayedKind.FULL_BYE,
    "zero": UnplayedKind.ZERO_BYE,
}
#: Cycles of each round-robin system.
CYCLES = {"round-robin": 1, "double-round-robin": 2}

PlayerId = int | None


@router.get("/tournaments/{tournament_id}/standings")
async def tournament_standings(
    hub: HubDep, session: SessionDep, identity: ViewerDep, tournament_id: int
) -> list[dict[str, Any]]:
    """Points per player with tie-breaks (FIDE C.07 2024), best first, in the tournament's
    tie-break order; byes, forfeits and round-robin withdrawals counted by the rules. The
    public counts verified results only; with a token, provisional results are counted
    apart in the points and included in the tie-breaks."""
    tournament = tournament_or_404(session, tournament_id)
    order = parse_order(tournament.tie_breaks) if tournament.tie_breaks else DEFAULT_ORDER
    players = list_players(session, tournament_id=tournament_id)
    games: list[tuple[Played[PlayerId], bool]] = []  # with: verified
    unplayed: list[tuple[Unplayed[PlayerId], bool]] = []
    byes = tournament_byes(session, tournament_id=tournament_id)
    for round_id, round_, cut in visible_rounds(session, tournament_id, identity):
        views = await hub.views.round(round_id)
        for view in views:
            record = view.record(view.version_at(cut))
            scores = SCORES.get(record.result)
            if scores is None or (identity is None and not record.verified):
                continue
            white, black = view.pairing.game.white_id, view.pairing.game.black_id
            if record.forfeit:
                winner, loser = (white, black) if scores[0] else (black, white)
                unplayed += [
                    (Unplayed(winner, round_.number, UnplayedKind.FORFEIT_WIN, loser), True),
                    (Unplayed(loser, round_.number, UnplayedKind.FORFEIT_LOSS, winner), True),
                ]
            else:
                games.append((Played(white, black, scores[0], round_.number), record.verified))
        if views or round_.published:  # byes count once the round is paired
            for bye in byes.get(round_id, []):
                unplayed.append((Unplayed(bye.player_id, round_.number, BYE_KINDS[bye.kind]), True))
    ids: tuple[PlayerId, ...] = tuple(p.id for p in players)
    cycles = CYCLES.get(tournament.pairing_system or "")
    if cycles is not None:
        for player in players:
            if player.withdrawn_after is not None and player.id in ids:
                ids, games, unplayed = _withdrawn(ids, games, unplayed, player.id, cycles)
    table = _tally(ids, games, unplayed)
    by_id = {p.id: p for p in players}
    changes = _rating_changes(
        {p.id: p.rating for p in players}, [g for g, _ in games], _rapid_or_blitz(tournament)
    )
    rows = standings(
        list(ids),
        [game for game, _ in games],
        {p.id: p.rating for p in players},
        order,
        unplayed=[item for item, _ in unplayed],
        round_robin=cycles is not None,
    )
    return [
        {
            **player_view(by_id[row.player]),
            **table[row.player],
            "rating_change": changes.get(row.player),
            "tie_breaks": {name: row.tie_breaks[name] for name in order}
            | {k: v for k, v in row.tie_breaks.items() if k not in order},
        }
        for row in rows
    ]


def _withdrawn(
    ids: tuple[PlayerId, ...],
    games: list[tuple[Played[PlayerId], bool]],
    unplayed: list[tuple[Unplayed[PlayerId], bool]],
    withdrawn: PlayerId,
    cycles: int,
) -> tuple[
    tuple[PlayerId, ...], list[tuple[Played[PlayerId], bool]], list[tuple[Unplayed[PlayerId], bool]]
]:
    """Seed 004 ch. 12 applied to one withdrawn player of a round robin."""
    verified = dict(games)
    counted = round_robin_withdrawal(ids, verified, withdrawn, cycles=cycles)
    kept = set(counted.players)
    return (
        counted.players,
        [(game, verified.get(game, True)) for game in counted.games],
        [(u, v) for u, v in unplayed if u.player in kept] + [(u, True) for u in counted.unplayed],
    )


def _tally(
    ids: tuple[PlayerId, ...],
    games: list[tuple[Played[PlayerId], bool]],
    unplayed: list[tuple[Unplayed[PlayerId], bool]],
) -> dict[PlayerId, dict[str, float]]:
    """Points (verified), provisional points and games played over the board."""
    table: dict[PlayerId, dict[str, float]] = {
        player: {"points": 0.0, "played": 0, "provisional": 0.0} for player in ids
    }
    for game, verified in games:
        column = "points" if verified else "provisional"
        for player, points in ((game.white, game.white_points), (game.black, game.black_points)):
            table[player][column] += points
            table[player]["played"] += 1
    for item, verified in unplayed:
        table[item.player]["points" if verified else "provisional"] += item.points
    return table


def _rapid_or_blitz(tournament: Tournament) -> bool:
    if not tournament.time_control:
        return False
    try:
        game_class = parse_time_control(tournament.time_control).classify()
    except TimeControlError:
        return False
    return game_class in (GameClass.RAPID, GameClass.BLITZ)


def _rating_changes(
    ratings: dict[PlayerId, int | None], games: list[Played[PlayerId]], fast: bool
) -> dict[PlayerId, float]:
    """Each rated player's estimated FIDE rating change over games against rated players."""
    faced: dict[PlayerId, list[Rated]] = {}
    for game in games:
        for player, opponent, points in (
            (game.white, game.black, game.white_points),
            (game.black, game.white, game.black_points),
        ):
            own, theirs = ratings.get(player), ratings.get(opponent)
            if own is not None and theirs is not None:
                faced.setdefault(player, []).append(Rated(theirs, points))
    changes = {}
    for player, rated in faced.items():
        rating = ratings[player]
        assert rating is not None
        k = 20 if fast else fide_k_factor(rating, games_played=30)
        changes[player] = round(fide_rating_change(rating, rated, k), 1)
    return changes
