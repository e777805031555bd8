"""The correspondence desk (docs/correspondence.md): events played by days under the IECG
rules, in the same store, event log, streams and pages as every game.

An event is a tournament with a row in ``correspondence_event``: a round robin whose rounds
(the Berger tables) all start on the event's first day, published from the start. Players
move with a key of their own (role ``cc-player``); each move is an entry in the game's log
(:meth:`ArbiterDesk.enter_move`), and the day it was sent is the UTC date of the time the log
recorded it. Nothing here reads the system's clock: the hub's ``now`` gives the time, so a
test moves a game through months in an instant.

:meth:`CorrespondenceDesk.sweep` applies what falls due (relay.domain.correspondence.silence):
a fallen flag, a move over the limit and a team game silent for 60 days end the game with
the opponent's win, recorded as the rules' result with the article; reminders and messages
to the Tournament Secretary go out by email; each is done once and kept
(``correspondence_mail``), and the day a reminder went out is the day the rules count from.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from fractions import Fraction
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import chess
from sqlmodel import Session

from relay.domain.correspondence.adjudication import Stage, TournamentFormat
from relay.domain.correspondence.adjudication_log import AdjudicationState, Step, replay
from relay.domain.correspondence.conditional import (
    Conditional,
    ConditionalSequence,
    PlyKind,
)
from relay.domain.correspondence.conditional import answer as answer_sequence
from relay.domain.correspondence.conditional import propose as propose_sequence
from relay.domain.correspondence.days import CorrespondenceControl, EventKind
from relay.domain.correspondence.game_days import (
    GameDays,
    Leaves,
    clocks,
    due_today,
    sent_days,
    utc_day,
)
from relay.domain.correspondence.leave import Leave, check_leave
from relay.domain.correspondence.letters import GameFacts, letter
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
from relay.domain.correspondence.silence import Due, DueKind, Side
from relay.domain.correspondence.timekeeping import PlayerClock
from relay.domain.correspondence.withdrawal import (
    FORFEIT_ALL_SHARE,
    EventGame,
    TableGame,
    WithdrawalKind,
    withdraw,
)
from relay.domain.errors import InvalidInputError, RefusedError
from relay.domain.game.entries import Accepted
from relay.domain.game.events import MoveCorrected, MoveMade, event_from_data
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.domain.tournament.berger import berger_rounds, double_round_robin
from relay.domain.tournament.ratings import IECG_STARTING_RATING
from relay.hub.arbiter_desk import ArbiterDesk, EntryChange
from relay.hub.game_views import GameView, GameViews
from relay.hub.mailer import Mailer, MailError
from relay.hub.recorder import GameRecorder
from relay.store.access import CC_PLAYER_ROLE, Identity, audit, cc_player_user, create_token
from relay.store.correspondence import (
    add_adjudication_step,
    add_leave,
    add_notice,
    add_withdrawal,
    adjudication_steps,
    contacts,
    create_event,
    done,
    drop_conditional,
    event_games,
    event_of_game,
    get_conditional,
    get_event,
    leaves,
    list_events,
    notices,
    record_done,
    set_conditional,
    set_contact,
    withdrawals,
)
from relay.store.models import (
    CorrespondenceAdjudicationStep,
    CorrespondenceEvent,
    CorrespondenceMail,
    CorrespondenceWithdrawal,
    Game,
)
from relay.store.tournaments import (
    Pairing,
    add_player,
    create_game,
    create_round,
    create_tournament,
    get_tournament,
    list_players,
)

__all__ = [
    "CorrespondenceDesk",
    "CorrespondenceError",
    "CreatedEvent",
    "DueItem",
    "GameDaysView",
    "NewEvent",
    "NewPlayer",
]

log = logging.getLogger(__name__)

#: Who records the rules' rulings in the games' logs and the audit trail.
RULES = Identity("correspondence rules", "arbiter")
#: Longest name and address a player may have.
MAX_TEXT = 200
#: How often ``relay serve`` acts on what falls due.
SWEEP_SECONDS = 3600.0
#: Most players in one event (a round robin of 40 is 780 games).
MAX_PLAYERS = 40
#: The days an event's start and a leave may fall on.
FIRST_DAY, LAST_DAY = date(1990, 1, 1), date(2199, 12, 31)

_CONTROLS = {
    EventKind.STANDARD: CorrespondenceControl.standard,
    EventKind.TEAM: CorrespondenceControl.team,
    EventKind.RAPID: CorrespondenceControl.rapid,
}
#: The adjudication's steps a player of the game takes, and those the TS takes.
_PLAYERS_STEPS = ("consent", "claim", "appeal")
_TS_STEPS = ("ask", "decide", "rule")
#: The kinds of due that end the game, won by the other side.
_ENDINGS = (DueKind.FLAG, DueKind.FORFEIT, DueKind.GAME_LOST)


class CorrespondenceError(ValueError, RefusedError):
    """What a player may not do: move in another's game or out of turn, a leave the rules
    do not grant."""


class CorrespondenceInputError(ValueError, InvalidInputError):
    """An event that cannot be: too few or too many players, a name or address that
    cannot be used, an unknown time zone."""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    name: str
    email: str | None = None
    rating: int | None = None
    time_zone: str = "UTC"


@dataclass(frozen=True, slots=True)
class NewEvent:
    """A correspondence round robin: every game starts on ``started``."""

    name: str
    control: EventKind
    format: TournamentFormat
    started: date
    players: tuple[NewPlayer, ...]
    ts_email: str | None = None
    double: bool = False


@dataclass(frozen=True, slots=True)
class CreatedEvent:
    tournament_id: int
    games: int
    #: Each player's key, shown once: player id -> (name, key).
    keys: dict[int, tuple[str, str]]


@dataclass(frozen=True, slots=True)
class GameDaysView:
    """One game's days for its page: each clock, who is to move, what is due today."""

    game_id: int
    tournament_id: int
    control: CorrespondenceControl
    started: date
    today: date
    finished: bool
    to_move: Side | None
    white: PlayerClock
    black: PlayerClock
    sent: tuple[date, ...]
    leaves: Leaves
    due: tuple[Due, ...]
    time_zones: tuple[str, str]


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


