"""A correspondence event's games as the desk reads them (docs/correspondence.md): each with
its pairing, its record, its days (from its own log) and what the hub did about it; the
event's leaves, withdrawals and adjudications. Shared by the desk, its standings and its
adjudications."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlmodel import Session

from relay.domain.correspondence.adjudication import TournamentFormat
from relay.domain.correspondence.adjudication_log import AdjudicationState, Step, replay
from relay.domain.correspondence.days import CorrespondenceControl, EventKind
from relay.domain.correspondence.game_days import GameDays, Leaves, sent_days, utc_day
from relay.domain.correspondence.leave import Leave
from relay.domain.correspondence.silence import Side
from relay.domain.correspondence.withdrawal import EventGame
from relay.domain.game.events import MoveCorrected, MoveMade, MovesReplaced, event_from_data
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.hub.arbiter_desk import ArbiterDesk
from relay.hub.correspondence_checks import CorrespondenceError
from relay.hub.game_views import GameView, GameViews
from relay.hub.recorder import GameRecorder
from relay.store.access import CC_PLAYER_ROLE, Identity, cc_player_user
from relay.store.correspondence import (
    adjudication_steps,
    done,
    event_games,
    leaves,
    notices,
    withdrawals,
)
from relay.store.models import (
    CorrespondenceAdjudicationStep,
    CorrespondenceEvent,
    CorrespondenceMail,
    CorrespondenceWithdrawal,
    Game,
)
from relay.store.tournaments import Pairing

#: Who records the rules' rulings in the games' logs and the audit trail.
RULES = Identity("correspondence rules", "arbiter")

_CONTROLS = {
    EventKind.STANDARD: CorrespondenceControl.standard,
    EventKind.TEAM: CorrespondenceControl.team,
    EventKind.RAPID: CorrespondenceControl.rapid,
}


@dataclass
class CorrespondenceGame:
    """A game of an event as the desk reads it; ``done``: what the hub did about it."""

    pairing: Pairing
    view: GameView
    record: GameRecord
    days: GameDays
    done: list[CorrespondenceMail] = field(default_factory=list)

    @property
    def game_id(self) -> int:
        return self.pairing.game_id


class EventGames:
    """Reads an event's games and what goes with them."""

    def __init__(self, recorder: GameRecorder, views: GameViews) -> None:
        self._recorder = recorder
        self._views = views

    async def games(
        self, event: CorrespondenceEvent, only: int | None = None
    ) -> list[CorrespondenceGame]:
        """The event's games (or the one ``only``), by round and board."""

        def read(
            session: Session,
        ) -> tuple[Sequence[Game], dict[int, dict[int, date]], Sequence[CorrespondenceMail]]:
            games = event_games(session, tournament_id=event.tournament_id, game_id=only)
            ids = [g.id for g in games if g.id is not None]
            return games, notices(session, game_ids=ids), done(session, game_ids=ids)

        games, game_notices, game_done = await self._recorder.read(read)
        found: list[CorrespondenceGame] = []
        for row in games:
            assert row.id is not None
            view = await self._views.game(row.id)
            record = view.record(view.version)
            days = GameDays(
                event.started, sent_days(move_times(view)), game_notices.get(row.id, {})
            )
            mine = [d for d in game_done if d.game_id == row.id]
            found.append(CorrespondenceGame(view.pairing, view, record, days, mine))
        return found

    async def leaves(self, event: CorrespondenceEvent) -> dict[int, tuple[Leave, ...]]:
        """Every player's leaves in the event, by player id."""
        rows = await self._recorder.read(
            lambda s: leaves(s, tournament_id=event.tournament_id)
        )  # fmt: skip
        found: dict[int, list[Leave]] = {}
        for row in rows:
            found.setdefault(row.player_id, []).append(Leave(row.announced, row.first, row.last))
        return {player: tuple(taken) for player, taken in found.items()}

    async def adjudications(
        self, event: CorrespondenceEvent, game_ids: Sequence[int]
    ) -> dict[int, AdjudicationState | None]:
        """Where each game's adjudication stands (None before the TS asks)."""
        steps = await self._recorder.read(lambda s: adjudication_steps(s, game_ids=game_ids))
        return {game_id: replayed(event, steps.get(game_id, [])) for game_id in game_ids}

    async def results(
        self, event: CorrespondenceEvent
    ) -> tuple[dict[int, EventGame], list[CorrespondenceWithdrawal]]:
        """Each game by id as it stood before any withdrawal ended it (a game a withdrawal
        ended is unfinished here), and the withdrawals in the order they came."""
        gone = list(await self._recorder.read(
            lambda s: withdrawals(s, tournament_id=event.tournament_id)
        ))  # fmt: skip
        ended = {game_id for w in gone for game_id in json.loads(w.unfinished)}
        played: dict[int, EventGame] = {}
        for game in await self.games(event):
            white, black = game.pairing.white.id, game.pairing.black.id
            assert white is not None
            assert black is not None
            result = Result.ONGOING if game.game_id in ended else game.record.result
            played[game.game_id] = EventGame(white, black, result)
        return played, gone


