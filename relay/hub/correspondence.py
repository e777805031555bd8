"""The correspondence desk (docs/correspondence.md): events played by days under the IECG
rules, in the same store, event log, streams and pages as every game.

An event is a tournament with a row in ``correspondence_event``: a round robin whose rounds
(the Berger tables) all start on the event's first day, published from the start. Players
act with a key of their own (role ``cc-player``: :mod:`relay.hub.correspondence_moves`); each
move is an entry in the game's log, and the day it was sent is the UTC date of the time the
log recorded it. The day comes from the hub's ``now``, never the system's clock, so a test
moves a game through months in an instant (the system's clock only times waits and leases).

:meth:`CorrespondenceDesk.sweep` applies what falls due (relay.domain.correspondence.silence),
one sweep at a time: a fallen flag, a move over the limit and a team game silent for 60 days
end the game with the opponent's win, recorded with the article; reminders and messages to
the Tournament Secretary go out by email, and count as done only once sent (the day a
reminder went out is the day the rules count from); each is done once per move and kept
(``correspondence_mail``). Standings and ratings are :mod:`relay.hub.correspondence_standings`,
adjudication :mod:`relay.hub.correspondence_adjudication`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from time import monotonic

from sqlmodel import Session

from relay.domain.correspondence.adjudication import Stage
from relay.domain.correspondence.days import CorrespondenceControl
from relay.domain.correspondence.game_days import (
    GameDays,
    Leaves,
    clocks,
    due_today,
    utc_day,
)
from relay.domain.correspondence.leave import Leave
from relay.domain.correspondence.letters import GameFacts, letter
from relay.domain.correspondence.silence import Due, DueKind, Side
from relay.domain.correspondence.timekeeping import PlayerClock
from relay.domain.errors import RelayError
from relay.domain.results import Result
from relay.domain.tournament.berger import berger_rounds, double_round_robin
from relay.hub.arbiter_desk import ArbiterDesk
from relay.hub.correspondence_adjudication import Adjudications
from relay.hub.correspondence_checks import NewEvent, SweepBusyError, check_event
from relay.hub.correspondence_games import (
    RULES,
    CorrespondenceGame,
    DeskTools,
    EventGames,
    control_of,
    leaves_for,
)
from relay.hub.correspondence_moves import Moves
from relay.hub.correspondence_standings import Standings
from relay.hub.game_views import GameViews
from relay.hub.lease import Lease, process_holder
from relay.hub.mailer import Mailer, MailError
from relay.hub.recorder import GameRecorder
from relay.store.access import CC_PLAYER_ROLE, Identity, audit, cc_player_user, create_token
from relay.store.correspondence import (
    contacts,
    create_event,
    event_of_game,
    get_event,
    list_events,
    record_done,
    set_contact,
)
from relay.store.models import CorrespondenceEvent, CorrespondenceMail
from relay.store.tournaments import (
    add_player,
    create_game,
    create_round,
    create_tournament,
    get_tournament,
)

__all__ = ["CorrespondenceDesk", "CreatedEvent", "DueItem", "GameDaysView", "sweep_every"]

log = logging.getLogger(__name__)

#: How often ``relay serve`` acts on what falls due.
SWEEP_SECONDS = 3600.0
#: The leases that let one hub process sweep an event at a time (relay.hub.lease), by
#: this name and the event's id.
SWEEP_LEASE = "correspondence-sweep"
#: How long a sweep (before a move, a TS's "act now", the hourly one) waits for another
#: sweep of the same event.
SWEEP_WAIT = 30.0
#: The kinds of due that end the game, won by the other side.
_ENDINGS = (DueKind.FLAG, DueKind.FORFEIT, DueKind.GAME_LOST)


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
class DueItem:
    """Something due today in a game of an event, for the Tournament Secretary's list."""

    game_id: int
    white: str
    black: str
    due: Due
    #: The day the hub acted on it (sent the letter, recorded the ruling), if it has.
    done_on: date | None = None


