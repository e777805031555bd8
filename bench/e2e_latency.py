"""Board to screen: how long after a move's last touch the spectators have it.

500 simulated DGT boards (boardsim, one process, pseudo-terminals, instant sensors, no
clocks) play real games at a hall-like pace; ``relay serve`` follows them from an event file
(the real driver, tracker, SQLite with a full sync per commit, bus and fan-out); 1,000
spectators (a C load generator) follow the round's stream. boardsim reports the wall time of
every move's last touch; each spectator notes when the move arrived.

The hub decides a move once the board has stood still for the settle window (0.25 s), on
purpose. The figure that the design controls is the *added* latency: arrival at the last
spectator minus (last touch + settle window), which is the serial line, the driver, the
timer, the tracker, the commit, the bus and the fan-out. Arrival is the kernel's stamp on
the spectator's socket (see :mod:`bench.spectator_load`): the clients, which share this
machine's two cores with the hub only because the bench must, are a small C program that
reads every socket as soon as it is readable, so its own scheduling is not counted and
frames seldom wait in a socket to be merged with the next one's stamp. Prints p50, p99 and
the maximum, over every delivery (each spectator's receipt of each move) and over the last
spectator of each move, for the moves made in the measured minutes; never fails.

    .venv/bin/python -m bench.e2e_latency [--boards 500] [--clients 1000] [--seconds 120]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.boardsim_process import BoardsimProcess
from bench.spectator_load import SpectatorLoad, build
from relay.demo.pgn_round import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file

SETTLE_SECONDS = 0.25
#: Load generators (each a C process reading its share of the spectators).
CLIENT_PROCESSES = 1


def event_file(ports: list[str]) -> str:
    """The demo's round 1 on these ports: board n plays the n-th bundled game."""
    setup = event_setup(load_pairings(bundled_games(), len(ports)), ports)
    return render_event_file(setup)


def start_server(
    folder: Path, name: str, event: Path | None, redis: str | None
) -> tuple[subprocess.Popen[str], int]:
    """``relay serve``: the hub (with the event file) or a stream server (without)."""
    env = {
        **os.environ,
        "RELAY_SETTLE_SECONDS": str(SETTLE_SECONDS),
        "RELAY_BOARD_SWEEP_SECONDS": "0",
        "RELAY_RATE_LIMIT": "0",
    }
    command = [sys.executable, "-m", "relay.cli", "serve", *([str(event)] if event else [])]
    command += ["--port", "0", "--db", f"sqlite:///{folder / 'latency.db'}"]
    if redis is not None:
        command += ["--redis", redis]
        env["RELAY_REDIS_NAMESPACE"] = f"bench-{os.getpid()}"
    with (folder / f"{name}.log").open("w") as log:  # the child keeps its own copy
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    assert process.stdout is not None
    while (line := process.stdout.readline()) and "hub on" not in line:
        pass
    port = int(line.split("hub on http://127.0.0.1:")[1].split("/")[0])
    return process, port


def run(
    boards: int,
    clients: int,
    seconds: float,
    ply_seconds: float,
    pause: float,
    stream_servers: int,
    redis: str,
) -> None:
    where = (
        "the hub"
        if not stream_servers
        else f"{stream_servers} stream server(s) beside the hub, through Redis"
    )
    print(
        f"{boards} boards (a move every {ply_seconds:g} s each), {clients} spectators on the "
        f"round stream served by {where}, {seconds:g} s measured",
        flush=True,
    )
    simulated = BoardsimProcess(
        bundled_games(),
        boards,
        *("--ply-seconds", str(ply_seconds), "--touch-seconds", "0.1"),
        *("--no-clock", "--report-moves", "--seed", "5"),
    )
    with tempfile.TemporaryDirectory() as folder:
        event = Path(folder) / "event.toml"
        event.write_text(event_file(simulated.ports))
        bus = redis if stream_servers else None
        process, port = start_server(Path(folder), "hub", event, bus)
        streams = [
            start_server(Path(folder), f"streams-{n}", None, bus) for n in range(stream_servers)
        ]
        ports = [p for _, p in streams] or [port]
        loads: list[SpectatorLoad] = []
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rounds/1/games") as reply:
                game_of_board = {g["board"]: g["id"] for g in json.load(reply)}
            program = build()
            share = clients // CLIENT_PROCESSES
            loads = [
                SpectatorLoad(program, port_n, "/api/rounds/1/stream", share, seconds, pause)
                for port_n in (ports[n % len(ports)] for n in range(CLIENT_PROCESSES))
            ]
            for load in loads:
                load.wait_connected()
            started = time.time()
            print(f"spectators connected; measuring for {seconds:g} s...", flush=True)
            arrivals: dict[tuple[int, int], list[float]] = {}
            for load in loads:
                load.arrivals(arrivals)
        finally:
            for load in loads:
                load.stop()
            for server, _ in [(process, port), *streams]:
                server.terminate()
                server.wait(timeout=60)
            simulated.stop()
    last: list[float] = []  # per move: the last spectator's added latency
    every: list[float] = []  # per delivery: each spectator's
    missing = 0
    missed_boards: set[int] = set()
    window_end = started + seconds - 5  # moves near the end may not have arrived yet
    for (board, ply), touched in simulated.moved.items():
        if not started <= touched <= window_end:
            continue
        times = arrivals.get((game_of_board[board], ply), [])
        if len(times) < clients:
            missing += 1
            missed_boards.add(board)
            continue
        decided = touched + SETTLE_SECONDS
        every.extend((at - decided) * 1000 for at in times)
        last.append((max(times) - decided) * 1000)
    if missed_boards:
        print(f"boards with moves not every spectator saw: {sorted(missed_boards)[:10]}")
    if not last:
        print("no moves measured")
        return
    print(
        f"{len(last)} moves measured ({missing} not seen by every spectator), added latency:\n"
        f"  every delivery ({len(every)}): {_figures(every)}\n"
        f"  last spectator per move:     {_figures(last)}"
    )


def _figures(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"p50 {statistics.median(values):.1f} ms, p99 {p99:.1f} ms, max {values[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--ply-seconds", type=float, default=30.0)
    parser.add_argument(
        "--stream-servers",
        type=int,
        default=0,
        help="serve the spectators from this many further processes, through Redis",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--client-pause",
        type=float,
        default=0.002,
        help="seconds the load generator sleeps between polls (0: wait in epoll)",
    )
    args = parser.parse_args()
    run(
        args.boards,
        args.clients,
        args.seconds,
        args.ply_seconds,
        args.client_pause,
        args.stream_servers,
        args.redis,
    )


if __name__ == "__main__":
    main()
