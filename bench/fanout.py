"""Fan-out to spectators: our streams against a plain FastAPI ``send_text`` loop, one run.

For each server (ours, then the plain loop) and each audience (1,000 and 5,000 clients):

* the server runs in a process of its own (uvicorn, websockets-sansio, no compression, as
  ``relay serve`` runs it); the clients run in two other processes, as light as a client
  can be (plain sockets and one epoll loop that cuts frames), so they cost the machine little;
* RSS per idle connection: the server's resident memory with the clients connected, less
  before, per client;
* then the server publishes ``--messages`` messages of about 200 bytes at ``--rate`` per
  second to everyone; each client notes when each arrives. Publish to last receipt (p50,
  p99 over the messages) and deliveries per second (all deliveries over the time from the
  first publish to the last receipt).

Ours: the event goes through the hub's bus to the round's room, which frames it once and
writes it to every transport. Plain: ``for ws in clients: await ws.send_text(text)``.

    .venv/bin/python -m bench.fanout [--clients 1000 5000] [--messages 100] [--rate 10]
                                     [--fanout-threads N]
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
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from bench.spectators import Spectators, number_after

CLIENT_PROCESSES = 2
PAD = "x" * 150


# The servers


def message(number: int, now: float) -> dict[str, Any]:
    """The data of message ``number``: an arbiter alert, a kind every view knows."""
    return {"alert": "bench", "detail": PAD, "ply": number, "at": now}


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

    async def publish(count: int, rate: float) -> None:
        for seq in range(1, count + 1):
            now = time.time()
            data = message(seq, now)
            hub.bus.publish(Published(round_id, game_id, seq, "alert", data, now))
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
        clients.add(websocket)
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            clients.discard(websocket)

    async def publish(count: int, rate: float) -> None:
        for seq in range(1, count + 1):
            text = json.dumps(
                {"type": "event", "data": message(seq, time.time())}, separators=(",", ":")
            )
            for websocket in list(clients):
                try:
                    await websocket.send_text(text)
                except Exception:
                    clients.discard(websocket)
            await asyncio.sleep(1 / rate)

    _publish_route(app, publish)
    return app, "/ws"


def _publish_route(
    app: FastAPI, publish: Callable[[int, float], Coroutine[Any, Any, None]]
) -> None:
    tasks: set[asyncio.Task[None]] = set()

    @app.post("/bench/publish")
    async def start(count: int, rate: float) -> dict[str, str]:
        task = asyncio.create_task(publish(count, rate))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return {"status": "publishing"}


def serve(kind: str) -> None:
    from relay.api.server import listen_socket, make_server

    with tempfile.TemporaryDirectory() as folder:
        if kind == "relay":
            app, path = relay_app(f"sqlite:///{Path(folder) / 'fanout.db'}")
        else:
            app, path = plain_app()
        sock = listen_socket("127.0.0.1", 0)
        sock.listen(4096)
        server = make_server(app)
        print(json.dumps({"port": sock.getsockname()[1], "path": path}), flush=True)
        asyncio.run(server.serve(sockets=[sock]))


# The clients


def spectate(port: int, path: str, connections: int, messages: int) -> None:
    receipts: dict[int, list[float]] = {}  # message -> [published at, last receipt]
    deliveries = 0
    expected = connections * messages

    def on_payload(payload: bytes, now: float) -> None:
        nonlocal deliveries
        if not payload.startswith(b'{"type":"event"'):
            return
        number = int(number_after(payload, b"ply"))
        published = float(number_after(payload, b"at", b"}"))
        seen = receipts.setdefault(number, [published, now])
        seen[1] = max(seen[1], now)
        deliveries += 1

    spectators = Spectators(port, path, connections)
    print(json.dumps({"connected": len(spectators)}), flush=True)
    # Report what arrived, even if not all did.
    until = time.time() + messages * 2 + 60
    spectators.follow(on_payload, until=until, done=lambda: deliveries >= expected)
    spectators.close()
    print(json.dumps({"receipts": receipts, "deliveries": deliveries}), flush=True)


# The run


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(kind: str, clients: int, messages: int, rate: float) -> dict[str, float]:
    """One server, one audience: RSS per idle client, then latencies and throughput."""
    module = [sys.executable, "-m", "bench.fanout"]
    server = subprocess.Popen([*module, "server", kind], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    share = clients // CLIENT_PROCESSES
    try:
        address = json.loads(server.stdout.readline())
        time.sleep(1.0)  # let the server settle before reading its memory
        before = rss_kb(server.pid)
        client = [*module, "client", str(address["port"]), address["path"]]
        client += [str(share), str(messages)]
        spectators = [
            subprocess.Popen(client, stdout=subprocess.PIPE, text=True)
            for _ in range(CLIENT_PROCESSES)
        ]
        for spectator in spectators:
            assert spectator.stdout is not None
            json.loads(spectator.stdout.readline())
        time.sleep(1.0)
        after = rss_kb(server.pid)
        cpu_before = cpu_seconds(server.pid)
        url = f"http://127.0.0.1:{address['port']}/bench/publish?count={messages}&rate={rate}"
        with urllib.request.urlopen(urllib.request.Request(url, method="POST")) as reply:
            reply.read()
        seen: dict[int, list[float]] = {}
        deliveries = 0
        for spectator in spectators:
            assert spectator.stdout is not None
            report = json.loads(spectator.stdout.readline())
            deliveries += report["deliveries"]
            for number, (published, last) in report["receipts"].items():
                entry = seen.setdefault(int(number), [published, last])
                entry[1] = max(entry[1], last)
            spectator.wait(timeout=60)
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = sorted((last - published) * 1000 for published, last in seen.values())
    span = max(last for _, last in seen.values()) - min(p for p, _ in seen.values())
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
    server.add_argument("kind", choices=["relay", "plain"])
    client = sub.add_parser("client")
    client.add_argument("port", type=int)
    client.add_argument("path")
    client.add_argument("connections", type=int)
    client.add_argument("messages", type=int)
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument(
        "--fanout-threads",
        type=int,
        help="our server's helper threads for writing frames (default: one per further core)",
    )
    args = parser.parse_args()
    if args.fanout_threads is not None:
        os.environ["RELAY_FANOUT_THREADS"] = str(args.fanout_threads)  # the servers inherit it
    if args.command == "server":
        serve(args.kind)
    elif args.command == "client":
        spectate(args.port, args.path, args.connections, args.messages)
    else:
        run(args.clients, args.messages, args.rate)


def run(audiences: list[int], messages: int, rate: float) -> None:
    print(f"{messages} messages of ~200 bytes at {rate:g}/s to every client, clients in "
          f"{CLIENT_PROCESSES} processes")  # fmt: skip
    for clients in audiences:
        results = {kind: measure(kind, clients, messages, rate) for kind in ("relay", "plain")}
        for kind, figures in results.items():
            print(
                f"{kind:>5} {clients:>5} clients: publish->last receipt p50 "
                f"{figures['p50_ms']:7.1f} ms, p99 {figures['p99_ms']:7.1f} ms; "
                f"{figures['deliveries_per_s']:6.0f} deliveries/s, "
                f"{figures['deliveries_per_cpu_s']:6.0f} per server CPU second; "
                f"lost {figures['lost']:.0f}; "
                f"RSS {figures['rss_per_client_kb']:.1f} KB per idle client",
                flush=True,
            )
        ratio = results["relay"]["deliveries_per_cpu_s"] / results["plain"]["deliveries_per_cpu_s"]
        print(f"      {clients:>5} clients: ours / plain deliveries per CPU second = {ratio:.2f}")


if __name__ == "__main__":
    main()
