"""Press to stream: how long after a late press the corrected clock is on the game's stream.

A simulated DGT board with its DGT 3000 clock on a pseudo-terminal, followed by the hub
(the real driver, board session, tracker, SQLite store with a full sync per commit, bus):
each ply is played, the hub decides and publishes it without a time (the mover has not
pressed), then the mover presses, and the bench times the press (the clock's lever moved on
the simulated board) to the ``move-clock`` message on the game's topic of the bus, which is
what the websocket fan-out sends on (:mod:`bench.e2e_latency` measures that last hop to a
thousand spectators). Prints p50, p99 and the maximum; never fails.

    .venv/bin/python -m bench.press_latency [--plies 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import chess
from sqlmodel import Session

from bench.accuracy_report import real_games
from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.hands import touches_for_move
from boardsim.pty_link import PtyLink
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.config import Settings
from relay.hub.hub import Hub
from relay.store.engine import open_store
from tests.pairings import paired_round


async def measure(plies: int, folder: Path) -> list[float]:
    """Seconds from each press to its ``move-clock`` message, one per ply."""
    engine = open_store(f"sqlite:///{folder / 'relay.db'}")
    with Session(engine) as session:
        _, (game_id,) = paired_round(session, name="Press latency")
    bus = MemoryBus()
    arrived: dict[str, asyncio.Event] = {"move": asyncio.Event(), "move-clock": asyncio.Event()}
    stamps: dict[str, float] = {}

    def on_event(message: Published) -> None:
        if message.kind in arrived:
            stamps[message.kind] = time.perf_counter()
            arrived[message.kind].set()

    bus.subscribe(game_topic(game_id), on_event)
    hub = Hub(Settings(board_sweep_seconds=0.0), engine, bus)
    clock = Dgt3000(TimeControl(5400, 30), ack_delay=(0.0, 0.0))
    virtual = VirtualBoard(clock=clock)
    link = PtyLink(virtual)
    game = next(game for game in real_games() if len(game.moves) >= plies)
    board = chess.Board()
    waits: list[float] = []
    try:
        await hub.attach_dgt_board(game_id=game_id, url=link.path, clock_side="white-left")
        await asyncio.wait_for(link.wait_until_updating(), 10)
        virtual.press_lever(Side.RIGHT)
        link.flush()
        for move in game.moves[:plies]:
            side = Side.LEFT if board.turn == chess.WHITE else Side.RIGHT
            for event in arrived.values():
                event.clear()
            for touch in touches_for_move(board, move, random.Random(len(waits))):
                virtual.set_square(touch.dgt_index, touch.dgt_code)
                link.flush()
                await asyncio.sleep(0.05)
            board.push(move)
            await asyncio.wait_for(arrived["move"].wait(), 10)  # published, no time yet
            await asyncio.sleep(0.3)
            pressed = time.perf_counter()
            virtual.press_lever(side)
            link.flush()
            await asyncio.wait_for(arrived["move-clock"].wait(), 10)
            waits.append(stamps["move-clock"] - pressed)
    finally:
        await hub.close()
        link.close()
        engine.dispose()
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=60, help="plies of a real game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        waits = asyncio.run(measure(args.plies, Path(folder)))
    waits.sort()
    p99 = waits[min(len(waits) - 1, round(0.99 * (len(waits) - 1)))]
    print(
        f"press to move-clock on the bus, {len(waits)} late presses: "
        f"p50 {statistics.median(waits) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {waits[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
