"""The standings: points and tie-breaks per player, best first.

FIDE C.07 tie-breaks in the tournament's order (``tie_breaks`` in the event file; by
default BH-C1, BH, SB, WIN, BPG, then ARO), with byes and forfeits counted by the rules for
unplayed rounds of the tournament's edition of C.07 (:func:`edition_of`: the one in force
at its start date, 2024 before 1 March 2026 and 2026 from then, unless the tournament names
one). In a round robin a player who withdrew is scored as seed 004 chapter 12
says: under half the games played, deleted with every result against him; otherwise the
remaining games lost by default (each cycle of a double round robin judged apart).

The public counts verified results only (seed 004, ch. 17 item 14); operators, arbiters and
admins also see the provisional ones, counted apart in the points and included in the
tie-breaks.

Each rated player's ``rating_change`` is the FIDE change (B.02 8.3, the 400-point rule) over
the games counted against rated opponents, an estimate: K is 20 in rapid and blitz and, in
standard play, 20 below 2400 and 10 from there; the K of a player new to the list or a
junior (40) is the rating officer's to apply.

The rules are the domain's (``relay.domain.tournament``); this service gathers what they
need from the store and the games' views. Which rounds a reader sees, and as of when, is the
caller's to say (the API's visibility rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlmodel import Session

from relay.domain.clock.time_control import GameClass, TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.tournament.ratings import Rated, fide_k_factor, fide_rating_change
from relay.domain.tournament.tie_break_editions import Edition, tournament_edition
from relay.domain.tournament.tie_break_names import parse_order, usable_order
from relay.domain.tournament.tie_break_results import Unplayed, UnplayedKind
from relay.domain.tournament.tie_break_withdrawals import round_robin_withdrawal
from relay.domain.tournament.tie_breaks import DEFAULT_ORDER, Played, standings
from relay.hub.game_views import GameViews
from relay.store.models import Player, Round, Tournament
from relay.store.pairings import tournament_byes
from relay.store.tournaments import list_players

PlayerId = int | None
#: A round the reader sees: its id, the round, and the time it is seen as of (None: now).
VisibleRound = tuple[int, Round, float | None]


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One player's line of the standings."""

    player: Player
    #: Verified points (all points counted for the reader).
    points: float
    #: Games played over the board.
    played: int
    #: Provisional points, apart (0 for the public, who sees verified results only).
    provisional: float
    #: The estimated FIDE rating change, for a rated player who met rated opponents.
    rating_change: float | None
    #: The tournament's tie-breaks in its order, then any the order does not name.
    tie_breaks: dict[str, float] = field(default_factory=dict)
    #: The place, shared by players equal in points and every tie-break of the order, and
    #: as it is written ("2=" when shared): the one ranking every page and output shows.
    rank: int = 0
    place: str = ""


@dataclass(slots=True)
class _Tally:
    points: float = 0.0
    played: int = 0
    provisional: float = 0.0


async def player_standings(
    views: GameViews,
    session: Session,
    tournament: Tournament,
    rounds: Sequence[VisibleRound],
    *,
    provisional: bool,
) -> list[PlayerStanding]:
    """The tournament's standings over ``rounds``, best first; ``provisional`` counts
    results not yet verified (apart in the points, included in the tie-breaks)."""
    assert tournament.id is not None
    players = list_players(session, tournament_id=tournament.id)
    order, _ = ranking_order(tournament, players)
    games: list[tuple[Played[PlayerId], bool]] = []  # with: verified
    unplayed: list[tuple[Unplayed[PlayerId], bool]] = []
    byes = tournament_byes(session, tournament_id=tournament.id)
    for round_id, round_, cut in rounds:
        round_views = await views.round(round_id)
        for view in round_views:
            record = view.record(view.version_at(cut))
            white_points = record.result.white_points
            if white_points is None or (not provisional and not record.verified):
                continue
            white, black = view.pairing.game.white_id, view.pairing.game.black_id
            if record.forfeit:
                winner, loser = (white, black) if white_points else (black, white)
                unplayed += [
                    (Unplayed(winner, round_.number, UnplayedKind.FORFEIT_WIN, loser), True),
                    (Unplayed(loser, round_.number, UnplayedKind.FORFEIT_LOSS, winner), True),
                ]
            else:
                games.append((Played(white, black, white_points, round_.number), record.verified))
        if round_views or round_.published:  # byes count once the round is paired
            for bye in byes.get(round_id, []):
                unplayed.append((Unplayed(bye.player_id, round_.number, bye.kind.unplayed), True))
    ids: tuple[PlayerId, ...] = tuple(p.id for p in players)
    system = tournament.pairing_system
    cycles = None if system is None else system.cycles
    if cycles is not None:
        for player in players:
            if player.withdrawn_after is not None and player.id in ids:
                ids, games, unplayed = _withdrawn(ids, games, unplayed, player.id, cycles)
    table = _tally(ids, games, unplayed)
    by_id = {p.id: p for p in players}
    ratings = {p.id: p.rating for p in players}
    changes = _rating_changes(ratings, [g for g, _ in games], rapid_or_blitz(tournament))
    rows = standings(
        list(ids),
        [game for game, _ in games],
        None if None in ratings.values() else ratings,
        order,
        unplayed=[item for item, _ in unplayed],
        round_robin=cycles is not None,
        edition=edition_of(tournament),
    )
    return [
        PlayerStanding(
            player=by_id[row.player],
            points=table[row.player].points,
            played=table[row.player].played,
            provisional=table[row.player].provisional,
            rating_change=changes.get(row.player),
            tie_breaks={name: row.tie_breaks[name] for name in order}
            | {k: v for k, v in row.tie_breaks.items() if k not in order},
            rank=row.rank,
            place=row.place,
        )
        for row in rows
    ]


def ranking_order(
    tournament: Tournament, players: Sequence[Player]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tie-breaks that rank the tournament, in its order, and those of its order left
    out because unrated players take part (C.07 article 10: rating-based tie-breaks are
    dropped then). With unrated players no ARO is given beside the order either."""
    order = parse_order(tournament.tie_breaks) if tournament.tie_breaks else DEFAULT_ORDER
    return usable_order(order, (p.rating for p in players))


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
) -> dict[PlayerId, _Tally]:
    """Points (verified), provisional points and games played over the board."""
    table = {player: _Tally() for player in ids}
    for game, verified in games:
        for player, points in ((game.white, game.white_points), (game.black, game.black_points)):
            if verified:
                table[player].points += points
            else:
                table[player].provisional += points
            table[player].played += 1
    for item, verified in unplayed:
        if verified:
            table[item.player].points += item.points
        else:
            table[item.player].provisional += item.points
    return table


def edition_of(tournament: Tournament, today: date | None = None) -> Edition:
    """The C.07 edition that ranks the tournament: the one it names, else the one in force
    at its start date, else (no start date) the one in force ``today`` (by default the
    current UTC date)."""
    return tournament_edition(
        tournament.tie_break_edition,
        tournament.start_date,
        today if today is not None else datetime.now(UTC).date(),
    )


def rapid_or_blitz(tournament: Tournament) -> bool:
    """Whether the tournament's time control is rapid or blitz (K is 20 for everyone)."""
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
