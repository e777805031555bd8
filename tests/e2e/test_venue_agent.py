"""A round read at the venue by ``relay agent`` and relayed by a hub elsewhere
(docs/venue-agent.md), through a link that is cut and then blackholed mid-round (nothing
passes and nothing closes, until the agent's pings go unanswered and it connects again):
every game is stored move for move, no input is kept twice, and the hub shows the agent
gone while the link is cut.

Real processes: boardsim plays real games on pseudo-terminals, ``relay agent`` reads them
through the real DGT driver and its queue, a TCP proxy of the test's own stands for the
venue's internet, and ``relay serve`` follows the boards as ``agent://hall/N``.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from sqlmodel import Session, select

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import bundled_games
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.models import AgentInput
from tests.e2e.test_kill_restart import differences, event_file, follow, source_games, stored_moves
from tests.link_proxy import LinkProxy
from tests.relay_serve import relay_serve

BOARDS = 4
FINISH_SECONDS = 240


@contextlib.contextmanager
def relay_agent(
    folder: Path, hub_port: int, token: str, ports: list[str]
) -> Iterator[subprocess.Popen[str]]:
    boards = [f"{n}={port}" for n, port in enumerate(ports, start=1)]
    command = [sys.executable, "-m", "relay.cli", "-v", "agent", *boards]
    command += ["--hub", f"http://127.0.0.1:{hub_port}", "--token", token, "--name", "hall"]
    command += ["--queue", str(folder / "agent-queue.db")]
    with (
        (folder / "agent.log").open("a") as log,
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True) as agent,
    ):
        assert agent.stdout is not None
        assert "boards to ws://" in agent.stdout.readline()
        try:
            yield agent
        finally:
            agent.terminate()
            agent.wait(timeout=30)


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


def agent_status(address: str, token: str) -> dict[str, object]:
    request = urllib.request.Request(
        f"http://{address}api/agents", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return dict(json.loads(reply.read())[0])


@contextlib.contextmanager
def agent_round(
    folder: Path, *, seed: int
) -> Iterator[tuple[BoardsimProcess, dict[int, list[str]], Path, str]]:
    """boardsim playing the bundled games on ``BOARDS`` boards, and the hub's event file
    naming them ``agent://hall/N``: boardsim, the moves each board will play, the event
    file and the database's URL."""
    sources = source_games()
    boardsim = BoardsimProcess(
        bundled_games(),
        BOARDS,
        *("--ply-seconds", "0.3", "--touch-seconds", "0.03", "--seed", str(seed)),
        "--report-moves",
    )
    try:
        expected = {board: sources[(board - 1) % len(sources)] for board in range(1, BOARDS + 1)}
        event = folder / "event.toml"
        event.write_text(event_file([f"agent://hall/{n}" for n in range(1, BOARDS + 1)]))
        yield boardsim, expected, event, f"sqlite:///{folder / 'round.db'}"
    finally:
        boardsim.stop()


def test_a_round_through_an_agent_survives_a_cut_and_a_blackholed_link(tmp_path: Path) -> None:
    with (
        agent_round(tmp_path, seed=5) as (boardsim, expected, event, db),
        relay_serve(tmp_path, event, db) as (_, address),
    ):
        operator = operator_token(db)
        stream = f"ws://{address}api/rounds/1/stream"
        with (
            LinkProxy(port_of(address)) as proxy,
            relay_agent(tmp_path, proxy.port, operator, boardsim.ports),
        ):
            follow(stream, lambda plies: sum(plies.values()) >= 40, 120)
            proxy.cut()
            boardsim.wait_until(lambda: len(boardsim.moved) >= 70, 60, "moves")
            assert agent_status(address, operator)["connected"] is False
            proxy.restore()
            follow(stream, lambda plies: sum(plies.values()) >= 90, 120)
            proxy.blackhole()
            # The agent hears no answer to its pings and connects again (held too).
            proxy.wait_accepted(3, 60)
            assert len(boardsim.moved) > 100  # the boards played on meanwhile
            proxy.restore()
            finished = {board: len(moves) for board, moves in expected.items()}
            with contextlib.suppress(AssertionError):  # the comparison below says what
                follow(stream, lambda plies: plies == finished, FINISH_SECONDS)
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        kept = kept_inputs(db)
        assert kept == list(range(1, len(kept) + 1))  # each input kept once, none missing


def test_a_hub_killed_mid_round_loses_nothing_the_agent_sent(tmp_path: Path) -> None:
    """kill -9 of the hub while the agent sends: the agent keeps what was not acknowledged,
    the hub started again on the same database resends nothing twice and picks each board
    up from what it had kept."""
    with agent_round(tmp_path, seed=9) as (boardsim, expected, event, db):
        with LinkProxy(1) as proxy, contextlib.ExitStack() as agent_scope:
            with relay_serve(tmp_path, event, db) as (first, address):
                proxy.retarget(port_of(address))
                operator = operator_token(db)
                agent_scope.enter_context(
                    relay_agent(tmp_path, proxy.port, operator, boardsim.ports)
                )
                follow(f"ws://{address}api/rounds/1/stream", lambda p: sum(p.values()) >= 60, 120)
                first.kill()  # SIGKILL: no shutdown, no flush
                first.wait(timeout=30)
            made = len(boardsim.moved)
            boardsim.wait_until(lambda: len(boardsim.moved) >= made + 40, 60, "moves")
            with relay_serve(tmp_path, event, db) as (_, again):
                proxy.retarget(port_of(again))
                finished = {board: len(moves) for board, moves in expected.items()}
                with contextlib.suppress(AssertionError):  # the comparison below says what
                    follow(f"ws://{again}api/rounds/1/stream", lambda p: p == finished, 240)
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        kept = kept_inputs(db)
        assert kept == list(range(1, len(kept) + 1))  # each input kept once, none missing
