"""The DGT driver against the simulator over real pseudo-terminals (pyserial, no mocks).

Every game of the real-games corpus (tests/data/real-games.pgn) is played on simulated
boards with clocks; the driver must report each position the game passes through, in order,
and every clock press.
One bus line carrying a board per game must do the same, and so must a board whose cable is pulled
and plugged back mid-game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence

import anyio
import chess
import chess.pgn
import pytest

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.line import BYTE_SECONDS_9600
from boardsim.pace import Pace
from boardsim.player import play_game
from boardsim.pty_link import PtyLink
from boardsim.tcp_link import TcpLink
from drivers.dgt.bus import BusOptions
from drivers.dgt.transport import DgtBusLine, DgtSerialConnection
from drivers.events import (
    BoardEvent,
    ClockCommandResult,
    ClockReading,
    FieldChange,
    LogReplay,
    Position,
    PositionSnapshot,
    RunMode,
    SetAndRun,
)
from tests.data_files import DATA

CORPUS = DATA / "real-games.pgn"
FAST = Pace(ply_seconds=0.03, touch_seconds=0.003, jitter=0.5)


def corpus() -> list[list[chess.Move]]:
    games = []
    with CORPUS.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(list(game.mainline_moves()))
    return games


def positions_of(moves: Sequence[chess.Move]) -> list[Position]:
    board = chess.Board()
    seen = []
    for move in moves:
        board.push(move)
        seen.append(
            tuple(None if (p := board.piece_at(s)) is None else p.symbol() for s in chess.SQUARES)
        )
    return seen


def in_order(expected: list[Position], observed: list[Position]) -> list[Position]:
    """The expected positions that the observed stream passed through, in order."""
    found = []
    remaining = iter(observed)
    for position in expected:
        if any(seen == position for seen in remaining):
            found.append(position)
    return found


class Watcher:
    """Collects a board link's positions and clock readings."""

    def __init__(self) -> None:
        self.positions: list[Position] = []
        self.readings: list[ClockReading] = []
        self.results: list[ClockCommandResult] = []
        self.changed = asyncio.Event()

    async def run(self, events: AsyncIterator[BoardEvent]) -> None:
        async for event in events:
            if isinstance(event, PositionSnapshot | FieldChange):
                self.positions.append(event.position)
            elif isinstance(event, LogReplay):
                self.positions.extend(event.positions)
            elif isinstance(event, ClockReading):
                self.readings.append(event)
            elif isinstance(event, ClockCommandResult):
                self.results.append(event)
            self.changed.set()

    async def until(self, done: object) -> None:
        assert callable(done)
        with anyio.fail_after(60):
            while not done():
                self.changed.clear()
                await self.changed.wait()


def turns(readings: list[ClockReading]) -> list[str]:
    """Whose time ran, each time it changed (consecutive repeats folded)."""
    sides: list[str] = []
    for reading in readings:
        if not reading.running:
            continue
        side = "left" if reading.left_to_move else "right"
        if not sides or sides[-1] != side:
            sides.append(side)
    return sides


async def one_board(index: int, moves: list[chess.Move]) -> None:
    clock = Dgt3000(TimeControl.parse("15+10"), rng=random.Random(index))
    link = PtyLink(VirtualBoard(serial_number=f"{index + 1:05d}", clock=clock))
    connection = await DgtSerialConnection.open(link.path, reconnect=False)
    watcher = Watcher()
    watching = asyncio.create_task(watcher.run(connection.events()))
    try:
        await play_game(link, moves, FAST, random.Random(index))
        expected = positions_of(moves)
        await watcher.until(lambda: in_order(expected, watcher.positions) == expected)
        # Every press reached the host: White's clock (left) starts, then one per move.
        await watcher.until(lambda: len(turns(watcher.readings)) == len(moves) + 1)
        assert turns(watcher.readings) == [("left", "right")[i % 2] for i in range(len(moves) + 1)]
        # The arbiter stops the clock with set times: the clock shows exactly those.
        command = SetAndRun(600, 420, RunMode.STOPPED)
        connection.send(command)
        await watcher.until(lambda: watcher.results == [ClockCommandResult(command, ok=True)])
        await watcher.until(
            lambda: any(
                (r.left.seconds, r.right.seconds, r.running) == (600, 420, False)
                for r in watcher.readings
            )
        )
        shown = clock.reading()
        assert (shown.left.total_seconds, shown.right.total_seconds) == (600, 420)
    finally:
        connection.close()
        await watching
        link.close()