@dataclass(frozen=True, slots=True)
class DueItem:
    """Something due today in a game of an event, for the Tournament Secretary's list."""

    game_id: int
    white: str
    black: str
    due: Due
    #: The day the hub acted on it (sent the letter, recorded the ruling), if it has.
    done_on: date | None = None


@dataclass
class _Game:
    """A game as a sweep reads it."""

    pairing: Pairing
    record: GameRecord
    days: GameDays
    done: list[CorrespondenceMail] = field(default_factory=list)


class CorrespondenceDesk:
    """Correspondence events of one hub."""

    def __init__(
        self,
        recorder: GameRecorder,
        views: GameViews,
        desk: ArbiterDesk,
        now: Callable[[], float],
        *,
        page_url: Callable[[int], str] = lambda game_id: f"/correspondence?game={game_id}",
    ) -> None:
        self._recorder = recorder
        self._views = views
        self._desk = desk
        self._now = now
        self._page_url = page_url
        #: Sends the letters; None: nothing is mailed (what falls due is still recorded).
        self.mailer: Mailer | None = None

    def today(self) -> date:
        return utc_day(self._now())

    # Events

    async def create(self, event: NewEvent, who: Identity) -> CreatedEvent:
        """A new event with its players, their keys, and every game of its round robin."""
        _check_event(event)
        rounds = (double_round_robin if event.double else berger_rounds)(len(event.players))
        starts = datetime.combine(event.started, time(), UTC)

        def work(session: Session) -> CreatedEvent:
            tournament = create_tournament(
                session, name=event.name, site="correspondence", start_date=event.started
            )
            assert tournament.id is not None
            ids: list[int] = []
            keys: dict[int, tuple[str, str]] = {}
            for number, entrant in enumerate(event.players, start=1):
                player = add_player(
                    session,
                    tournament_id=tournament.id,
                    start_number=number,
                    name=entrant.name,
                    rating=entrant.rating,
                )
                assert player.id is not None
                ids.append(player.id)
                set_contact(
                    session,
                    player_id=player.id,
                    email=entrant.email,
                    time_zone=entrant.time_zone,
                )
                key = create_token(
                    session,
                    user=cc_player_user(player.id),
                    role=CC_PLAYER_ROLE,
                    player_id=player.id,
                )
                keys[player.id] = (entrant.name, key)
            games = 0
            for number, boards in enumerate(rounds, start=1):
                round_ = create_round(
                    session,
                    tournament_id=tournament.id,
                    number=number,
                    starts_at=starts,
                    published=True,
                )
                assert round_.id is not None
                board = 0
                for white, black in boards:
                    if max(white, black) > len(ids):
                        continue  # the bye of an odd number of players
                    board += 1
                    create_game(
                        session,
                        round_id=round_.id,
                        board=board,
                        white_id=ids[white - 1],
                        black_id=ids[black - 1],
                    )
                    games += 1
            create_event(
                session,
                tournament_id=tournament.id,
                control=event.control.value,
                format=event.format.value,
                started=event.started,
                ts_email=event.ts_email,
            )
            audit(
                session,
                who=who,
                action="correspondence-event",
                target=f"tournament {tournament.id}",
                detail={"players": len(ids), "games": games, "control": event.control.value},
            )
            session.commit()
            return CreatedEvent(tournament.id, games, keys)

        return await self._recorder.run(work)

    async def events(self) -> list[tuple[CorrespondenceEvent, str]]:
        """Every event, with its tournament's name."""

        def read(session: Session) -> list[tuple[CorrespondenceEvent, str]]:
            return [
                (event, get_tournament(session, tournament_id=event.tournament_id).name)
                for event in list_events(session)
            ]

        return await self._recorder.read(read)

    # A player's actions

    async def move(self, *, game_id: int, ply: int, text: str, who: Identity) -> EntryChange:
        """A player's move for ``ply`` of their game: the rulings due before it are applied
        first (a flag that fell yesterday ends the game before today's move comes)."""
        view = await self._views.game(game_id)
        side = _side_of(view.pairing, who)
        mover: Side = "white" if ply % 2 else "black"
        if side != mover:
            raise CorrespondenceError(f"ply {ply} is {mover.capitalize()}'s move, not yours")
        event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
        state = await self.adjudication(game_id)
        if state is not None and state.process.stage not in (Stage.ASKED, Stage.CONTINUED):
            raise CorrespondenceError(
                f"game {game_id} is with the adjudicator ({state.process.stage}): no more moves"
            )
        await self._sweep_event(event, only=game_id)
        before = view.record(view.version).board.copy()
        entered = await self._desk.enter_move(
            game_id=game_id, ply=ply, text=text, who=who, timed=False
        )
        if isinstance(entered.judged, Accepted) and not entered.change.record.result.is_decided:
            await self._follow_conditional(game_id, before, entered.judged.san, side)
        return entered

    async def propose(
        self, *, game_id: int, steps: Sequence[tuple[str, str]], who: Identity
    ) -> ConditionalSequence:
        """A conditional sequence (C.4.E) from the player who has just moved: each step the
        opponent's move and the reply, in SAN. It binds the proposer until the opponent
        deviates; a new one replaces it."""
        view = await self._views.game(game_id)
        side = _side_of(view.pairing, who)
        record = view.record(view.version)
        if record.result.is_decided:
            raise CorrespondenceError(f"game {game_id} is over")
        board = record.board.copy()
        if ("white" if board.turn else "black") == side:
            raise CorrespondenceError("a conditional sequence goes with the move you have sent")
        sequence = propose_sequence(board, steps)

        def keep(session: Session) -> None:
            set_conditional(
                session,
                game_id=game_id,
                proposer=side,
                fen=sequence.fen,
                steps=[(s.if_move.uci(), s.then_move.uci()) for s in sequence.steps],
            )
            audit(session, who=who, action="conditional", target=f"game {game_id}",
                  detail={"steps": [list(step) for step in steps]})  # fmt: skip
            session.commit()

        await self._recorder.run(keep)
        return sequence

    async def _follow_conditional(
        self, game_id: int, before: chess.Board, san: str, mover: Side
    ) -> None:
        """The opponent of a bound player moved: a move the sequence expected is answered
        by its reply at once, in the proposer's name; any other ends the sequence."""
        row = await self._recorder.read(lambda s: get_conditional(s, game_id=game_id))
        if row is None or row.proposer == mover:
            return
        sequence = ConditionalSequence(
            chess.WHITE if row.proposer == "white" else chess.BLACK,
            row.fen,
            tuple(
                Conditional(chess.Move.from_uci(a), chess.Move.from_uci(b))
                for a, b in json.loads(row.steps)
            ),
        )
        today = self.today()
        run = None
        if before.fen() == sequence.fen:
            run = answer_sequence(before, sequence, [san], received_on=today, mailed_on=today)
        followed = run is not None and run.plies[0].kind is PlyKind.ACCEPTED
        if run is not None and followed:
            reply = run.plies[1]
            await self._desk.enter_move(
                game_id=game_id,
                ply=len(before.move_stack) + 2,
                text=reply.move.uci(),
                who=_player_identity(row.proposer, (await self._views.game(game_id)).pairing),
                timed=False,
            )

        def keep(session: Session) -> None:
            if run is not None and followed and run.remaining is not None:
                set_conditional(
                    session,
                    game_id=game_id,
                    proposer=row.proposer,
                    fen=run.remaining.fen,
                    steps=[(s.if_move.uci(), s.then_move.uci()) for s in run.remaining.steps],
                )
            else:
                drop_conditional(session, game_id=game_id)
            session.commit()

        await self._recorder.run(keep)

    async def notice(self, *, game_id: int, who: Identity) -> bool:
        """The player to move tells the opponent and the TS that this move will take longer
        (C.3.1.B), today; False when the move had a notice already."""
        view = await self._views.game(game_id)
        side = _side_of(view.pairing, who)
        record = view.record(view.version)
        if record.result.is_decided:
            raise CorrespondenceError(f"game {game_id} is over")
        to_move: Side = "white" if record.board.turn else "black"
        if side != to_move:
            raise CorrespondenceError("a notice of delay is for the move you are to make")
        ply, today = len(record.board.move_stack) + 1, self.today()

        def work(session: Session) -> bool:
            kept = add_notice(session, game_id=game_id, ply=ply, sent=today)
            if kept:
                audit(
                    session, who=who, action="notice", target=f"game {game_id}", detail={"ply": ply}
                )
            session.commit()
            return kept

        return await self._recorder.run(work)

    async def leave(self, *, tournament_id: int, first: date, last: date, who: Identity) -> Leave:
        """A leave the player announces today (C.8), refused in words when the rules do not
        grant it."""
        if who.player_id is None:
            raise CorrespondenceError("a leave is announced with a player's key")
        check_day(first, "a leave's first day")
        check_day(last, "a leave's last day")
        player_id, today = who.player_id, self.today()

        def work(session: Session) -> Leave:
            event = get_event(session, tournament_id=tournament_id)
            if player_id not in {p.id for p in list_players(session, tournament_id=tournament_id)}:
                raise CorrespondenceError(f"you play no game in tournament {tournament_id}")
            taken = [
                Leave(row.announced, row.first, row.last)
                for row in leaves(session, tournament_id=tournament_id)
                if row.player_id == player_id
            ]
            new = Leave(today, first, last)
            check_leave(new, taken, event.started, _control(event))
            add_leave(
                session,
                tournament_id=tournament_id,
                player_id=player_id,
                announced=today,
                first=first,
                last=last,
            )
            audit(
                session,
                who=who,
                action="leave",
                target=f"tournament {tournament_id}",
                detail={"first": first.isoformat(), "last": last.isoformat()},
            )
            session.commit()
            return new

        return await self._recorder.run(work)

    # The Tournament Secretary's

    async def withdraw(
        self, *, tournament_id: int, player_id: int, kind: WithdrawalKind, who: Identity
    ) -> WithdrawalView:
        """The player withdraws (C.9): his unfinished games end today, won by his opponents,
        and are never rated; the score table counts his games as C.9.B says (:meth:`table`).
        """
        event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
        games = [g for g in await self._games(event) if player_id in _players_of(g.pairing)]
        if not games:
            raise CorrespondenceError(f"player {player_id} plays no game in this event")
        finished = [g for g in games if g.record.result.is_decided]
        unfinished = [g for g in games if not g.record.result.is_decided]
        today = self.today()

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
                    unfinished=json.dumps([g.pairing.game_id for g in unfinished]),
                ),
            )
            audit(session, who=who, action="withdrawal", target=f"tournament {tournament_id}",
                  detail={"player": player_id, "kind": kind.value})  # fmt: skip
            session.commit()

        await self._recorder.run(keep)
        for game in unfinished:
            won = Result.BLACK_WINS if game.pairing.white.id == player_id else Result.WHITE_WINS
            await self._desk.set_result(
                game_id=game.pairing.game_id,
                result=won,
                who=who,
                reason=f"{kind.value} withdrawal of {_name_of(game.pairing, player_id)} (C.9.B)",
            )
        share = Fraction(len(finished), len(games))
        return WithdrawalView(
            player_id, kind, today, len(finished), len(games), share <= FORFEIT_ALL_SHARE
        )

    async def table(self, tournament_id: int) -> list[TableLine]:
        """The score table (C.14), games counted as the withdrawals leave them (C.9.B)."""
        event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
        played, gone = await self._results(event)
        players = await self._recorder.read(lambda s: list_players(s, tournament_id=tournament_id))
        games = {key: TableGame(g.white, g.black, g.result, False) for key, g in played.items()}
        for withdrawn in gone:
            mine = {k: g for k, g in played.items() if withdrawn.player_id in (g.white, g.black)}
            result = withdraw(withdrawn.player_id, list(mine.values()))
            games.update(zip(mine, result.table, strict=True))
        return score_table([p.id for p in players if p.id is not None], list(games.values()))

    async def names(self, tournament_id: int) -> dict[int, str]:
        """The event's players' names by id."""
        players = await self._recorder.read(lambda s: list_players(s, tournament_id=tournament_id))
        return {p.id: p.name for p in players if p.id is not None}

    async def rated(self, tournament_id: int) -> list[EventGame]:
        """The games the rating run counts: every finished game with its real result, but
        those a withdrawal ended (E.VIII.2)."""
        event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
        played, _ = await self._results(event)
        return [game for game in played.values() if game.finished]

    async def _results(
        self, event: CorrespondenceEvent
    ) -> tuple[dict[int, EventGame], list[CorrespondenceWithdrawal]]:
        """Each game by id as it stood before any withdrawal ended it (a game a withdrawal
        ended is unfinished here), and the withdrawals."""
        gone = list(await self._recorder.read(
            lambda s: withdrawals(s, tournament_id=event.tournament_id)
        ))  # fmt: skip
        ended = {game_id for w in gone for game_id in json.loads(w.unfinished)}
        played: dict[int, EventGame] = {}
        for game in await self._games(event):
            white, black = game.pairing.white.id, game.pairing.black.id
            assert white is not None
            assert black is not None
            result = game.record.result
            if game.pairing.game_id in ended:
                result = Result.ONGOING
            played[game.pairing.game_id] = EventGame(white, black, result)
        return played, gone

    # Ratings (E)

    async def ratings(self, period: Period) -> RatingRun:
        """The IECG rating list after ``period``'s run, replayed from every correspondence
        game of this hub: each period from the first with a finished game, in turn (E.II).

        A player is one person across events by name (the hub keeps no membership
        numbers): the list's number is the id of the first entry under that name, the
        starting rating that entry's rating (E.VII.1), else 800 (E.VII.3). Games a
        withdrawal ended are not rated (E.VIII.2); every other finished game is, on the
        day its result was recorded.
        """
        players: dict[str, PlayerRecord] = {}
        finished: list[FinishedGame] = []
        playing: list[tuple[date, date | None, str, str]] = []
        for event, _ in await self.events():
            names = await self._recorder.read(
                partial(list_players, tournament_id=event.tournament_id)
            )
            number = {}
            for player in names:
                assert player.id is not None
                key = " ".join(player.name.split()).casefold()
                if key not in players:
                    players[key] = PlayerRecord(
                        number=str(player.id),
                        name=player.name,
                        country=player.federation or "",
                        starting=player.rating or IECG_STARTING_RATING,
                    )
                number[player.id] = players[key].number
            played, _ = await self._results(event)
            for game_id, game in played.items():
                view = await self._views.game(game_id)
                day = _finished_on(view.record(view.version), view)
                white, black = number[game.white], number[game.black]
                playing.append((event.started, day, white, black))
                if game.finished and day is not None:
                    finished.append(FinishedGame(day, white, black, game.result))
        if not finished:
            return rate_period(players.values(), [], period)
        current = min(period_of(game.finished) for game in finished)
        database = list(players.values())
        while True:
            games = [g for g in finished if period_of(g.finished) == current]
            active = {
                number
                for started, ended, *numbers in playing
                if started <= current.end and (ended is None or ended > current.end)
                for number in numbers
            }
            run = rate_period(database, games, current, playing=active)
            if current >= period:
                return run
            database = list(run.players)
            current = _next_period(current)

    # Adjudication after the global time limit (C.15, C.10-11)

    async def adjudication(self, game_id: int) -> AdjudicationState | None:
        """Where the game's adjudication stands; None before the TS asks."""
        event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
        steps = await self._recorder.read(lambda s: adjudication_steps(s, game_ids=[game_id]))
        return _replayed(event, steps.get(game_id, []))

    async def adjudicate(
        self, *, game_id: int, action: str, who: Identity, data: dict[str, Any] | None = None
    ) -> AdjudicationState:
        """One step of the game's adjudication, by the TS (``ask``, ``decide``, ``rule``)
        or by a player of the game (``consent``, ``claim``, ``appeal``: their side is their
        key's). Refused in words when the rules do not allow it where the process stands;
        the final result is the game's."""
        view = await self._views.game(game_id)
        data = dict(data or {})
        if action in _PLAYERS_STEPS:
            data["side"] = _side_of(view.pairing, who)
        elif action not in _TS_STEPS:
            raise CorrespondenceInputError(f"no adjudication step {action!r}")
        if view.record(view.version).result.is_decided and action == "ask":
            raise CorrespondenceError(f"game {game_id} is over: nothing to adjudicate")
        state = await self._add_step(game_id, action, data, who)
        await self._settle(view.pairing, state)
        return state

    async def _add_step(
        self, game_id: int, action: str, data: dict[str, Any], who: Identity
    ) -> AdjudicationState:
        today = self.today()

        def work(session: Session) -> AdjudicationState:
            event = event_of_game(session, game_id=game_id)
            steps = adjudication_steps(session, game_ids=[game_id]).get(game_id, [])
            new = CorrespondenceAdjudicationStep(
                game_id=game_id, seq=len(steps) + 1, action=action, on=today,
                data=json.dumps(data), by=who.user,
            )  # fmt: skip
            state = _replayed(event, [*steps, new])  # refuses a step out of place
            assert state is not None
            add_adjudication_step(
                session, game_id=game_id, action=action, on=today, data=new.data, by=who.user
            )
            audit(session, who=who, action=f"adjudication-{action}",
                  target=f"game {game_id}", detail=data)  # fmt: skip
            session.commit()
            return state

        return await self._recorder.run(work)

    async def _settle(self, pairing: Pairing, state: AdjudicationState) -> None:
        """A final adjudication is the game's result."""
        process = state.process
        if process.stage is not Stage.FINAL or process.result is None:
            return
        view = await self._views.game(pairing.game_id)
        if view.record(view.version).result == process.result:
            return
        how = "on appeal (C.11.A)" if process.appellant is not None else "adjudicated (C.10)"
        await self._desk.set_result(
            game_id=pairing.game_id, result=process.result, who=RULES, reason=how
        )

    # Reads

    async def game(self, game_id: int) -> GameDaysView:
        """The game's days as they stand today."""
        view = await self._views.game(game_id)
        record = view.record(view.version)
        today = self.today()

        def read(
            session: Session,
        ) -> tuple[CorrespondenceEvent, Leaves, dict[int, date], tuple[str, str]]:
            event = event_of_game(session, game_id=game_id)
            game = view.pairing.game
            zones = contacts(session, player_ids=[game.white_id, game.black_id])
            return (
                event,
                _leaves_of(session, event.tournament_id, game),
                notices(session, game_ids=[game_id]).get(game_id, {}),
                tuple(  # type: ignore[return-value]
                    zones[p].time_zone if p in zones else "UTC"
                    for p in (game.white_id, game.black_id)
                ),
            )

        event, game_leaves, game_notices, zones = await self._recorder.read(read)
        control = _control(event)
        days = GameDays(event.started, sent_days(_move_times(record)), game_notices)
        finished = record.result.is_decided
        white, black = clocks(
            days, control, max(today, event.started), game_leaves, finished=finished
        )
        due: list[Due] = []
        if not finished and today >= event.started:
            game_done = await self._recorder.read(lambda s: list(done(s, game_ids=[game_id])))
            due = _due(days, control, today, game_leaves, game_done)
        return GameDaysView(
            game_id=game_id,
            tournament_id=event.tournament_id,
            control=control,
            started=event.started,
            today=today,
            finished=finished,
            to_move=None if finished else days.to_move,
            white=white,
            black=black,
            sent=days.sent,
            leaves=game_leaves,
            due=tuple(due),
            time_zones=zones,
        )

    async def due(self, tournament_id: int) -> list[DueItem]:
        """What is due today in the event's unfinished games, and what the hub did about it
        (the Tournament Secretary's list)."""
        event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
        today = self.today()
        items: list[DueItem] = []
        for game in await self._games(event):
            if game.record.result.is_decided or today < event.started:
                continue
            done_on = {
                (row.kind, row.side): row.done_on
                for row in game.done
                if row.ply == game.days.pending_ply
            }
            for item in _due(
                game.days, _control(event), today, await self._leaves(event, game), game.done
            ):
                items.append(
                    DueItem(
                        game_id=game.pairing.game_id,
                        white=game.pairing.white.name,
                        black=game.pairing.black.name,
                        due=item,
                        done_on=done_on.get((item.kind.value, item.side)),
                    )
                )
        return items

    # What falls due

    async def sweep(self, tournament_id: int | None = None) -> list[DueItem]:
        """Apply what is due today in every unfinished game (of one event, or of all):
        rulings recorded, letters sent, each once. What was done now, in order."""
        if tournament_id is None:
            events = [event for event, _ in await self.events()]
        else:
            events = [
                await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
            ]
        acted: list[DueItem] = []
        for event in events:
            acted += await self._sweep_event(event)
        return acted

    async def _sweep_event(
        self, event: CorrespondenceEvent, only: int | None = None
    ) -> list[DueItem]:
        today = self.today()
        if today < event.started:
            return []
        acted: list[DueItem] = []
        games = await self._games(event, only=only)
        ids = [game.pairing.game_id for game in games]
        steps = await self._recorder.read(lambda s: adjudication_steps(s, game_ids=ids))
        for game in games:
            state = _replayed(event, steps.get(game.pairing.game_id, []))
            if state is not None and state.process.stage is not Stage.CONTINUED:
                await self._lapse(game, state, today)
                continue  # asked, or with the adjudicator: no clock rulings
            if game.record.result.is_decided:
                continue
            game_leaves = await self._leaves(event, game)
            for item in _due(game.days, _control(event), today, game_leaves, game.done):
                if await self._act(event, game, item, today):
                    acted.append(
                        DueItem(
                            game.pairing.game_id,
                            game.pairing.white.name,
                            game.pairing.black.name,
                            item,
                            today,
                        )
                    )
                if item.kind in _ENDINGS:
                    break
        return acted

    async def _lapse(self, game: _Game, state: AdjudicationState, today: date) -> None:
        """A decision nobody appealed within the 14 days becomes final (C.11.A)."""
        deadline = state.process.appeal_deadline
        if state.process.stage is Stage.DECIDED and deadline is not None and today > deadline:
            settled = await self._add_step(game.pairing.game_id, "lapse", {}, RULES)
            await self._settle(game.pairing, settled)

    async def _act(self, event: CorrespondenceEvent, game: _Game, item: Due, today: date) -> bool:
        """Do what ``item`` asks, once; whether it was done now."""
        key = (game.days.pending_ply, item.kind.value, item.side)
        if any((row.ply, row.kind, row.side) == key for row in game.done):
            return False
        game_id = game.pairing.game_id
        if item.kind in _ENDINGS:
            result = Result.BLACK_WINS if item.side == "white" else Result.WHITE_WINS
            reason = (
                f"{item.side.capitalize()}: {item.kind.value} since {item.since} ({item.article})"
            )
            await self._desk.set_result(game_id=game_id, result=result, who=RULES, reason=reason)
        sent_to = await self._send(event, game, item)
        row = CorrespondenceMail(
            game_id=game_id,
            ply=game.days.pending_ply,
            kind=item.kind.value,
            side=item.side,
            since=item.since,
            done_on=today,
            sent_to=",".join(sent_to),
        )

        def keep(session: Session) -> bool:
            kept = record_done(session, row)
            session.commit()
            return kept

        kept = await self._recorder.run(keep)
        if kept:
            game.done.append(row)
        return kept

    async def _send(self, event: CorrespondenceEvent, game: _Game, item: Due) -> tuple[str, ...]:
        """Mail the letter for ``item``, if there is someone to write to and a mailer; whom
        it went to (nobody when it could not go: the failure is logged)."""
        facts = await self._facts(event, game)
        written = letter(item, facts)
        if written is None or self.mailer is None:
            return ()
        try:
            await self.mailer.send(written)
        except MailError as error:
            log.error(
                "game %d: the %s letter could not be sent: %s",
                facts.game_id,
                item.kind.value,
                error,
            )
            return ()
        return written.to

    async def _facts(self, event: CorrespondenceEvent, game: _Game) -> GameFacts:
        pairing = game.pairing

        def read(session: Session) -> dict[int, str | None]:
            found = contacts(session, player_ids=[pairing.white.id or 0, pairing.black.id or 0])
            return {pid: row.email for pid, row in found.items()}

        emails = await self._recorder.read(read)
        record = game.record
        last: str | None = None
        if record.board.move_stack:
            ply = len(record.board.move_stack)
            number = (ply + 1) // 2
            san = record.moves[-1].san if record.moves else ""
            last = f"{number}.{'' if ply % 2 else '..'}{san}"
        return GameFacts(
            event=pairing.tournament.name,
            game_id=pairing.game_id,
            white=pairing.white.name,
            black=pairing.black.name,
            white_email=emails.get(pairing.white.id or 0),
            black_email=emails.get(pairing.black.id or 0),
            ts_email=event.ts_email,
            url=self._page_url(pairing.game_id),
            last_move=last,
            last_move_sent=game.days.sent[-1] if game.days.sent else None,
        )

    async def _games(self, event: CorrespondenceEvent, only: int | None = None) -> list[_Game]:
        def read(
            session: Session,
        ) -> tuple[list[Game], dict[int, dict[int, date]], list[CorrespondenceMail]]:
            games = [
                g
                for g in event_games(session, tournament_id=event.tournament_id)
                if only is None or g.id == only
            ]
            ids = [g.id for g in games if g.id is not None]
            return games, notices(session, game_ids=ids), list(done(session, game_ids=ids))

        games, game_notices, game_done = await self._recorder.read(read)
        found: list[_Game] = []
        for row in games:
            assert row.id is not None
            view = await self._views.game(row.id)
            record = view.record(view.version)
            days = GameDays(
                event.started, sent_days(_move_times(record)), game_notices.get(row.id, {})
            )
            found.append(
                _Game(view.pairing, record, days, [d for d in game_done if d.game_id == row.id])
            )
        return found

    async def _leaves(self, event: CorrespondenceEvent, game: _Game) -> Leaves:
        return await self._recorder.read(
            lambda s: _leaves_of(s, event.tournament_id, game.pairing.game)
        )


