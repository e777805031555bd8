"""Fan-out to spectators: ours, a plain FastAPI ``send_text`` loop and a bare writer, one run.

For each server (ours, the plain loop, the bare writer) and each audience (1,000 and 5,000
clients):

* the server runs in a process of its own (ours and the plain loop on uvicorn,
  websockets-sansio, no compression, as ``relay serve`` runs it); the clients are the C load
  generator of ``bench.e2e_latency`` (``bench/spectator_load.c``) in two processes, as
  cheap as a client can be; each arrival is the kernel's stamp on the client's socket, so
  the clients' own scheduling on the shared cores is not counted;
* RSS per idle connection: the server's resident memory with the clients connected, less
  before, per client;
* then the server publishes ``--messages`` move events of about 200 bytes at ``--rate`` per
  second to everyone. Publish to last arrival (p50, p99 over the messages; with 100
  messages the p99 is the slowest but one), deliveries lost, deliveries per second (all
  deliveries over the time from the first publish to the last arrival) and per server CPU
  second (the CPU the server used from its last sample before the first publish to its
  first after the last arrival, sampled every 10 ms: ``bench/cpu_trace.py``). Each server
  has answered one request before the sampling starts, as a hub has before its rounds are
  followed: FastAPI builds its routes' models as requests first walk past them.

Ours: the event goes through the hub's bus to the round's room, which frames it once and
writes it to every transport. Plain: ``for ws in clients: await ws.send_text(text)``, the
same bytes. Bare: no framework and one thread, the frame built once and ``os.write`` to each
socket (``bench/fanout_bare.py``): about as little as a server that writes each frame can
spend here, so ``bare / plain`` shows how far above the plain loop a server could get in
that run, and ``ours / bare`` how close ours comes. It is a reference, not a bound.

    .venv/bin/python -m bench.fanout [--clients 1000 5000] [--messages 100] [--rate 10]
                                     [--fanout-threads N] [--client-pause 0.002]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import chess
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from bench.cpu_trace import CpuTrace
from bench.fanout_bare import serve_bare
from bench.spectator_load import SpectatorLoad, build

CLIENT_PROCESSES = 2
#: Ours, the plain FastAPI loop, and a bare writer (``bench/fanout_bare.py``).
KINDS = ("relay", "plain", "bare")
#: How the report names them.
LABELS = {"relay": "ours", "plain": "plain", "bare": "bare"}
#: Knights out and back: a legal game of any length, so the hub's views can fold it.
SHUFFLE = ("g1f3", "g8f6", "f3g1", "f6g8")


# The servers


def message(number: int, now: float) -> dict[str, Any]:
    """Move ``number`` of a knights' shuffle, as a move event's fields (about 200 bytes
    framed; the load generator reports each ``move`` frame's arrival by its ``ply``)."""
    return {**_shuffle_move(number), "at": now}


@functools.cache
def _shuffle_move(number: int) -> dict[str, Any]:
    """Worked out before the messages go out, so that it costs the servers nothing then."""
    board = chess.Board()
    for ply in range(number - 1):
        board.push_uci(SHUFFLE[ply % len(SHUFFLE)])
    move = chess.Move.from_uci(SHUFFLE[(number - 1) % len(SHUFFLE)])
    san = board.san(move)
    board.push(move)
    return {
        "ply": number, "uci": move.uci(), "san": san, "fen": board.fen(), "recovered": False,
        "confirmed": True, "clock": 5400.0,
    }  # fmt: skip


def relay_app(db: str) -> tuple[FastAPI, str]:
    """Our app on a fresh database with one published round; and the round's stream path."""
    from sqlmodel import Session

    from relay.api.app import create_app
    from relay.bus.memory import MemoryBus
    from relay.bus.messages import Published
    from relay.config import Settings
    from relay.domain.formats.event_file import (
        EventSetup,
        PlayerSetup,
        RoundSetup,
        TournamentSetup,
    )
    from relay.hub.hub import Hub
    from relay.store.engine import open_store
    from relay.store.setup import load_event
    from relay.store.tournaments import list_games, list_rounds

    # The environment may set RELAY_FANOUT_THREADS (see --fanout-threads).
    settings = Settings.from_env(db_url=db, rate_limit=0, heartbeat_seconds=3600)
    engine = open_store(db)
    setup = EventSetup(
        tournament=TournamentSetup(name="Fan-out"),
        players=(PlayerSetup(1, "A, B"), PlayerSetup(2, "C, D")),
        rounds=(RoundSetup(1, ((1, 2),)),),
    )
    with Session(engine) as session:
        report = load_event(session, setup)
        session.commit()
        round_id = list_rounds(session, tournament_id=report.tournament_id)[0].id or 0
        game_id = list_games(session, round_id=round_id)[0].id or 0
    hub = Hub(settings, engine, MemoryBus())
    app: FastAPI = create_app(settings, hub)

    async def publish(count: int, rate: float, published: dict[int, float]) -> None:
        for seq in range(1, count + 1):
            now = published[seq] = time.time()
            hub.bus.publish(Published(round_id, game_id, seq, "move", message(seq, now), now))
            await asyncio.sleep(1 / rate)

    _publish_route(app, publish)
    return app, f"/api/rounds/{round_id}/stream"


def plain_app() -> tuple[FastAPI, str]:
    """The baseline: a set of websockets and a send_text loop."""
    app = FastAPI()
    clients: set[WebSocket] = set()

    @app.websocket("/ws")
    async def stream(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text('{"type":"hello"}')  # the load generator waits for a frame
        clients.add(websocket)
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            clients.discard(websocket)

    async def publish(count: int, rate: float, published: dict[int, float]) -> None:
        for seq in range(1, count + 1):
            now = published[seq] = time.time()
            event = {"type": "event", "game": 1, "v": seq, "kind": "move"}
            text = json.dumps({**event, "data": message(seq, now)}, separators=(",", ":"))
            for websocket in list(clients):
                try:
                    await websocket.send_text(text)
                except Exception:
                    clients.discard(websocket)
            await asyncio.sleep(1 / rate)

    _publish_route(app, publish)
    return app, "/ws"


def _publish_route(
    app: FastAPI,
    publish: Callable[[int, float, dict[int, float]], Coroutine[Any, Any, None]],
) -> None:
    """``POST /bench/publish`` starts publishing; ``GET /bench/published`` answers when each
    message went out (Unix seconds, by number)."""
    tasks: set[asyncio.Task[None]] = set()
    published: dict[int, float] = {}

    @app.post("/bench/publish")
    async def start(count: int, rate: float) -> dict[str, str]:
        for number in range(1, count + 1):
            _shuffle_move(number)
        task = asyncio.create_task(publish(count, rate, published))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return {"status": "publishing"}

    @app.get("/bench/published")
    async def when() -> dict[int, float]:
        return published


def serve(kind: str) -> None:
    from relay.api.server import listen_socket, make_server

    sock = listen_socket("127.0.0.1", 0)
    sock.listen(4096)
    port = sock.getsockname()[1]
    if kind == "bare":
        print(json.dumps({"port": port, "path": "/ws"}), flush=True)
        serve_bare(sock, message)
        return
    with tempfile.TemporaryDirectory() as folder:
        if kind == "relay":
            app, path = relay_app(f"sqlite:///{Path(folder) / 'fanout.db'}")
        else:
            app, path = plain_app()
        server = make_server(app)
        print(json.dumps({"port": port, "path": path}), flush=True)
        asyncio.run(server.serve(sockets=[sock]))


# The run


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def measure(kind: str, clients: int, messages: int, rate: float, pause: float) -> dict[str, float]:
    """One server, one audience: RSS per idle client, then latencies and throughput."""
    module = [sys.executable, "-m", "bench.fanout"]
    server = subprocess.Popen([*module, "server", kind], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    share = clients // CLIENT_PROCESSES
    loads: list[SpectatorLoad] = []
    trace: CpuTrace | None = None
    try:
        address = json.loads(server.stdout.readline())
        base = f"http://127.0.0.1:{address['port']}"
        time.sleep(1.0)  # let the server settle before reading its memory
        before = rss_kb(server.pid)
        # Long enough for a server that falls behind to deliver everything.
        seconds = 1.0 + 2 * messages / rate + 10.0
        program = build()
        loads = [
            SpectatorLoad(program, address["port"], address["path"], share, seconds, pause)
            for _ in range(CLIENT_PROCESSES)
        ]
        for load in loads:
            load.wait_connected()
        time.sleep(1.0)
        after = rss_kb(server.pid)
        # A hub has served requests before its rounds are followed: FastAPI builds its
        # routes' models as requests first walk past them, and the bench's routes come
        # last (0.29 s of CPU for ours, measured 2026-11-27).
        with urllib.request.urlopen(f"{base}/bench/published") as reply:
            reply.read()
        trace = CpuTrace(server.pid)
        url = f"{base}/bench/publish?count={messages}&rate={rate}"
        with urllib.request.urlopen(urllib.request.Request(url, method="POST")) as reply:
            reply.read()
        arrivals: dict[tuple[int, int], list[float]] = {}
        for load in loads:
            load.arrivals(arrivals)
        trace.stop()
        with urllib.request.urlopen(f"{base}/bench/published") as reply:
            published = {int(number): at for number, at in json.load(reply).items()}
    finally:
        if trace is not None:
            trace.stop()
        for load in loads:
            load.stop()
        server.terminate()
        server.wait(timeout=30)
    last = {ply: max(times) for (_, ply), times in arrivals.items() if ply in published}
    latencies = sorted((last[ply] - published[ply]) * 1000 for ply in last)
    deliveries = sum(len(times) for (_, ply), times in arrivals.items() if ply in published)
    span = max(last.values()) - min(published.values())
    assert trace is not None
    # From the last sample before the first publish to the first after the last arrival:
    # the load generators' idle tail after it is not fan-out work.
    cpu = trace.at(max(last.values())) - trace.before(min(published.values()))
    return {
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "deliveries_per_s": deliveries / span,
        "deliveries_per_cpu_s": deliveries / cpu,
        "lost": share * CLIENT_PROCESSES * messages - deliveries,
        "rss_per_client_kb": (after - before) / (share * CLIENT_PROCESSES),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    server = sub.add_parser("server")
    server.add_argument("kind", choices=KINDS)
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument(
        "--fanout-threads",
        type=int,
        help="our server's helper threads for writing frames (default: one per further core)",
    )
    parser.add_argument(
        "--client-pause",
        type=float,
        default=0.002,
        help="seconds the load generator sleeps between polls (0: wait in epoll)",
    )
    args = parser.parse_args()
    if args.fanout_threads is not None:
        os.environ["RELAY_FANOUT_THREADS"] = str(args.fanout_threads)  # the servers inherit it
    if args.command == "server":
        serve(args.kind)
    else:
        run(args.clients, args.messages, args.rate, args.client_pause)


def run(audiences: list[int], messages: int, rate: float, pause: float) -> None:
    print(f"{messages} move events of ~200 bytes at {rate:g}/s to every client, clients in "
          f"{CLIENT_PROCESSES} C processes, arrivals stamped by the kernel")  # fmt: skip
    for clients in audiences:
        results = {kind: measure(kind, clients, messages, rate, pause) for kind in KINDS}
        for kind, figures in results.items():
            print(
                f"{LABELS[kind]:>5} {clients:>5} clients: publish->last arrival p50 "
                f"{figures['p50_ms']:7.1f} ms, p99 {figures['p99_ms']:7.1f} ms; "
                f"{figures['deliveries_per_s']:6.0f} deliveries/s, "
                f"{figures['deliveries_per_cpu_s']:6.0f} per server CPU second; "
                f"lost {figures['lost']:.0f}; "
                f"RSS {figures['rss_per_client_kb']:.1f} KB per idle client",
                flush=True,
            )
        per_cpu = {kind: figures["deliveries_per_cpu_s"] for kind, figures in results.items()}
        print(
            f"      {clients:>5} clients, deliveries per CPU second: ours / plain = "
            f"{per_cpu['relay'] / per_cpu['plain']:.2f}; bare / plain = "
            f"{per_cpu['bare'] / per_cpu['plain']:.2f}; "
            f"ours / bare = {per_cpu['relay'] / per_cpu['bare']:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
