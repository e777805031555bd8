"""The DGT bus poll cycle: twelve boards on one 9600-baud line at a realistic move rate.

boardsim serves a chain of boards with a real board's timing (200-250 ms sensor scans, bus
answers after 2-6 ms, EEPROM writes) on a pseudo-terminal paced at 9600 baud; the driver
polls them through pyserial. Players make a move every few seconds on every board (a
tournament's rate sped up). Prints the poll cycle (time to poll all boards once) and the
latency from a piece put down to the driver's field change. Never fails.

    .venv/bin/python -m bench.dgt_bus_cycle [--boards 12] [--seconds 30] [--ply-seconds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
from pathlib import Path

import chess.pgn

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.chain import BusChain
from boardsim.line import BYTE_SECONDS_9600
from boardsim.pace import Pace
from boardsim.player import play_game
from boardsim.pty_link import PtyLink
from drivers.dgt.bus import BusOptions, DgtBusProtocol
from drivers.dgt.transport import DgtBusLine
from drivers.events import FieldChange
from relay.demo.pgn_round import bundled_games


class TimedBoard(VirtualBoard):
    """A board that notes when each piece is put down or lifted (the latency's start)."""

    touched: dict[tuple[int, int], float]

    def set_square(self, index: int, piece: int, now: float | None = None) -> None:
        super().set_square(index, piece, now)
        self.touched[(index, piece)] = asyncio.get_running_loop().time()


def games(count: int, path: Path) -> list[list[chess.Move]]:
    found = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            found.append(list(game.mainline_moves()))
    return [found[i % len(found)] for i in range(count)]


async def run(boards: int, seconds: float, ply_seconds: float) -> None:
    loop = asyncio.get_running_loop()
    chain_boards = []
    for n in range(boards):
        board = TimedBoard(serial_number=f"{3001 + n:05d}", timing=BoardTiming.realistic())
        board.touched = {}
        chain_boards.append(board)
    link = PtyLink(BusChain(chain_boards), byte_seconds=BYTE_SECONDS_9600)
    line = await DgtBusLine.open(link.path, BusOptions())
    protocol: DgtBusProtocol = line.protocol
    cycles: list[float] = []
    latencies: list[float] = []
    rounds_seen = -1
    round_started = 0.0

    original = protocol._schedule_poll

    def timed_poll() -> None:
        nonlocal rounds_seen, round_started
        original()
        if protocol._rounds != rounds_seen:
            now = loop.time()
            if rounds_seen >= 1:
                cycles.append(now - round_started)
            rounds_seen, round_started = protocol._rounds, now

    protocol._schedule_poll = timed_poll  # type: ignore[method-assign]
    misses = 0
    original_missed = protocol._missed

    def counted_missed(board: object) -> None:
        nonlocal misses
        misses += 1
        original_missed(board)  # type: ignore[arg-type]

    protocol._missed = counted_missed  # type: ignore[method-assign]
    found = await line.discovered()
    print(f"{len(found)} boards found on the line")

    async def watch(board: TimedBoard) -> None:
        async for event in line.board(board.address).events():
            if isinstance(event, FieldChange):
                index = _dgt_index(event.square)
                code = _code(event.piece)
                touched = board.touched.get((index, code))
                if touched is not None:
                    latencies.append(loop.time() - touched)

    watchers = [asyncio.create_task(watch(board)) for board in chain_boards]
    pace = Pace(ply_seconds=ply_seconds, touch_seconds=0.4)
    players = [
        asyncio.create_task(play_game(link.seat(n), moves, pace, random.Random(n)))
        for n, moves in enumerate(games(boards, bundled_games()))
    ]
    await asyncio.sleep(seconds)
    for task in players + watchers:
        task.cancel()
    await asyncio.gather(*players, *watchers, return_exceptions=True)
    line.close()
    link.close()
    report(boards, cycles, latencies)
    print(
        f"answers that missed the {protocol.options.reply_timeout * 1000:.0f} ms timeout: {misses}"
    )


_CODES = {None: 0, "P": 1, "R": 2, "N": 3, "B": 4, "K": 5, "Q": 6}


def _code(piece: str | None) -> int:
    if piece is None:
        return 0
    code = _CODES[piece.upper()]
    return code if piece.isupper() else code + 6


def _dgt_index(square: int) -> int:
    return (7 - square // 8) * 8 + square % 8


def report(boards: int, cycles: list[float], latencies: list[float]) -> None:
    def p99(values: list[float]) -> float:
        return sorted(values)[int(len(values) * 0.99)]

    if cycles:
        print(
            f"poll cycle for {boards} boards: median {statistics.median(cycles) * 1000:.0f} ms, "
            f"p99 {p99(cycles) * 1000:.0f} ms over {len(cycles)} cycles"
        )
    if latencies:
        print(
            f"piece down -> driver event: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"p99 {p99(latencies) * 1000:.0f} ms over {len(latencies)} changes "
            "(includes the 200-250 ms sensor scan)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--ply-seconds", type=float, default=4.0)
    args = parser.parse_args()
    asyncio.run(run(args.boards, args.seconds, args.ply_seconds))


if __name__ == "__main__":
    main()