async def sweep_every(desk: CorrespondenceDesk, seconds: float = SWEEP_SECONDS) -> None:
    """Act on what falls due in every event, now and every ``seconds``, until cancelled; a
    sweep that fails is logged and the next one comes as planned."""
    while True:
        try:
            acted = await desk.sweep()
        except Exception:
            log.exception("the correspondence sweep failed; the next in %.0f s", seconds)
        else:
            for item in acted:
                log.info("game %d: %s (%s) for %s", item.game_id, item.due.kind.value,
                         item.due.article, item.due.side)  # fmt: skip
        await asyncio.sleep(seconds)


def _due(
    days: GameDays,
    control: CorrespondenceControl,
    today: date,
    game_leaves: Leaves,
    game_done: Sequence[CorrespondenceMail],
) -> list[Due]:
    """What is due today, the waiting player's reminder and message to the TS dated by
    when the hub sent them for the move being thought about."""
    sent = {row.kind: row.done_on for row in game_done if row.ply == days.pending_ply}
    return due_today(
        days,
        control,
        today,
        game_leaves,
        reminder=sent.get(DueKind.REMINDER.value),
        informed=sent.get(DueKind.INFORM_TS.value),
    )


def _leaves_of(session: Session, tournament_id: int, game: Game) -> Leaves:
    rows = leaves(session, tournament_id=tournament_id)

    def of(player_id: int) -> tuple[Leave, ...]:
        return tuple(Leave(r.announced, r.first, r.last) for r in rows if r.player_id == player_id)

    return Leaves(of(game.white_id), of(game.black_id))


