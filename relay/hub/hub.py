"""The hub: attaches boards to games and runs their sessions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace

from sqlalchemy import Engine
from sqlmodel import Session

from drivers.dgt.bwtime import HEADER_2015, PRE_2015
from drivers.dgt.protocol import DgtOptions
from drivers.dgt.transport import DgtSerialConnection, PortError
from drivers.link import BoardLink
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.clock.orientation import ClockSide, clock_setting
from relay.domain.clock.time_control import TimeControl
from relay.domain.errors import RefusedError, UnavailableError
from relay.domain.game.events import event_from_data
from relay.domain.game.laws import rules_for
from relay.domain.game.record import GameRecord
from relay.domain.game.tracker import PositionTracker
from relay.hub.agent_links import AgentBoardLink, AgentLinks, parse_address
from relay.hub.arbiter_desk import ArbiterDesk
from relay.hub.board_session import BoardSession
from relay.hub.clock_desk import ClockDesk
from relay.hub.correspondence import CorrespondenceDesk
from relay.hub.game_views import GameViews, control_of
from relay.hub.input_desk import InputDesk
from relay.hub.ladders import LadderDesk
from relay.hub.mailer import Mailer, MailSettings
from relay.hub.outputs.desk import OutputDesk
from relay.hub.pairing_desk import PairingDesk
from relay.hub.player_names import PlayerNames
from relay.hub.recorder import GameRecorder
from relay.store.access import Identity, audit
from relay.store.event_log import read_events
from relay.store.models import EBoard
from relay.store.tournaments import (
    game_pairing,
    games_on_eboard,
    get_eboard,
    get_game,
    list_games,
    set_eboard_clock,
    set_eboard_url,
)

log = logging.getLogger(__name__)


class BoardInUseError(ValueError, RefusedError):
    """The game already follows a board."""


class BoardUnavailableError(OSError, UnavailableError):
    """The board's port cannot be opened."""


class HubClosingError(RuntimeError, UnavailableError):
    """The hub is stopping: no board is attached any more."""


class NoBoardAssignedError(LookupError, RefusedError):
    """The game has no electronic board assigned."""


