"""A round read at the venue by ``relay agent`` and relayed by ``relay serve``, with real
processes (docs/venue-agent.md): boardsim plays real games on pseudo-terminals, the agent
reads them through the real DGT driver and its queue, and the hub follows the boards as
``agent://hall/N``. What the venue agent's end-to-end tests and benchmarks share
(tests/e2e/test_venue_agent.py, tests/e2e/test_agent_faults.py, bench/venue_faults.py,
bench/venue_agent.py).
"""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chess.pgn
from sqlmodel import Session, select

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.models import AgentInput
from tests.stores import migrated_sqlite

#: The agent's name; the hub follows its board N as ``agent://hall/N``.
AGENT = "hall"
#: Boards of :func:`agent_round` unless told otherwise.
BOARDS = 4


def games_of(pgn: Path) -> list[list[str]]:
    """The games of a PGN file, each as its moves in UCI."""
    games = []
    with pgn.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append([move.uci() for move in game.mainline_moves()])
    return games


def round_event(games: Path, urls: list[str]) -> str:
    """Round 1 of an event file where board n plays the n-th game of ``games`` (cycling, as
    boardsim does) on ``urls[n - 1]``."""
    return render_event_file(event_setup(load_pairings(games, len(urls)), urls))


def agent_urls(boards: int) -> list[str]:
    return [f"agent://{AGENT}/{n}" for n in range(1, boards + 1)]


class VenueAgent:
    """``relay agent`` for the boards on ``ports`` (board n on ``ports[n - 1]``), sending
    to the hub on ``hub_port`` with the queue ``queue`` (``folder/agent-queue.db`` unless
    told); its log goes to ``folder/agent.log``. It can be started again after
    :meth:`kill`, on the same queue."""

    def __init__(
        self,
        folder: Path,
        hub_port: int,
        token: str,
        ports: list[str],
        *,
        queue: Path | None = None,
    ) -> None:
        self.folder = folder
        self.queue = queue or folder / "agent-queue.db"
        boards = [f"{n}={port}" for n, port in enumerate(ports, start=1)]
        self.command = [sys.executable, "-m", "relay.cli", "-v", "agent", *boards]
        self.command += ["--hub", f"http://127.0.0.1:{hub_port}", "--token", token]
        self.command += ["--name", AGENT, "--queue", str(self.queue)]
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        """Start it and wait until it says where it sends (its stderr goes to the log)."""
        with (self.folder / "agent.log").open("a") as log:  # the child keeps its own copy
            process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=log, text=True)
        self.process = process
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "boards to ws://" in first, first
        return process

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self._reap()

    def stop(self) -> None:
        """SIGTERM, as an operator stops it, if it still runs; SIGKILL if it has not ended
        within 30 s (said on stderr: an agent should stop at once)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                print("the agent did not stop within 30 s of SIGTERM: killed", file=sys.stderr)
                self.process.kill()
        self._reap()

    def _reap(self) -> None:
        assert self.process is not None
        assert self.process.stdout is not None
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.process = None


@contextlib.contextmanager
def relay_agent(
    folder: Path, hub_port: int, token: str, ports: list[str]
) -> Iterator[subprocess.Popen[str]]:
    """``relay agent`` started (:class:`VenueAgent`), and stopped at the end."""
    agent = VenueAgent(folder, hub_port, token, ports)
    try:
        yield agent.start()
    finally:
        agent.stop()


def port_of(address: str) -> int:
    """The port of a hub's address (``host:port/``)."""
    return int(address.rstrip("/").rpartition(":")[2])


def operator_token(db: str) -> str:
    engine = open_store(db)
    try:
        with Session(engine) as session:
            token = create_token(session, user="Venue laptop", role="operator")
            session.commit()
    finally:
        engine.dispose()
    return token


def kept_inputs(db: str) -> list[int]:
    """The numbers of the inputs the hub kept, in order."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            return sorted(row.seq for row in session.exec(select(AgentInput)))
    finally:
        engine.dispose()


def agent_status(address: str, token: str, *, timeout: float = 30) -> dict[str, Any]:
    """The hub's ``GET /api/agents`` for the (only) agent."""
    request = urllib.request.Request(
        f"http://{address}api/agents", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        return dict(json.loads(reply.read())[0])


def queue_counters(path: Path) -> tuple[int, int] | None:
    """The agent's queue as its file says, read-only: the last input it numbered and the
    last the hub acknowledged; None while the file cannot be read (missing, or being
    recovered after a kill)."""
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
        try:
            rows = dict(db.execute("SELECT name, value FROM counter").fetchall())
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return int(rows["last_seq"]), int(rows["acked"])


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition`` until true; TimeoutError naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} within {seconds:g} s")
        time.sleep(0.1)


def queue_emptied(path: Path) -> bool:
    """Every input the agent numbered is acknowledged."""
    counters = queue_counters(path)
    return counters is not None and counters[0] == counters[1]


@contextlib.contextmanager
def agent_round(
    folder: Path,
    *,
    seed: int,
    boards: int = BOARDS,
    games: Path | None = None,
    options: tuple[str, ...] = ("--ply-seconds", "0.3", "--touch-seconds", "0.03"),
) -> Iterator[tuple[BoardsimProcess, dict[int, list[str]], Path, str]]:
    """boardsim playing ``games`` (the bundled games unless told) on ``boards`` boards with
    ``options``, and the hub's event file naming them ``agent://hall/N``: boardsim, the
    moves each board will play, the event file and the database's URL."""
    pgn = games or bundled_games()
    sources = games_of(pgn)
    boardsim = BoardsimProcess(pgn, boards, *options, "--seed", str(seed), "--report-moves")
    try:
        expected = {board: sources[(board - 1) % len(sources)] for board in range(1, boards + 1)}
        event = folder / "event.toml"
        event.write_text(round_event(pgn, agent_urls(boards)))
        yield boardsim, expected, event, migrated_sqlite(folder / "round.db")
    finally:
        boardsim.stop()
