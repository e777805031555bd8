"""Serving the live round PGN of a 500-board round: the figure broadcast platforms poll.

Builds a round of 500 games in a SQLite file, each a real game of the demo corpus played
to its end (about 80 plies, ``%clk`` on every move), then serves it with the real app on
uvicorn and times ``GET /api/rounds/{id}/games.pgn`` from a client on a socket:

* cold: the first request, which reads the round from the store and renders every game;
* warm: nothing changed since the last request (the target: <= 20 ms for 500 games);
* after one move, and after a move on 50 boards: only the changed games are rendered again.

Beside them, in the same run, the naive way: exporting every game with python-chess on
every request. Prints medians and p99; never fails.

    .venv/bin/python -m bench.round_pgn [--games 500] [--requests 50]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import chess
import chess.pgn
from sqlmodel import Session

from bench.reconstruct import corpus
from relay.api.app import create_app
from relay.api.server import listen_socket, make_server
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.formats.event_file import EventSetup, PlayerSetup, RoundSetup, TournamentSetup
from relay.domain.game.events import MoveMade, event_data
from relay.hub.hub import Hub
from relay.store.engine import open_store
from relay.store.event_log import append_events
from relay.store.setup import load_event
from relay.store.tournaments import list_games, list_rounds


def build_round(url: str, games: int) -> tuple[int, list[int], list[chess.Board]]:
    """A round of ``games`` finished-looking games (moves only, no result)."""
    engine = open_store(url)
    players = []
    for table in range(1, games + 1):
        players += [
            PlayerSetup(2 * table - 1, f"White{table}, A"),
            PlayerSetup(2 * table, f"Black{table}, B"),
        ]
    setup = EventSetup(
        tournament=TournamentSetup(name="Bench Olympiad", time_control="40/5400+30:1800+30"),
        players=tuple(players),
        rounds=(RoundSetup(1, tuple((2 * b - 1, 2 * b) for b in range(1, games + 1))),),
    )
    source = corpus()
    boards = []
    with Session(engine) as session:
        report = load_event(session, setup)
        session.commit()
        round_id = list_rounds(session, tournament_id=report.tournament_id)[0].id or 0
        ids = [game.id or 0 for game in list_games(session, round_id=round_id)]
        for number, game_id in enumerate(ids):
            board = chess.Board()
            events = []
            for ply, move in enumerate(source[number % len(source)][:-1], start=1):
                san = board.san(move)
                board.push(move)
                clock = 5400.0 - ply * 30
                events.append(
                    (
                        "move",
                        event_data(MoveMade(ply, move.uci(), san, board.fen(), 1.0, clock=clock)),
                    )
                )
            append_events(session, game_id=game_id, events=events, recorded_at=1.0)
            session.commit()
            boards.append(board)
    engine.dispose()
    return round_id, ids, boards


async def get(port: int, path: str) -> tuple[float, int]:
    """One HTTP/1.1 request on a new connection: milliseconds to the last byte, body size."""
    start = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    elapsed = (time.perf_counter() - start) * 1000
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head[:80]
    return elapsed, len(body)


@contextlib.asynccontextmanager
async def serving(url: str) -> AsyncIterator[tuple[Hub, int]]:
    settings = Settings(db_url=url, rate_limit=0)
    engine = open_store(url)
    hub = Hub(settings, engine, MemoryBus())
    sock = listen_socket("127.0.0.1", 0)
    server = make_server(create_app(settings, hub))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:  # noqa: ASYNC110 (uvicorn sets a flag, not an event)
        await asyncio.sleep(0.01)
    try:
        yield hub, sock.getsockname()[1]
    finally:
        server.should_exit = True
        await task
        await hub.close()
        engine.dispose()


def naive_export(boards: list[chess.Board]) -> str:
    """Every game exported by python-chess, as a relay without a cache would on each poll."""
    parts = []
    for board in boards:
        game = chess.pgn.Game.from_board(board)
        parts.append(game.accept(chess.pgn.StringExporter(headers=True)))
    return "\n\n".join(parts)


def figures(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    return f"{label:<34} median {median:7.2f} ms   p99 {p99:7.2f} ms   n={len(ordered)}"


async def run(games: int, requests: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        round_id, ids, boards = build_round(url, games)
        path = f"/api/rounds/{round_id}/games.pgn"
        async with serving(url) as (hub, port):
            cold, size = await get(port, path)
            plies = sum(b.ply() for b in boards)
            print(f"round of {games} games, {plies} plies, {size / 1e6:.2f} MB of PGN")
            print(f"{'cold (read the store, render all)':<34} {cold:7.2f} ms")
            warm = [(await get(port, path))[0] for _ in range(requests)]
            print(figures("warm (nothing changed)", warm))
            for changed in (1, 50):
                samples = []
                for _ in range(max(5, requests // 5)):
                    playing = [(g, b) for g, b in zip(ids, boards, strict=True) if b.legal_moves]
                    for game_id, board in playing[:changed]:
                        move = next(iter(board.legal_moves))
                        san = board.san(move)
                        board.push(move)
                        event = MoveMade(board.ply(), move.uci(), san, board.fen(), 2.0, clock=60.0)
                        await hub.recorder.record(
                            round_id=round_id, game_id=game_id, events=[event]
                        )
                    samples.append((await get(port, path))[0])
                print(figures(f"after a move on {changed} board(s)", samples))
        naive = []
        for _ in range(3):
            start = time.perf_counter()
            naive_export(boards)
            naive.append((time.perf_counter() - start) * 1000)
        print(figures("naive: python-chess export of all", naive))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.requests))


if __name__ == "__main__":
    main()