def control_of(event: CorrespondenceEvent) -> CorrespondenceControl:
    return _CONTROLS[EventKind(event.control)]()


def leaves_for(game: Game, by_player: Mapping[int, tuple[Leave, ...]]) -> Leaves:
    return Leaves(by_player.get(game.white_id, ()), by_player.get(game.black_id, ()))


def move_times(view: GameView) -> list[float]:
    """When each ply of the game as it stands was first sent: the earliest time the log
    holds a move at that ply, so an arbiter's correction keeps the day the move was sent
    (a ply the correction added is dated by it)."""
    first: dict[int, float] = {}
    for stored in view.events:
        event = event_from_data(stored.kind, stored.data)
        if isinstance(event, MoveMade | MoveCorrected):
            first.setdefault(event.ply, event.at)
        elif isinstance(event, MovesReplaced):
            for ply in range(event.ply, event.ply + len(event.uci)):
                first.setdefault(ply, event.at)
    plies = len(view.record(view.version).board.move_stack)
    return [first[ply] for ply in range(1, plies + 1) if ply in first]


def finished_on(view: GameView) -> date | None:
    """The day the game's result was recorded (the last event that changed it), or None
    while it is unfinished."""
    if not view.record(view.version).result.is_decided:
        return None
    replayed_record = GameRecord()
    day: date | None = None
    for stored in view.events:
        event = event_from_data(stored.kind, stored.data)
        before = replayed_record.result
        replayed_record.apply(event)
        if replayed_record.result != before:
            day = utc_day(float(event.at))
    return day


def replayed(
    event: CorrespondenceEvent, rows: Sequence[CorrespondenceAdjudicationStep]
) -> AdjudicationState | None:
    steps = [Step(row.action, row.on, json.loads(row.data)) for row in rows]
    return replay(TournamentFormat(event.format), event.started, steps)


def side_of(pairing: Pairing, who: Identity) -> Side:
    """The side ``who``'s player key plays in the game; refused for anyone else."""
    if who.player_id is not None and who.player_id == pairing.white.id:
        return "white"
    if who.player_id is not None and who.player_id == pairing.black.id:
        return "black"
    raise CorrespondenceError(f"game {pairing.game_id} is not yours")


def name_of(pairing: Pairing, player_id: int) -> str:
    return pairing.white.name if pairing.white.id == player_id else pairing.black.name


def player_identity(side: str, pairing: Pairing) -> Identity:
    """The identity of the player on ``side``, in whose name the hub plays a conditional
    reply."""
    player = pairing.white if side == "white" else pairing.black
    assert player.id is not None
    return Identity(cc_player_user(player.id), CC_PLAYER_ROLE, player_id=player.id)


@dataclass(frozen=True, slots=True)
class DeskTools:
    """What each room of the correspondence desk works with: the store, the games' views,
    the arbiter's desk (results and entries go through it), the event reader, and the
    hub's day."""

    recorder: GameRecorder
    views: GameViews
    desk: ArbiterDesk
    games: EventGames
    today: Callable[[], date]


class DeskRoom:
    """A room of the correspondence desk, holding its tools."""

    def __init__(self, tools: DeskTools) -> None:
        self._recorder = tools.recorder
        self._views = tools.views
        self._desk = tools.desk
        self._games = tools.games
        self._today = tools.today