def _move_times(record: GameRecord) -> list[float]:
    """When each ply of the game as it stands was first recorded (a correction keeps the
    day the move was sent)."""
    first: dict[int, float] = {}
    for move in record.moves:
        if isinstance(move, MoveMade | MoveCorrected):
            first.setdefault(move.ply, move.at)
    return [first[ply] for ply in range(1, len(record.board.move_stack) + 1) if ply in first]


def _next_period(period: Period) -> Period:
    if period.index == PERIODS_PER_YEAR:
        return Period(period.year + 1, 1)
    return Period(period.year, period.index + 1)


def _finished_on(record: GameRecord, view: GameView) -> date | None:
    """The day the game's result was recorded (the last event that changed it), or None
    while it is unfinished."""
    if not record.result.is_decided:
        return None
    replayed = GameRecord()
    day: date | None = None
    for stored in view.events:
        event = event_from_data(stored.kind, stored.data)
        before = replayed.result
        replayed.apply(event)
        if replayed.result != before and isinstance(getattr(event, "at", None), float | int):
            day = utc_day(float(event.at))
    return day


def _replayed(
    event: CorrespondenceEvent, rows: Sequence[CorrespondenceAdjudicationStep]
) -> AdjudicationState | None:
    steps = [Step(row.action, row.on, json.loads(row.data)) for row in rows]
    return replay(TournamentFormat(event.format), event.started, steps)


