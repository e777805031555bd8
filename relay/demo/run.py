"""The demo's parts (database, simulated boards, hub, web server), started and stopped together."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from importlib import resources
from pathlib import Path

import chess.pgn
from sqlalchemy import Engine
from sqlmodel import Session

from relay.api.app import create_app
from relay.api.server import RelayServer, listen_socket, make_server, url_of
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.formats.event_file import (
    BoardSetup,
    EventSetup,
    PlayerSetup,
    RoundSetup,
    TournamentSetup,
)
from relay.hub.hub import Hub
from relay.store.engine import open_store
from relay.store.setup import load_event
from relay.store.tournaments import list_games, list_rounds

#: The simulated players' thinking time varies by this fraction either way (boardsim's default).
PLY_JITTER = 0.5

log = logging.getLogger(__name__)

#: How long the simulator may take to open its boards.
BOARDSIM_START_SECONDS = 30.0


def bundled_games() -> Path:
    """The PGN file of real games the demo plays."""
    return Path(str(resources.files("relay.demo").joinpath("games.pgn")))


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


@dataclass(frozen=True, slots=True)
class Pairing:
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None

    @classmethod
    def of_headers(cls, headers: chess.pgn.Headers) -> Pairing:
        return cls(
            headers.get("White", "?"),
            headers.get("Black", "?"),
            _rating(headers.get("WhiteElo")),
            _rating(headers.get("BlackElo")),
        )


def _rating(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def load_pairings(games: Path, boards: int) -> list[Pairing]:
    """The players of the first ``boards`` games of ``games``, cycling through the file as
    boardsim does when it has more boards than games."""
    pairings: list[Pairing] = []
    with games.open(encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            pairings.append(Pairing.of_headers(headers))
    if not pairings:
        raise DemoError(f"{games}: no games")
    return [pairings[i % len(pairings)] for i in range(boards)]


def event_setup(pairings: list[Pairing], ports: list[str]) -> EventSetup:
    """Round 1 of the demo tournament: board ``n`` plays the ``n``-th game on port ``n``.

    The same game may be played on several boards, so every board has its own two players.
    """
    players = []
    for board, pairing in enumerate(pairings, start=1):
        players.append(PlayerSetup(2 * board - 1, pairing.white, rating=pairing.white_elo))
        players.append(PlayerSetup(2 * board, pairing.black, rating=pairing.black_elo))
    return EventSetup(
        tournament=TournamentSetup(
            name=f"chess-relay demo {datetime.now().isoformat(timespec='seconds')}",
            site="boardsim",
            start_date=date.today(),
        ),
        players=tuple(players),
        boards=tuple(BoardSetup(number, port) for number, port in enumerate(ports, start=1)),
        rounds=(
            RoundSetup(
                number=1,
                pairings=tuple((2 * b - 1, 2 * b) for b in range(1, len(pairings) + 1)),
                published=True,
            ),
        ),
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
        self.settings = replace(settings, settle_seconds=settle, board_sweep_seconds=0.0)
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

    async def start(self) -> str:
        """Start everything and return the viewer's URL."""
        try:
            return await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> str:
        self._engine = open_store(self.settings.db_url)
        pairings = self._load_pairings()
        ports = await self._start_boardsim()
        self.round_id, game_ids = self._create_round(event_setup(pairings, ports))
        self._hub = Hub(self.settings, self._engine, MemoryBus())
        failed = await self._hub.attach_round(self.round_id)
        if failed:
            raise DemoError("; ".join(failed.values()))
        for number, (game_id, port, pairing) in enumerate(
            zip(game_ids, ports, pairings, strict=True), start=1
        ):
            self.boards.append(DemoBoard(number, game_id, port, pairing.white, pairing.black))
        sock = listen_socket(self.settings.host, self.settings.port)
        self._server = make_server(create_app(self.settings, self._hub))
        self._serving = asyncio.create_task(self._server.serve(sockets=[sock]))
        self.url = url_of(sock)
        return self.url

    def _load_pairings(self) -> list[Pairing]:
        return load_pairings(self.options.games, self.options.boards)

    def _create_round(self, setup: EventSetup) -> tuple[int, list[int]]:
        assert self._engine is not None
        with Session(self._engine) as session:
            report = load_event(session, setup)
            round_ = list_rounds(session, tournament_id=report.tournament_id)[-1]
            assert round_.id is not None
            return round_.id, [game.id or 0 for game in list_games(session, round_id=round_.id)]

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

    async def stop(self) -> None:
        """Stop the server, the hub and the simulator; safe to call more than once."""
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
