"""Board to screen: how long after a move's last touch the spectators have it.

500 simulated DGT boards (boardsim, one process, pseudo-terminals, instant sensors, no
clocks) play real games at a hall-like pace; ``relay serve`` follows them from an event file
(the real driver, tracker, SQLite with a full sync per commit, bus and fan-out); 1,000
spectators in two processes follow the round's stream. boardsim reports the wall time of
every move's last touch; each spectator notes when the move arrived.

The hub decides a move once the board has stood still for the settle window (0.25 s), on
purpose. The figure that the design controls is the *added* latency: arrival at the last
spectator minus (last touch + settle window), which is the serial line, the driver, the
timer, the tracker, the commit, the bus and the fan-out. Prints p50, p99 and the maximum
over the moves made in the measured minutes; never fails.

    .venv/bin/python -m bench.e2e_latency [--boards 500] [--clients 1000] [--seconds 120]
"""

from __future__ import annotations

import argparse
import asyncio
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
from bench.spectators import connect_all, number_after
from relay.demo.run import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file

SETTLE_SECONDS = 0.25
CLIENT_PROCESSES = 2


def event_file(ports: list[str]) -> str:
    """The demo's round 1 on these ports: board n plays the n-th bundled game."""
    setup = event_setup(load_pairings(bundled_games(), len(ports)), ports)
    return render_event_file(setup)


def start_hub(folder: Path, event: Path) -> tuple[subprocess.Popen[str], int]:
    env = {
        **os.environ,
        "RELAY_SETTLE_SECONDS": str(SETTLE_SECONDS),
        "RELAY_BOARD_SWEEP_SECONDS": "0",
        "RELAY_RATE_LIMIT": "0",
    }
    command = [sys.executable, "-m", "relay.cli", "serve", str(event), "--port", "0"]
    command += ["--db", f"sqlite:///{folder / 'latency.db'}"]
    with (folder / "hub.log").open("w") as log:  # the child keeps its own copy
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    assert process.stdout is not None
    while (line := process.stdout.readline()) and "hub on" not in line:
        pass
    port = int(line.split("hub on http://127.0.0.1:")[1].split("/")[0])
    return process, port


async def watch(port: int, path: str, connections: int, seconds: float) -> None:
    """One client process: ``connections`` spectators; prints the last arrival per move."""
    arrivals: dict[str, float] = {}

    def on_payload(payload: bytes, now: float) -> None:
        if b'"kind":"move"' in payload:
            key = f"{number_after(payload, b'game')}:{number_after(payload, b'ply')}"
            if now > arrivals.get(key, 0.0):
                arrivals[key] = now

    spectators = await connect_all(port, path, connections, on_payload)
    print(json.dumps({"connected": len(spectators)}), flush=True)
    await asyncio.sleep(seconds)
    print(json.dumps(arrivals), flush=True)


def run(boards: int, clients: int, seconds: float, ply_seconds: float) -> None:
    print(
        f"{boards} boards (a move every {ply_seconds:g} s each), {clients} spectators on the "
        f"round stream, {seconds:g} s measured",
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
        process, port = start_hub(Path(folder), event)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rounds/1/games") as reply:
                game_of_board = {g["board"]: g["id"] for g in json.load(reply)}
            share = clients // CLIENT_PROCESSES
            command = [sys.executable, "-m", "bench.e2e_latency", "client", str(port)]
            command += ["/api/rounds/1/stream", str(share), str(seconds)]
            watchers = [
                subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
                for _ in range(CLIENT_PROCESSES)
            ]
            for watcher in watchers:
                assert watcher.stdout is not None
                json.loads(watcher.stdout.readline())
            started = time.time()
            print(f"spectators connected; measuring for {seconds:g} s...", flush=True)
            arrivals: dict[str, float] = {}
            for watcher in watchers:
                assert watcher.stdout is not None
                for key, at in json.loads(watcher.stdout.readline()).items():
                    arrivals[key] = max(arrivals.get(key, 0.0), at)
                watcher.wait(timeout=60)
        finally:
            process.terminate()
            process.wait(timeout=60)
            simulated.stop()
    added = []
    missing = 0
    missed_boards: set[int] = set()
    window_end = started + seconds - 5  # moves near the end may not have arrived yet
    for (board, ply), touched in simulated.moved.items():
        if not started <= touched <= window_end:
            continue
        arrived = arrivals.get(f"{game_of_board[board]}:{ply}")
        if arrived is None:
            missing += 1
            missed_boards.add(board)
            continue
        added.append((arrived - touched - SETTLE_SECONDS) * 1000)
    if missed_boards:
        print(f"boards with moves nobody saw: {len(missed_boards)}, {sorted(missed_boards)[:10]}")
    added.sort()
    if not added:
        print("no moves measured")
        return
    p99 = added[min(len(added) - 1, int(len(added) * 0.99))]
    print(
        f"{len(added)} moves measured ({missing} not seen by every spectator): added latency "
        f"p50 {statistics.median(added):.1f} ms, p99 {p99:.1f} ms, max {added[-1]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    client = sub.add_parser("client")
    client.add_argument("port", type=int)
    client.add_argument("path")
    client.add_argument("connections", type=int)
    client.add_argument("seconds", type=float)
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--ply-seconds", type=float, default=30.0)
    args = parser.parse_args()
    if args.command == "client":
        asyncio.run(watch(args.port, args.path, args.connections, args.seconds))
    else:
        run(args.boards, args.clients, args.seconds, args.ply_seconds)


if __name__ == "__main__":
    main()