@pytest.mark.anyio
async def test_every_real_game_reaches_the_host_on_single_boards():
    games = corpus()
    assert len(games) >= 20
    async with asyncio.TaskGroup() as group:
        for index, moves in enumerate(games):
            group.create_task(one_board(index, moves))


async def one_seat(line: DgtBusLine, link: PtyLink, index: int, moves: list[chess.Move]) -> None:
    board_link = line.boards[link.boards[index].address]
    watcher = Watcher()
    watching = asyncio.create_task(watcher.run(board_link.events()))
    try:
        # The round starts once the host has read the board, as an arbiter would wait.
        await watcher.until(lambda: bool(watcher.positions))
        await play_game(link.seat(index), moves, FAST, random.Random(index))
        expected = positions_of(moves)
        await watcher.until(lambda: in_order(expected, watcher.positions) == expected)
        # Clocks on a bus line are read every few polling rounds, so the host may miss
        # presses, but it catches up: the time of the side that is not running is frozen
        # after the last press, and the host reads it exactly.
        clock = link.boards[index].clock
        assert clock is not None
        assert clock.running is not None
        frozen = clock.running.other
        display = clock.reading()
        shown = (display.left if frozen is Side.LEFT else display.right).total_seconds

        def caught_up() -> bool:
            if not watcher.readings:
                return False
            last = watcher.readings[-1]
            side = last.left if frozen is Side.LEFT else last.right
            runs_left = last.left_to_move and not last.right_to_move
            return side.seconds == shown and runs_left == (frozen is Side.RIGHT)

        await watcher.until(caught_up)
    finally:
        board_link.close()
        await watching


@pytest.mark.anyio
async def test_every_real_game_reaches_the_host_over_one_bus_line():
    games = corpus()  # 27 boards on one line
    boards = [
        VirtualBoard(
            serial_number=f"{1001 + n:05d}",
            clock=Dgt3000(TimeControl.parse("15+10"), rng=random.Random(n)),
        )
        for n in range(len(games))
    ]
    link = PtyLink(BusChain(boards))
    line = await DgtBusLine.open(link.path, BusOptions(clock_every=2), reconnect=False)
    try:
        with anyio.fail_after(30):
            found = await line.discovered()
        assert sorted(found) == sorted(board.address for board in boards)
        async with asyncio.TaskGroup() as group:
            for index, moves in enumerate(games):
                group.create_task(one_seat(line, link, index, moves))
    finally:
        line.close()
        link.close()


@pytest.mark.anyio
async def test_a_board_served_over_tcp_plays_through_socket_url():
    moves = corpus()[0]
    link = await TcpLink.open(board_with_clock_for_tcp())
    connection = await DgtSerialConnection.open(link.url, reconnect=False)
    watcher = Watcher()
    watching = asyncio.create_task(watcher.run(connection.events()))
    try:
        await play_game(link, moves, FAST, random.Random(7))
        expected = positions_of(moves)
        await watcher.until(lambda: in_order(expected, watcher.positions) == expected)
    finally:
        connection.close()
        await watching
        await link.aclose()


def board_with_clock_for_tcp() -> VirtualBoard:
    return VirtualBoard(serial_number="04242", clock=Dgt3000(TimeControl.parse("5+3")))


@pytest.mark.anyio
async def test_a_board_with_real_timing_on_a_9600_baud_line():
    """200-250 ms sensor scans and a paced line, as in a hall: the positions still arrive."""
    moves = corpus()[0]  # Kramnik - Anand, 19 plies
    board = VirtualBoard(
        serial_number="05555",
        clock=Dgt3000(TimeControl.parse("90+30")),
        timing=BoardTiming.realistic(),
    )
    link = PtyLink(board, byte_seconds=BYTE_SECONDS_9600)
    connection = await DgtSerialConnection.open(link.path, reconnect=False)
    watcher = Watcher()
    watching = asyncio.create_task(watcher.run(connection.events()))
    try:
        pace = Pace(ply_seconds=0.6, touch_seconds=0.1, jitter=0.3)
        await play_game(link, moves, pace, random.Random(5))
        expected = positions_of(moves)
        await watcher.until(lambda: in_order(expected, watcher.positions) == expected)
        await watcher.until(lambda: len(turns(watcher.readings)) == len(moves) + 1)
    finally:
        connection.close()
        await watching
        link.close()