class CorrespondenceDesk:
    """Correspondence events of one hub: :attr:`moves` (the players'), :attr:`standings`,
    :attr:`adjudications`, and what falls due."""

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
        #: Sends the letters; None: nothing is mailed, and letters stay due.
        self.mailer: Mailer | None = None
        #: One sweep of an event at a time, so the hourly one and a TS's never act twice
        #: on the same due: in this process by a lock per event, among the hub processes
        #: that share the store by a lease per event (:meth:`lease_of`), held as this one.
        self._sweeping: dict[int, asyncio.Lock] = {}
        self._leases: dict[int, Lease] = {}
        self.holder = process_holder()
        #: How long a sweep waits for another one of the same event (then SweepBusyError).
        self.sweep_wait = SWEEP_WAIT
        self._games = EventGames(recorder, views)
        tools = DeskTools(recorder, views, desk, self._games, self.today)
        self.moves = Moves(tools, self._sweep_game)
        self.adjudications = Adjudications(tools, self._sweep_game)
        self.standings = Standings(tools, self._sweep_event, self.events)

    def today(self) -> date:
        return utc_day(self._now())

    # Events

    async def create(self, event: NewEvent, who: Identity) -> CreatedEvent:
        """A new event with its players, their keys, and every game of its round robin."""
        check_event(event)
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

    async def game(self, game_id: int) -> GameDaysView:
        """The game's days as they stand today."""
        event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
        [game] = await self._games.games(event, only=game_id)
        pairing, today = game.pairing, self.today()
        game_leaves = leaves_for(pairing.game, await self._games.leaves(event))
        ids = (pairing.game.white_id, pairing.game.black_id)
        zones = await self._recorder.read(lambda s: contacts(s, player_ids=list(ids)))
        control, finished = control_of(event), game.record.result.is_decided
        white, black = clocks(
            game.days, control, max(today, event.started), game_leaves, finished=finished
        )
        due: list[Due] = []
        if not finished and today >= event.started:
            due = _due(game.days, control, today, game_leaves, game.done)
        return GameDaysView(
            game_id=game_id,
            tournament_id=event.tournament_id,
            control=control,
            started=event.started,
            today=today,
            finished=finished,
            to_move=None if finished else game.days.to_move,
            white=white,
            black=black,
            sent=game.days.sent,
            leaves=game_leaves,
            due=tuple(due),
            time_zones=(
                zones[ids[0]].time_zone if ids[0] in zones else "UTC",
                zones[ids[1]].time_zone if ids[1] in zones else "UTC",
            ),
        )

    async def due(self, tournament_id: int) -> list[DueItem]:
        """What is due today in the event's unfinished games, and what the hub did about it
        (the Tournament Secretary's list)."""
        event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
        today = self.today()
        if today < event.started:
            return []
        by_player = await self._games.leaves(event)
        items: list[DueItem] = []
        for game in await self._games.games(event):
            if game.record.result.is_decided:
                continue
            done_on = {
                (row.kind, row.side): row.done_on
                for row in game.done
                if row.ply == game.days.pending_ply
            }
            game_leaves = leaves_for(game.pairing.game, by_player)
            for item in _due(game.days, control_of(event), today, game_leaves, game.done):
                items.append(
                    DueItem(
                        game_id=game.game_id,
                        white=game.pairing.white.name,
                        black=game.pairing.black.name,
                        due=item,
                        done_on=done_on.get((item.kind.value, item.side)),
                    )
                )
        return items

    # What falls due

    def lease_of(self, tournament_id: int) -> Lease:
        """The lease that lets one process at a time sweep the event."""
        lease = self._leases.get(tournament_id)
        if lease is None:
            lease = Lease(self._recorder, f"{SWEEP_LEASE}:{tournament_id}", holder=self.holder)
            self._leases[tournament_id] = lease
        return lease

    async def sweep(
        self, tournament_id: int | None = None, *, wait: float | None = None
    ) -> list[DueItem]:
        """Apply what is due today in every unfinished game (of one event, or of all):
        rulings recorded, letters sent, each once. What was done now, in order. A game
        that cannot be worked out is logged and left; the others go on. An event that
        another sweep (of this process or another) holds for longer than ``wait`` seconds
        (default :attr:`sweep_wait`) raises :class:`SweepBusyError`; sweeping every event,
        it is logged and left to that sweep, and the others go on."""
        if tournament_id is not None:
            event = await self._recorder.read(lambda s: get_event(s, tournament_id=tournament_id))
            return await self._sweep_event(event, wait=wait)
        acted: list[DueItem] = []
        for event, _ in await self.events():
            try:
                acted += await self._sweep_event(event, wait=wait)
            except SweepBusyError as error:
                log.info("event %d left to the sweep under way: %s", event.tournament_id, error)
        return acted

    async def _sweep_game(self, event: CorrespondenceEvent, game_id: int) -> list[DueItem]:
        return await self._sweep_event(event, only=game_id)

    async def _sweep_event(
        self, event: CorrespondenceEvent, only: int | None = None, wait: float | None = None
    ) -> list[DueItem]:
        """Sweep the event (or one game of it) with its lock and lease, waiting for them up
        to ``wait`` seconds in all."""
        today = self.today()
        if today < event.started:
            return []
        wait = self.sweep_wait if wait is None else wait
        deadline = monotonic() + wait
        busy = SweepBusyError(
            f"another sweep of correspondence event {event.tournament_id} is under way (in "
            "this hub process or another sharing its store); try again in a minute"
        )
        lock = self._sweeping.setdefault(event.tournament_id, asyncio.Lock())
        try:
            async with asyncio.timeout(wait):
                await lock.acquire()
        except TimeoutError:
            raise busy from None
        lease = self.lease_of(event.tournament_id)
        try:
            if not await lease.take(max(0.0, deadline - monotonic())):
                raise busy
            return await self._sweep_held(event, only, today, lease)
        finally:
            # Also after a failed or cancelled take: its write may still have gone through.
            try:
                await lease.give_back()
            except Exception:  # it lapses by itself; the sweep's outcome stands
                log.exception("the sweep's lease of event %d was not given back",
                              event.tournament_id)  # fmt: skip
            lock.release()

    async def _sweep_held(
        self, event: CorrespondenceEvent, only: int | None, today: date, lease: Lease
    ) -> list[DueItem]:
        """The sweep, with the event's lock and lease held (renewed as it goes)."""
        games = await self._games.games(event, only=only)
        by_player = await self._games.leaves(event)
        states = await self._games.adjudications(event, [g.game_id for g in games])
        acted: list[DueItem] = []
        for game in games:
            if not await lease.renew():  # lost only after LEASE_SECONDS unrenewed
                log.warning("the correspondence sweep lost its lease; stopped before game %d",
                            game.game_id)  # fmt: skip
                break
            state = states[game.game_id]
            try:
                if state is not None and state.process.stage not in (
                    Stage.ASKED,
                    Stage.CONTINUED,
                ):
                    await self.adjudications.lapse(game.pairing, state, today)
                    continue  # with the adjudicator: no clock rulings
                if not game.record.result.is_decided:
                    acted += await self._sweep_one(event, game, by_player, today)
            except RelayError as error:
                log.error("correspondence game %d left out of the sweep: %s",
                          game.game_id, error)  # fmt: skip
        return acted

    async def _sweep_one(
        self,
        event: CorrespondenceEvent,
        game: CorrespondenceGame,
        by_player: Mapping[int, tuple[Leave, ...]],
        today: date,
    ) -> list[DueItem]:
        acted: list[DueItem] = []
        game_leaves = leaves_for(game.pairing.game, by_player)
        for item in _due(game.days, control_of(event), today, game_leaves, game.done):
            if await self._act(event, game, item, today):
                pairing = game.pairing
                acted.append(
                    DueItem(game.game_id, pairing.white.name, pairing.black.name, item, today)
                )
            if item.kind in _ENDINGS:
                break
        return acted

    async def _act(
        self, event: CorrespondenceEvent, game: CorrespondenceGame, item: Due, today: date
    ) -> bool:
        """Do what ``item`` asks, once; whether it was done now. A ruling is recorded
        whatever the mail does; a letter that cannot go (no mail server, a failure) leaves
        the item due, to be tried at the next sweep."""
        key = (game.days.pending_ply, item.kind.value, item.side)
        if any((row.ply, row.kind, row.side) == key for row in game.done):
            return False
        if item.kind in _ENDINGS:
            result = Result.BLACK_WINS if item.side == "white" else Result.WHITE_WINS
            reason = (
                f"{item.side.capitalize()}: {item.kind.value} since {item.since} ({item.article})"
            )
            await self._desk.set_result(
                game_id=game.game_id, result=result, who=RULES, reason=reason
            )
            sent_to = await self._mail(event, game, item) or ()
        else:
            mailed = await self._mail(event, game, item)
            if mailed is None:
                return False
            sent_to = mailed
        row = CorrespondenceMail(
            game_id=game.game_id,
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

    async def _mail(
        self, event: CorrespondenceEvent, game: CorrespondenceGame, item: Due
    ) -> tuple[str, ...] | None:
        """Mail the letter for ``item``: whom it went to (nobody, when it has no reader with
        an address), or None when it could not go (no mail server; a failure, logged)."""
        written = letter(item, await self._facts(event, game))
        if written is None:
            return ()
        if self.mailer is None:
            return None
        try:
            await self.mailer.send(written)
        except MailError as error:
            log.error("game %d: the %s letter could not be sent: %s",
                      game.game_id, item.kind.value, error)  # fmt: skip
            return None
        return written.to

    async def _facts(self, event: CorrespondenceEvent, game: CorrespondenceGame) -> GameFacts:
        pairing = game.pairing

        def read(session: Session) -> dict[int, str | None]:
            found = contacts(session, player_ids=[pairing.white.id or 0, pairing.black.id or 0])
            return {pid: row.email for pid, row in found.items()}

        emails = await self._recorder.read(read)
        record = game.record
        last: str | None = None
        if record.moves:
            ply = len(record.board.move_stack)
            last = f"{(ply + 1) // 2}.{'' if ply % 2 else '..'}{record.moves[-1].san}"
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
    when the hub sent them for the move being thought about (a row from before that move
    was sent, which an arbiter's correction can leave, is not the move's)."""
    since = days.sent[-1] if days.sent else days.start
    sent = {
        row.kind: row.done_on
        for row in game_done
        if row.ply == days.pending_ply and row.done_on >= since
    }
    return due_today(
        days,
        control,
        today,
        game_leaves,
        reminder=sent.get(DueKind.REMINDER.value),
        informed=sent.get(DueKind.INFORM_TS.value),
    )