def _players_of(pairing: Pairing) -> tuple[int | None, int | None]:
    return pairing.white.id, pairing.black.id


def _name_of(pairing: Pairing, player_id: int) -> str:
    return pairing.white.name if pairing.white.id == player_id else pairing.black.name


def _player_identity(side: str, pairing: Pairing) -> Identity:
    """The identity of the player on ``side``, in whose name the hub plays a conditional
    reply."""
    player = pairing.white if side == "white" else pairing.black
    assert player.id is not None
    return Identity(cc_player_user(player.id), CC_PLAYER_ROLE, player_id=player.id)


def _side_of(pairing: Pairing, who: Identity) -> Side:
    if who.player_id is not None and who.player_id == pairing.white.id:
        return "white"
    if who.player_id is not None and who.player_id == pairing.black.id:
        return "black"
    raise CorrespondenceError(f"game {pairing.game_id} is not yours")


def _control(event: CorrespondenceEvent) -> CorrespondenceControl:
    return _CONTROLS[EventKind(event.control)]()


def check_day(day: date, what: str) -> None:
    """Refuse a day the rules' arithmetic cannot be asked about (months and days are
    added to it)."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise CorrespondenceInputError(f"{what} {day} is not between {FIRST_DAY} and {LAST_DAY}")


def _check_event(event: NewEvent) -> None:
    check_day(event.started, "the start")
    if not 2 <= len(event.players) <= MAX_PLAYERS:
        raise CorrespondenceInputError(
            f"an event has 2 to {MAX_PLAYERS} players, not {len(event.players)}"
        )
    _check_text(event.name, "the event's name")
    if event.ts_email is not None:
        _check_email(event.ts_email)
    names = set()
    for player in event.players:
        _check_text(player.name, "a player's name")
        if player.name in names:
            raise CorrespondenceInputError(f"{player.name} is entered twice")
        names.add(player.name)
        if player.email is not None:
            _check_email(player.email)
        try:
            ZoneInfo(player.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise CorrespondenceInputError(f"{player.time_zone!r} is not a time zone") from None


def _check_text(text: str, what: str) -> None:
    if not text.strip() or len(text) > MAX_TEXT or not text.isprintable():
        raise CorrespondenceInputError(f"{what} is 1 to {MAX_TEXT} printable characters")


def _check_email(address: str) -> None:
    """An address a letter can go to: one ``@``, no spaces or line breaks (which would
    write headers of their own)."""
    local, at, domain = address.partition("@")
    if not (local and at and domain) or "@" in domain or len(address) > MAX_TEXT:
        raise CorrespondenceInputError(f"{address!r} is not an email address")
    if any(c.isspace() or not c.isprintable() for c in address):
        raise CorrespondenceInputError(f"{address!r} is not an email address")
