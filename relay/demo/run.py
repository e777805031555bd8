"""The demo's parts (database, simulated boards, hub, web server), started and stopped together.

What a visitor sees is a believable event: sixteen invented players (for eight boards) with
titles, ratings and federations; round 1 paired by the hub's own Swiss pairing, as an
arbiter would have it paired; real games played on simulated DGT boards; results recorded
and verified by :mod:`relay.demo.arbiter` as the games end, so that the bulletin, standings
and crosstable fill in; and a banner on every page saying that it is a simulation.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import chess.pgn
from sqlalchemy import Engine
from sqlmodel import Session

from relay.api.app import create_app
from relay.api.server import RelayServer, listen_socket, make_server, url_of
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.demo.arbiter import DEMO_ARBITER, DemoArbiter, PlayedGame
from relay.demo.pgn_round import bundled_games
from relay.demo.roster import RosterError, demo_players
from relay.domain.formats.event_file import BoardSetup, EventSetup, TournamentSetup
from relay.hub.hub import Hub
from relay.hub.pairing_desk import PairingRefusedError
from relay.store.engine import open_store
from relay.store.models import Player
from relay.store.setup import load_event
from relay.store.tournaments import get_round, list_eboards, list_games

#: The simulated players' thinking time varies by this fraction either way (boardsim's default).
PLY_JITTER = 0.5

log = logging.getLogger(__name__)

#: How long the simulator may take to open its boards.
BOARDSIM_START_SECONDS = 30.0

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


class DemoError(RuntimeError):
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
    and no round yet (the hub pairs round 1)."""
    try:
        players = demo_players(2 * boards)
    except RosterError as error:
        raise DemoError(str(error)) from None
    return EventSetup(
        tournament=TournamentSetup(
            name="chess-relay Demo Open",
            site="Simulated boards",
            start_date=date.today(),
            time_control=TIME_CONTROL,
            rounds=ROUNDS,
            pairing_system="swiss",
        ),
        players=players,
        boards=tuple(BoardSetup(number, port) for number, port in enumerate(ports, start=1)),
        rounds=(),
    )


def played_games(games: Path, boards: int) -> list[tuple[int, str]]:
    """What boardsim plays on each board (the file's games in turn, cycling through it as
    boardsim does): the number of plies and the result."""
    played: list[tuple[int, str]] = []
    with games.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            played.append((len(list(game.mainline_moves())), game.headers.get("Result", "*")))
    if not played:
        raise DemoError(f"{games}: no games")
    return [played[i % len(played)] for i in range(boards)]


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
            banner=settings.banner or BANNER,
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
        # Paired before the boards start playing: the simulated players do not wait.
        tournament_id = self._load(tournament_setup(self.options.boards, ports=[]))
        try:
            pairings = await self._hub.pairings.pair_next(
                tournament_id=tournament_id, who=DEMO_ARBITER
            )
        except PairingRefusedError as error:
            raise DemoError(f"round 1 could not be paired: {error}") from None
        self.round_id = pairings.round_id
        await self._hub.desk.publish(round_id=self.round_id, published=True, who=DEMO_ARBITER)
        ports = await self._start_boardsim()
        self._load(tournament_setup(self.options.boards, ports))  # adds the boards
        games = await self._assign_boards()
        failed = await self._hub.attach_round(self.round_id)
        if failed:
            raise DemoError("; ".join(failed.values()))
        played = played_games(self.options.games, self.options.boards)
        self._arbiter = DemoArbiter(
            self._hub,
            {
                board.board: PlayedGame(board.game_id, plies, result)
                for board, (plies, result) in zip(games, played, strict=True)
            },
        )
        self.boards = games
        sock = listen_socket(self.settings.host, self.settings.port)
        self._server = make_server(create_app(self.settings, self._hub))
        self._serving = asyncio.create_task(self._server.serve(sockets=[sock]))
        self.url = url_of(sock)
        return self.url

    def _load(self, setup: EventSetup) -> int:
        assert self._engine is not None
        with Session(self._engine) as session:
            return load_event(session, setup).tournament_id

    async def _assign_boards(self) -> list[DemoBoard]:
        """Round 1's games, each on the electronic board of its board number."""
        assert self._hub is not None
        round_id = self.round_id

        def read(session: Session) -> list[tuple[int, int, int | None, str, str, str]]:
            tournament_id = get_round(session, round_id=round_id).tournament_id
            eboards = {e.number: e for e in list_eboards(session, tournament_id=tournament_id)}
            rows = []
            for game in list_games(session, round_id=round_id):
                eboard = eboards[game.board]
                assert game.id is not None
                white, black = (session.get(Player, p) for p in (game.white_id, game.black_id))
                assert white is not None
                assert black is not None
                rows.append((game.board, game.id, eboard.id, eboard.url, white.name, black.name))
            return rows

        boards = []
        for board, game_id, eboard_id, port, white, black in await self._hub.recorder.run(read):
            await self._hub.desk.assign(game_id=game_id, eboard_id=eboard_id, who=DEMO_ARBITER)
            boards.append(DemoBoard(board, game_id, port, white, black))
        return boards

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
                    self._arbiter.board_finished(record["board"])

    async def stop(self) -> None:
        """Stop the server, the hub and the simulator; safe to call more than once."""
        if self._arbiter is not None:
            await self._arbiter.close()
            self._arbiter = None
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
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
            self._watcher = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None
