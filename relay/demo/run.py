"""The demo's parts (database, simulated boards, hub, web server), started and stopped together.

What a visitor sees is a believable event, run the way an arbiter runs one: sixteen invented
players (for eight boards) with titles, ratings and federations; round 1 paired by the
hub's own Swiss pairing and published; the clocks of every board started centrally; real
games played on simulated DGT boards; results recorded and verified by
:mod:`relay.demo.arbiter` as the games end, so that the bulletin, standings and crosstable
fill in; and a banner on every page saying that it is a simulation.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session

from relay.api.app import create_app
from relay.api.server import RelayServer, listen_socket, make_server, url_of
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.demo.arbiter import DEMO_ARBITER, DemoArbiter
from relay.demo.pgn_round import bundled_games
from relay.demo.roster import RosterError, demo_players
from relay.domain.errors import RefusedError, RelayError
from relay.domain.formats.event_file import BoardSetup, EventSetup, TournamentSetup
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.hub.clock_desk import Outcome
from relay.hub.hub import Hub
from relay.store.engine import open_store
from relay.store.setup import load_event
from relay.store.tournaments import round_pairings

#: The simulated players' thinking time varies by this fraction either way (boardsim's default).
PLY_JITTER = 0.5

log = logging.getLogger(__name__)

#: How long the simulator may take to open its boards.
BOARDSIM_START_SECONDS = 30.0
#: A clock whose board is still opening is started again, this often, this far apart.
CLOCK_START_TRIES = 10
CLOCK_RETRY_SECONDS = 0.5

#: Shown at the top of every page while the demo runs.
BANNER = (
    "Simulation: invented players, real games played on simulated boards. "
    "Nothing here is a real event."
)

#: The demo tournament: a Swiss open, as most events that relay games are, with the time
#: control the simulated clocks are set to.
ROUNDS = 7
TIME_CONTROL = "5400+30"
BOARDSIM_TIME_CONTROL = "90+30"


class DemoError(RuntimeError, RelayError):
    """The demo could not start (the simulator failed, the port is taken, ...)."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    boards: int = 8
    ply_seconds: float = 1.5
    touch_seconds: float = 0.12
    seed: int | None = None
    games: Path = field(default_factory=bundled_games)
    #: Where to keep the demo's games; None means a fresh database removed at the end.
    db_url: str | None = None


def tournament_setup(boards: int, ports: list[str]) -> EventSetup:
    """The demo open: ``2 * boards`` players, one electronic board per board of a round,
    and no round yet (the hub pairs round 1). Each run is a tournament of its own, so a
    database kept with ``--db`` holds one per run."""
    try:
        players = demo_players(2 * boards)
    except RosterError as error:
        raise DemoError(str(error)) from None
    started = datetime.now()
    return EventSetup(
        tournament=TournamentSetup(
            name=f"chess-relay Demo Open {started:%Y-%m-%d %H:%M:%S}",
            site="Simulated boards",
            start_date=started.date(),
            time_control=TIME_CONTROL,
            rounds=ROUNDS,
            pairing_system=PairingSystem.SWISS,
        ),
        players=players,
        boards=tuple(BoardSetup(number, port) for number, port in enumerate(ports, start=1)),
        rounds=(),
    )


@dataclass(frozen=True, slots=True)
class DemoBoard:
    board: int
    game_id: int
    port: str
    white: str
    black: str


