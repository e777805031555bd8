"""A correspondence event's standings (docs/correspondence.md): withdrawals (C.9), the
score table with Sonneborn-Berger (C.14), the games the rating run counts (E.VIII), and the
IECG rating list replayed period by period from every correspondence game of the hub (E)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import partial

from sqlmodel import Session

from relay.domain.correspondence.rating_run import (
    PERIODS_PER_YEAR,
    FinishedGame,
    Period,
    PlayerRecord,
    RatingRun,
    period_of,
    rate_period,
)
from relay.domain.correspondence.score_table import TableLine, score_table
from relay.domain.correspondence.withdrawal import (
    FORFEIT_ALL_SHARE,
    EventGame,
    TableGame,
    WithdrawalKind,
    withdraw,
)
from relay.domain.results import Result
from relay.domain.tournament.ratings import IECG_STARTING_RATING
from relay.hub.correspondence_checks import CorrespondenceError, CorrespondenceInputError, name_key
from relay.hub.correspondence_games import DeskRoom, DeskTools, finished_on, name_of
from relay.store.access import Identity, audit
from relay.store.correspondence import add_withdrawal, get_event, withdrawals
from relay.store.models import CorrespondenceEvent, CorrespondenceWithdrawal
from relay.store.tournaments import list_players

__all__ = ["Standings", "WithdrawalView"]


@dataclass(frozen=True, slots=True)
class WithdrawalView:
    """A withdrawal as recorded: with ``all_forfeited`` when at most half of the player's
    games were finished, so that all of them are forfeits on the table (C.9.B.a)."""

    player_id: int
    kind: WithdrawalKind
    on: date
    finished: int
    games: int
    all_forfeited: bool


class Standings(DeskRoom):
    """Withdrawals, the score table and the ratings of one hub's correspondence events;
    ``sweep`` applies what fell due in an event before a withdrawal (a flag that fell
    yesterday is a loss on time, not a withdrawal's)."""

    def __init__(
        self,
        tools: DeskTools,
        sweep: Callable[[CorrespondenceEvent], Awaitable[object]],
        events: Callable[[], Awaitable[list[tuple[CorrespondenceEvent, str]]]],
    ) -> None:
        super().__init__(tools)
        self._sweep = sweep
        self._events = events

    async def _event(self, tournament_id: int) -> CorrespondenceEvent:
        return await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))

    async def withdraw(
        self, *, tournament_id: int, player_id: int, kind: WithdrawalKind, who: Identity
    ) -> WithdrawalView:
        """The player withdraws (C.9): his unfinished games end today, won by his opponents,
        and are never rated; the score table counts his games as C.9.B says."""
        event = await self._event(tournament_id)
        await self._sweep(event)
        played, _ = await self._games.results(event)
        mine = {k: g for k, g in played.items() if player_id in (g.white, g.black)}
        if not mine:
            raise CorrespondenceError(f"player {player_id} plays no game in this event")
        games = {g.game_id: g for g in await self._games.games(event) if g.game_id in mine}
        unfinished = [k for k, g in mine.items() if not games[k].record.result.is_decided]
        finished = sum(g.finished for g in mine.values())
        today = self._today()

        def keep(session: Session) -> None:
            if any(
                w.player_id == player_id for w in withdrawals(session, tournament_id=tournament_id)
            ):
                raise CorrespondenceError(f"player {player_id} has withdrawn already")
            add_withdrawal(
                session,
                CorrespondenceWithdrawal(
                    tournament_id=tournament_id,
                    player_id=player_id,
                    kind=kind.value,
                    on=today,
                    unfinished=json.dumps(unfinished),
                ),
            )
            audit(session, who=who, action="withdrawal", target=f"tournament {tournament_id}",
                  detail={"player": player_id, "kind": kind.value})  # fmt: skip
            session.commit()

        await self._recorder.run(keep)
        for game_id in unfinished:
            pairing = games[game_id].pairing
            won = Result.BLACK_WINS if pairing.white.id == player_id else Result.WHITE_WINS
            await self._desk.set_result(
                game_id=game_id,
                result=won,
                who=who,
                reason=f"{kind.value} withdrawal of {name_of(pairing, player_id)} (C.9.B)",
            )
        share = Fraction(finished, len(mine))
        return WithdrawalView(
            player_id, kind, today, finished, len(mine), share <= FORFEIT_ALL_SHARE
        )

    async def table(self, tournament_id: int) -> list[TableLine]:
        """The score table (C.14), games counted as the withdrawals leave them (C.9.B); a
        game between two players who withdrew is counted as the first withdrawal left it."""
        event = await self._event(tournament_id)
        played, gone = await self._games.results(event)
        players = await self._recorder.read(partial(list_players, tournament_id=tournament_id))
        games = {key: TableGame(g.white, g.black, g.result, False) for key, g in played.items()}
        ruled: set[int] = set()
        for withdrawn in gone:
            mine = {k: g for k, g in played.items() if withdrawn.player_id in (g.white, g.black)}
            result = withdraw(withdrawn.player_id, list(mine.values()))
            for game_id, table_game in zip(mine, result.table, strict=True):
                if game_id not in ruled:
                    games[game_id] = table_game
            ruled |= set(mine)
        return score_table([p.id for p in players if p.id is not None], list(games.values()))

    async def names(self, tournament_id: int) -> dict[int, str]:
        """The event's players' names by id."""
        players = await self._recorder.read(partial(list_players, tournament_id=tournament_id))
        return {p.id: p.name for p in players if p.id is not None}

    async def rated(self, tournament_id: int) -> list[EventGame]:
        """The games the rating run counts: every finished game with its real result, but
        those a withdrawal ended (E.VIII.2)."""
        played, _ = await self._games.results(await self._event(tournament_id))
        return [game for game in played.values() if game.finished]

    async def ratings(self, period: Period) -> RatingRun:
        """The IECG rating list after ``period``'s run, replayed from every correspondence
        game of this hub: each period from the first with a finished game, in turn (E.II).

        A player is one person across events by name (:func:`name_key`; the hub keeps no
        membership numbers): the list's number is the id of the first entry under that
        name, the starting rating that entry's rating (E.VII.1), else 800 (E.VII.3). Games a
        withdrawal ended are not rated (E.VIII.2); every other finished game is, on the day
        its result was recorded. A period not yet begun is refused.
        """
        if period > period_of(self._today()):
            raise CorrespondenceInputError(f"period {period.year}-{period.index} has not begun")
        players: dict[str, PlayerRecord] = {}
        finished: list[FinishedGame] = []
        spans: list[tuple[date, date | None, str, str]] = []
        for event, _ in await self._events():
            number = await self._numbers(event, players)
            played, _ = await self._games.results(event)
            for game_id, game in played.items():
                day = finished_on(await self._views.game(game_id))
                white, black = number[game.white], number[game.black]
                spans.append((event.started, day, white, black))
                if game.finished and day is not None:
                    finished.append(FinishedGame(day, white, black, game.result))
        first = min((period_of(game.finished) for game in finished), default=period)
        current, database = min(first, period), list(players.values())
        while True:
            games = [g for g in finished if period_of(g.finished) == current]
            active = {
                number
                for started, ended, *numbers in spans
                if started <= current.end and (ended is None or ended > current.end)
                for number in numbers
            }
            run = rate_period(database, games, current, playing=active)
            if current >= period:
                return run
            database, current = list(run.players), _next_period(current)

    async def _numbers(
        self, event: CorrespondenceEvent, players: dict[str, PlayerRecord]
    ) -> dict[int, str]:
        """The list's number of each player of the event, adding new people to
        ``players``."""
        number: dict[int, str] = {}
        for player in await self._recorder.read(
            partial(list_players, tournament_id=event.tournament_id)
        ):
            assert player.id is not None
            key = name_key(player.name)
            if key not in players:
                players[key] = PlayerRecord(
                    number=str(player.id),
                    name=player.name,
                    country=player.federation or "",
                    starting=IECG_STARTING_RATING if player.rating is None else player.rating,
                )
            number[player.id] = players[key].number
        return number


def _next_period(period: Period) -> Period:
    if period.index == PERIODS_PER_YEAR:
        return Period(period.year + 1, 1)
    return Period(period.year, period.index + 1)