class Hub:
    """Owns the board sessions of one process and the recorder they share."""

    def __init__(self, settings: Settings, engine: Engine, bus: MemoryBus) -> None:
        self.settings = settings
        self.engine = engine
        self.bus = bus
        self.recorder = GameRecorder(engine, bus)
        self.views = GameViews(engine, bus)
        self.sessions: dict[int, BoardSession] = {}
        #: The time of arbiters' and players' changes, and the day of correspondence games:
        #: the system's, or a test's that moves days on in an instant.
        self.now: Callable[[], float] = time.time
        self.desk = ArbiterDesk(
            self.recorder,
            self.views,
            self.game_changed,
            lambda game_id: game_id in self.sessions,
            now=lambda: self.now(),
        )
        self.clocks = ClockDesk(self.recorder, self.views, self.sessions)
        self.input = InputDesk(self.desk, self.views, lambda game_id: game_id in self.sessions)
        self.pairings = PairingDesk(self.recorder, self.views)
        self.names = PlayerNames(self.recorder, self.views)
        #: Venue agents and the boards they read (docs/venue-agent.md).
        self.agents = AgentLinks(self.recorder)
        self.outputs = OutputDesk(engine, self.views)
        #: Club ladders (docs/ladders.md).
        self.ladders = LadderDesk(self.recorder, self.views)
        #: Correspondence events (docs/correspondence.md).
        self.correspondence = CorrespondenceDesk(
            self.recorder,
            self.views,
            self.desk,
            lambda: self.now(),
            page_url=lambda game_id: f"{settings.public_url or ''}/correspondence?game={game_id}",
        )
        if (address := settings.smtp_address()) is not None:
            self.correspondence.mailer = Mailer(
                MailSettings(
                    host=address[0],
                    port=address[1],
                    sender=settings.smtp_sender,
                    starttls=settings.smtp_starttls,
                    user=settings.smtp_user,
                    password=settings.smtp_password,
                )
            )
        self._tasks: set[asyncio.Task[None]] = set()
        self._links: dict[int, BoardLink] = {}
        #: The port each followed game's board is on, by game.
        self._ports: dict[int, str] = {}
        self._attaching: set[int] = set()
        self._closing = False
        bits = PRE_2015 if settings.dgt_turn_bits == "pre-2015" else HEADER_2015
        inverted = settings.dgt_clock_bit == "clock-connected"
        self._dgt_options = DgtOptions(status_bits=replace(bits, no_clock_when_clear=inverted))

    async def attach_dgt_board(
        self, *, game_id: int, url: str, clock_side: ClockSide | None = None
    ) -> BoardSession:
        """Open the DGT board at ``url`` and follow it as game ``game_id``.

        The game continues from its stored log, so a board re-attached after a restart
        picks up where the game stood (and which side of the clock White's is, if that was
        decided). A lost port is reopened by the driver. The clock setting is
        ``clock_side``, else that of the electronic board assigned to the game, else
        ``auto``.

        A board still followed by a finished game (last round's, on the same board number)
        is handed over to this one; a board whose game is still in play is refused.

        ``agent://AGENT/BOARD`` is a board a venue agent reads: the game follows it on the
        venue's time, whether or not the agent is connected yet.
        """
        address = parse_address(url)
        if address is not None:

            async def through_agent(resuming: bool) -> BoardLink:
                return await self.agents.board(*address, game_id=game_id)

            return await self._attach(
                game_id, through_agent, url, port=url, clock_side=clock_side, agent_board=address
            )

        async def connect(resuming: bool) -> BoardLink:
            # A game with stored moves is resumed: the board's log may hold moves made
            # while no hub was listening.
            options = replace(self._dgt_options, resume=resuming)
            try:
                return await DgtSerialConnection.open(url, options)
            except PortError as error:
                raise BoardUnavailableError(str(error)) from None

        return await self._attach(game_id, connect, url, port=url, clock_side=clock_side)

    async def _claim_port(self, url: str, *, for_game: int) -> str:
        """Claim the board at ``url`` for a game being attached; returns the port's key.

        The claim is taken before the port is opened, so two attaches cannot both open it;
        the key names a device by its real path (``/dev/serial/by-id/...`` and the
        ``/dev/ttyACM0`` it links to are one board).
        """
        key = await _port_key(url)
        while (holder := self._port_holder(key, for_game)) is not None:
            if holder in self._attaching:
                raise BoardInUseError(f"the board at {url} is being attached to game {holder}")
            session = self.sessions.get(holder)
            if session is None:  # its session went away: a stale claim
                del self._ports[holder]
                continue
            if not session.finished:
                raise BoardInUseError(f"the board at {url} follows game {holder}, still in play")
            log.info("the board at %s goes from game %s to game %s", url, holder, for_game)
            with contextlib.suppress(KeyError):  # it went away meanwhile
                await self.detach(holder)
            self._ports.pop(holder, None)
        self._ports[for_game] = key
        return key

    def _port_holder(self, key: str, for_game: int) -> int | None:
        return next((g for g, port in self._ports.items() if port == key and g != for_game), None)

    async def attach_game(self, game_id: int) -> BoardSession:
        """Follow the electronic board assigned to the game."""

        def assigned(session: Session) -> EBoard:
            game = get_game(session, game_id=game_id)
            if game.eboard_id is None:
                raise NoBoardAssignedError(f"game {game_id} has no board assigned")
            return get_eboard(session, eboard_id=game.eboard_id)

        eboard = await self.recorder.run(assigned)
        return await self.attach_dgt_board(game_id=game_id, url=eboard.url)

    async def attach_round(self, round_id: int) -> dict[int, str]:
        """Follow every board of the round that has one assigned and is not followed yet.

        Returns the games whose board could not be opened, with the reason; those boards
        can be attached again later through the API.
        """
        games = await self.recorder.run(lambda session: list_games(session, round_id=round_id))
        failed: dict[int, str] = {}
        for game in games:
            assert game.id is not None
            if game.eboard_id is None or game.id in self.sessions:
                continue
            try:
                await self.attach_game(game.id)
            except (BoardUnavailableError, BoardInUseError) as error:
                failed[game.id] = str(error)
                log.error("game %s: %s", game.id, error)
        return failed

    def game_changed(self, game_id: int, record: GameRecord) -> None:
        """An arbiter changed the game: the board following it continues from the change."""
        session = self.sessions.get(game_id)
        if session is not None:
            rules = session.tracker.rules
            session.restart(
                PositionTracker(record.board, settling=self.settings.settling(), rules=rules)
            )
            session.finished = record.result.is_decided

    def board_health(self, game_id: int) -> dict[str, object]:
        """What the arbiter's console shows of a game's board: attached and connected, the
        driver's health (active, delayed, not responding, disconnected), battery, a board
        set up the wrong way round, seconds since it was last heard, which side of its clock
        White's is (and why), its clock's times."""
        session = self.sessions.get(game_id)
        if session is None:
            return {"attached": False, "connected": False, "unsaved": 0}
        link = self._links.get(game_id)
        # A board read by a venue agent is out of reach while its agent is away, whatever
        # the board last said.
        reachable = not isinstance(link, AgentBoardLink) or link.reachable
        health: dict[str, object] = {
            "attached": True,
            "connected": session.connected and reachable,
            "unsaved": session.unsaved,
            "clock_connected": session.clock_connected,
        }
        heard = session.last_heard
        health["last_seen_seconds"] = None if heard is None else round(time.monotonic() - heard, 1)
        status = session.status
        if status is not None:
            health.update(
                health=status.health.value,
                serial=status.serial,
                battery_percent=status.battery_percent,
                rotated=status.rotated,
            )
        orientation = session.orientation
        health["orientation"] = {
            "setting": orientation.setting,
            "white_on": orientation.white_on,
            "decided": orientation.decided,
            "source": orientation.source,
            "reason": orientation.explain(),
            "against": orientation.against,
        }
        reading = session.clock_reading
        if reading is not None:
            health["clock"] = {
                "left": reading.left.seconds,
                "right": reading.right.seconds,
                "running": reading.running,
                "battery_low": reading.battery_low,
            }
        return health

    async def attach_link(
        self, *, game_id: int, link: BoardLink, clock_side: ClockSide | None = None
    ) -> BoardSession:
        """Follow an already open board link (a bus board, a scripted board) as a game; its
        clock setting as for :meth:`attach_dgt_board`."""

        async def given(resuming: bool) -> BoardLink:
            return link

        return await self._attach(game_id, given, type(link).__name__, clock_side=clock_side)

    async def set_clock_side(self, *, eboard_id: int, clock: ClockSide, who: Identity) -> EBoard:
        """Change an electronic board's clock setting; the games following it read their
        clocks by it from now on (a change of side is recorded in each game's log)."""

        def work(session: Session) -> tuple[EBoard, list[int]]:
            before = get_eboard(session, eboard_id=eboard_id).clock
            eboard = set_eboard_clock(session, eboard_id=eboard_id, clock=clock)
            audit(
                session,
                who=who,
                action="set-clock-side",
                target=f"eboard {eboard_id}",
                detail={"before": before, "after": clock},
            )
            games = games_on_eboard(session, eboard_id=eboard_id)
            session.commit()
            return eboard, games

        eboard, games = await self.recorder.run(work)
        for game_id in games:
            session = self.sessions.get(game_id)
            if session is not None:
                session.set_clock_side(clock)
        return eboard

    async def set_eboard_url(
        self, *, eboard_id: int, url: str, who: Identity
    ) -> tuple[EBoard, dict[int, str]]:
        """Move an electronic board to another port (a USB board replugged comes back as
        another ``/dev/ttyACM*``). A game following it is followed on the new port from now
        on, from its stored log as after a restart. Returns the board, and the games whose
        board could not be opened there, with the reason (attach them again later)."""

        def work(session: Session) -> EBoard:
            before = get_eboard(session, eboard_id=eboard_id).url
            eboard = set_eboard_url(session, eboard_id=eboard_id, url=url)
            audit(
                session,
                who=who,
                action="set-eboard-port",
                target=f"eboard {eboard_id}",
                detail={"before": before, "after": url},
            )
            session.commit()
            return eboard

        eboard = await self.recorder.run(work)
        return eboard, await self.follow_eboards_as_stored((eboard_id,))

    async def follow_eboards_as_stored(self, eboard_ids: Iterable[int]) -> dict[int, str]:
        """The games following these electronic boards follow them as the store has them
        now: a board on another port is opened there (the game resumes from its log); one
        with another clock setting is read by it. Returns the games whose board could not
        be opened, with the reason."""

        def work(session: Session) -> list[tuple[int, EBoard]]:
            return [
                (game_id, get_eboard(session, eboard_id=eboard_id))
                for eboard_id in eboard_ids
                for game_id in games_on_eboard(session, eboard_id=eboard_id)
            ]

        failed: dict[int, str] = {}
        for game_id, eboard in await self.recorder.run(work):
            session = self.sessions.get(game_id)
            if session is None:
                continue
            if session.orientation.setting != eboard.clock:
                session.set_clock_side(clock_setting(eboard.clock))
            if self._ports.get(game_id) == await _port_key(eboard.url):
                continue
            log.info("game %s: its board moved to %s", game_id, eboard.url)
            with contextlib.suppress(KeyError):  # it went away meanwhile
                await self.detach(game_id)
            try:
                await self.attach_game(game_id)
            except (BoardUnavailableError, BoardInUseError) as error:
                failed[game_id] = str(error)
                log.error("game %s: %s", game_id, error)
        return failed

    async def _attach(
        self,
        game_id: int,
        connect: Callable[[bool], Awaitable[BoardLink]],
        name: str,
        port: str | None = None,
        clock_side: ClockSide | None = None,
        agent_board: tuple[str, str] | None = None,
    ) -> BoardSession:
        if game_id in self.sessions or game_id in self._attaching:
            raise BoardInUseError(f"game {game_id} already has a board")
        if self._closing:
            raise HubClosingError(f"the hub is stopping: game {game_id} is not followed")
        self._attaching.add(game_id)
        attached = False
        try:
            if port is not None:
                await self._claim_port(port, for_game=game_id)

            def load(session: Session) -> tuple[int, GameRecord, TimeControl, ClockSide]:
                pairing = game_pairing(session, game_id=game_id)
                control = control_of(pairing)
                stored = read_events(session, game_id=game_id)
                events = [event_from_data(item.kind, item.data) for item in stored]
                record = GameRecord.from_events(events, control)
                setting = clock_setting(pairing.eboard.clock if pairing.eboard else "auto")
                return pairing.game.round_id, record, control, setting

            round_id, record, control, setting = await self.recorder.run(load)
            link = await connect(bool(record.moves))
            if self._closing:  # close() came while the board was being opened
                link.close("the hub is stopping")
                raise HubClosingError(f"the hub is stopping: game {game_id} is not followed")
            attached = True
        finally:
            self._attaching.discard(game_id)
            if not attached:
                self._ports.pop(game_id, None)
        tracker = PositionTracker(
            record.board, settling=self.settings.settling(), rules=rules_for(control)
        )
        session = BoardSession(
            round_id=round_id,
            game_id=game_id,
            tracker=tracker,
            recorder=self.recorder,
            send=link.send,
            clock_side=setting if clock_side is None else clock_side,
            clock_decided=record.clock_side,
            # Clocks started centrally (before a restart): their running side is the hub's.
            clock_set_by_hub=record.clock.started,
            venue_time=agent_board is not None,
            agent_board=agent_board,
        )
        self.sessions[game_id] = session
        self._links[game_id] = link
        task = asyncio.create_task(self._follow(game_id, session, link))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        log.info("game %s follows the board at %s", game_id, name)
        return session

    async def _follow(self, game_id: int, session: BoardSession, link: BoardLink) -> None:
        try:
            if isinstance(link, AgentBoardLink):
                await session.run(link.stamped_events())
            else:
                await session.run(link.events())
        finally:
            # A board that went away frees its game for another attach.
            if self.sessions.get(game_id) is session:
                del self.sessions[game_id]
                del self._links[game_id]
                self._ports.pop(game_id, None)
            link.close()

    async def detach(self, game_id: int) -> None:
        """Stop following the game's board; its decided moves are saved first."""
        session = self.sessions.get(game_id)
        link = self._links.get(game_id)
        if session is None or link is None:
            raise KeyError(f"game {game_id} has no board")
        link.close("detached")
        await session.ended.wait()

    async def close(self) -> None:
        """Stop following the boards (moves already decided are still recorded), then let go.
        A board being attached meanwhile is let go too (its attach raises
        :class:`HubClosingError`)."""
        self._closing = True
        self.clocks.close()
        await self.outputs.close()
        for task in tuple(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for link in self._links.values():
            link.close()
        for session in self.sessions.values():
            session.ended.set()  # one cancelled before its first step never ran: it is over
        self.sessions.clear()
        self._links.clear()
        self.views.close()
        self.recorder.close()


async def _port_key(url: str) -> str:
    """A port's name for telling boards apart: a device by its real path
    (``/dev/serial/by-id/...`` and the ``/dev/ttyACM0`` it links to are one board)."""
    return await asyncio.to_thread(os.path.realpath, url) if url.startswith("/") else url