class Demo:
    """The whole demo in one event loop, plus the ``boardsim`` process."""

    def __init__(self, settings: Settings, options: DemoOptions) -> None:
        if options.boards < 1:
            raise DemoError("the demo needs at least one board")
        self.options = options
        self._temp: tempfile.TemporaryDirectory[str] | None = None
        if options.db_url is None:
            self._temp = tempfile.TemporaryDirectory(prefix="relay-demo-")
            settings = replace(settings, db_url=f"sqlite:///{self._temp.name}/demo.db")
        else:
            settings = replace(settings, db_url=options.db_url)
        # A placement must be decided before the next move starts, or moves are missed:
        # keep the settle time well under the shortest thinking time of the simulated players.
        shortest_think = options.ply_seconds * (1 - PLY_JITTER)
        # The simulated boards report each change at once (no sensor sweep).
        settle = min(settings.settle_seconds, shortest_think / 3)
        self.settings = replace(
            settings,
            settle_seconds=settle,
            board_sweep_seconds=0.0,
            banner=BANNER if not settings.banner else f"{BANNER} {settings.banner}",
        )
        self.boards: list[DemoBoard] = []
        self.round_id = 0
        self.url = ""
        self._engine: Engine | None = None
        self._hub: Hub | None = None
        self._boardsim: asyncio.subprocess.Process | None = None
        self._server: RelayServer | None = None
        self._serving: asyncio.Task[None] | None = None
        self.finished_boards: set[int] = set()
        self._watcher: asyncio.Task[None] | None = None
        self._arbiter: DemoArbiter | None = None

    async def start(self) -> str:
        """Start everything and return the viewer's URL."""
        try:
            return await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> str:
        self._engine = open_store(self.settings.db_url)
        self._hub = Hub(self.settings, self._engine, MemoryBus())
        # The simulated players sit at their boards until the clocks are started.
        ports = await self._start_boardsim()
        tournament_id = self._load(tournament_setup(self.options.boards, ports))
        try:
            pairings = await self._hub.pairings.pair_next(
                tournament_id=tournament_id, who=DEMO_ARBITER
            )
        except RefusedError as error:  # the desk's refusal, or its pairing system's
            raise DemoError(f"round 1 could not be paired: {error}") from None
        self.round_id = pairings.round_id
        await self._hub.desk.publish(round_id=self.round_id, published=True, who=DEMO_ARBITER)
        self.boards = await self._read_boards()
        self._arbiter = DemoArbiter(self._hub, {b.board: b.game_id for b in self.boards})
        failed = await self._hub.attach_round(self.round_id)
        if failed:
            raise DemoError("; ".join(failed.values()))
        await self._start_clocks()
        sock = listen_socket(self.settings.host, self.settings.port)
        self._server = make_server(create_app(self.settings, self._hub))
        self._serving = asyncio.create_task(self._server.serve(sockets=[sock]))
        self.url = url_of(sock)
        return self.url

    def _load(self, setup: EventSetup) -> int:
        assert self._engine is not None
        with Session(self._engine) as session:
            tournament_id = load_event(session, setup).tournament_id
            session.commit()
            return tournament_id

    async def _read_boards(self) -> list[DemoBoard]:
        """Round 1's games: each is played on the electronic board of its board number."""
        assert self._hub is not None
        round_id = self.round_id

        def read(session: Session) -> list[DemoBoard]:
            return [
                DemoBoard(p.game.board, p.game.id or 0, p.eboard.url, p.white.name, p.black.name)
                for p in round_pairings(session, round_id=round_id)
                if p.eboard is not None
            ]

        return await self._hub.recorder.run(read)

    async def _start_clocks(self) -> None:
        """Start every board's clock centrally, as the arbiter does at the start of a round;
        a clock that has not answered yet (its board still opening) is started again."""
        assert self._hub is not None
        waiting: list[int] | None = None
        for _ in range(CLOCK_START_TRIES):
            reports = await self._hub.clocks.start(
                round_id=self.round_id, game_ids=waiting, who=DEMO_ARBITER
            )
            started = (Outcome.STARTED, Outcome.HUB_TIMED)
            waiting = [r.game_id for r in reports if r.outcome not in started]
            if not waiting:
                return
            await asyncio.sleep(CLOCK_RETRY_SECONDS)
        raise DemoError(f"the clocks of games {waiting} did not start")

    async def _start_boardsim(self) -> list[str]:
        options = self.options
        command = [
            sys.executable,
            "-m",
            "boardsim",
            "serve",
            "--pgn",
            str(options.games),
            "--boards",
            str(options.boards),
            "--ply-seconds",
            str(options.ply_seconds),
            "--touch-seconds",
            str(options.touch_seconds),
            "--time-control",
            BOARDSIM_TIME_CONTROL,
            "--wait-for-clock",
        ]
        if options.seed is not None:
            command += ["--seed", str(options.seed)]
        # Its own session: a Ctrl-C in the terminal stops the demo, which then stops the
        # simulator after the hub has let go of the boards.
        self._boardsim = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, start_new_session=True
        )
        assert self._boardsim.stdout is not None
        ports: list[str] = []
        try:
            async with asyncio.timeout(BOARDSIM_START_SECONDS):
                while True:
                    line = await self._boardsim.stdout.readline()
                    if not line:
                        raise DemoError("boardsim exited before its boards were ready")
                    record = json.loads(line)
                    if record["event"] == "board":
                        ports.append(record["port"])
                    elif record["event"] == "ready":
                        break
        except TimeoutError:
            raise DemoError("boardsim did not open its boards in time") from None
        self._watcher = asyncio.create_task(self._watch_boardsim(self._boardsim.stdout))
        return ports

    async def _watch_boardsim(self, output: asyncio.StreamReader) -> None:
        while line := await output.readline():
            record = json.loads(line)
            if record["event"] == "finished":
                self.finished_boards.add(record["board"])
                log.info("board %s has played its game", record["board"])
                if self._arbiter is not None:
                    self._arbiter.board_finished(
                        record["board"], plies=record["plies"], result=record["result"]
                    )

    async def stop(self) -> None:
        """Stop the server, the hub and the simulator; safe to call more than once."""
        # Nothing new for the arbiter once the simulator's reports are no longer read.
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
            self._watcher = None
        arbiter, self._arbiter = self._arbiter, None
        if arbiter is not None:
            await arbiter.close()
        if self._server is not None and self._serving is not None:
            self._server.should_exit = True
            await asyncio.gather(self._serving, return_exceptions=True)
            self._server = self._serving = None
        if self._hub is not None:
            await self._hub.close()
            self._hub = None
        if self._boardsim is not None:
            if self._boardsim.returncode is None:
                self._boardsim.terminate()
            await self._boardsim.wait()
            self._boardsim = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None
