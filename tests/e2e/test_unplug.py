"""A cable pulled mid-game and plugged back: the stored game loses and repeats no move.

Real pieces of the chain: boardsim boards on pseudo-terminals, the DGT driver reopening the
port with backoff and resynchronising from the board's log, the hub deciding and storing
moves in SQLite.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import chess
import pytest
from sqlmodel import Session

from boardsim.board import VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import Dgt3000, TimeControl
from boardsim.pace import Pace
from boardsim.player import play_game
from boardsim.pty_link import PtyLink
from drivers.dgt.bus import BusOptions
from drivers.dgt.transport import DgtBusLine
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.config import Settings
from relay.hub.hub import Hub
from relay.store.engine import open_store
from relay.store.event_log import read_events
from tests.e2e.test_dgt_wire import corpus
from tests.pairings import paired_round
from tests.stores import migrated_sqlite

PACE = Pace(ply_seconds=0.2, touch_seconds=0.01, jitter=0.5)
SETTLE = 0.04
UNPLUG_AFTER_PLIES = 8
#: Pieces touched on the board while no host listens: several moves' worth.
TOUCHES_WHILE_AWAY = 10


class WatchedBoard(VirtualBoard):
    """A simulated board whose touches a test can wait for (no sleeping on a guess)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.touches = 0
        self._touched = asyncio.Event()

    def set_square(self, index: int, piece: int, now: float | None = None) -> None:
        super().set_square(index, piece, now)
        self.touches += 1
        self._touched.set()

    async def touched(self, count: int) -> None:
        """Return once ``count`` more pieces have been touched, within a deadline."""
        goal = self.touches + count
        with anyio.fail_after(30):
            while self.touches < goal:
                self._touched.clear()
                await self._touched.wait()


async def players_go_on(board: VirtualBoard) -> None:
    """While the host is away, the players make several moves."""
    assert isinstance(board, WatchedBoard)
    await board.touched(TOUCHES_WHILE_AWAY)


@asynccontextmanager
async def relay_hub(tmp_path: Path, boards: int) -> AsyncIterator[tuple[Hub, list[int]]]:
    engine = open_store(migrated_sqlite(tmp_path / "unplug.db"))
    with Session(engine) as session:
        _, ids = paired_round(session, games=boards, name="Unplug test")
    hub = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, MemoryBus())
    try:
        yield hub, ids
    finally:
        await hub.close()
        engine.dispose()


def stored_moves(hub: Hub, game_id: int) -> list[str]:
    with Session(hub.engine) as session:
        return [e.data["uci"] for e in read_events(session, game_id=game_id) if e.kind == "move"]


async def moves_published(hub: Hub, game_id: int, count: int) -> None:
    """Wait until ``count`` moves of the game have been stored and published."""
    arrived = asyncio.Event()
    seen: list[Published] = []

    def on_event(message: Published) -> None:
        if message.kind == "move":
            seen.append(message)
            arrived.set()

    subscription = hub.bus.subscribe(game_topic(game_id), on_event)
    try:
        with anyio.fail_after(60):
            while len(stored_moves(hub, game_id)) < count:
                arrived.clear()
                await arrived.wait()
    finally:
        subscription.close()


async def unplug_and_replug(
    link: PtyLink, hub: Hub, game_id: int, players: Awaitable[object]
) -> None:
    await moves_published(hub, game_id, UNPLUG_AFTER_PLIES)
    link.vanish()
    before = list(link.boards[0].squares)
    await players_go_on(link.boards[0])
    assert list(link.boards[0].squares) != before  # moves were made while unplugged
    await link.reappear()
    await players


def board_with_clock(serial: int) -> WatchedBoard:
    clock = Dgt3000(TimeControl.parse("15+10"), rng=random.Random(serial))
    return WatchedBoard(serial_number=f"{serial:05d}", clock=clock)


async def follow_to_the_end(hub: Hub, game_id: int, moves: list[chess.Move]) -> None:
    await moves_published(hub, game_id, len(moves))
    assert stored_moves(hub, game_id) == [move.uci() for move in moves]


@pytest.mark.anyio
async def test_single_board_unplugged_mid_game(tmp_path):
    moves = corpus()[10]  # Ding - Nepomniachtchi, WCh 2023 game 2: 58 plies
    async with relay_hub(tmp_path, 1) as (hub, (game_id,)):
        link = PtyLink(board_with_clock(1))
        try:
            await hub.attach_dgt_board(game_id=game_id, url=link.path)
            player = asyncio.create_task(play_game(link, moves, PACE, random.Random(3)))
            await unplug_and_replug(link, hub, game_id, player)
            await follow_to_the_end(hub, game_id, moves)
        finally:
            link.close()


@pytest.mark.anyio
async def test_bus_line_unplugged_mid_game(tmp_path):
    games = corpus()[10:13]
    boards = [board_with_clock(2001 + n) for n in range(len(games))]
    async with relay_hub(tmp_path, len(games)) as (hub, game_ids):
        link = PtyLink(BusChain(boards))
        line = await DgtBusLine.open(link.path, BusOptions())
        try:
            with anyio.fail_after(30):
                await line.discovered()
            for board, game_id in zip(boards, game_ids, strict=True):
                await hub.attach_link(game_id=game_id, link=line.board(board.address))
            players = [
                asyncio.create_task(play_game(link.seat(n), moves, PACE, random.Random(n)))
                for n, moves in enumerate(games)
            ]
            await unplug_and_replug(link, hub, game_ids[0], asyncio.gather(*players))
            for game_id, moves in zip(game_ids, games, strict=True):
                await follow_to_the_end(hub, game_id, moves)
        finally:
            line.close()
            link.close()


@pytest.mark.anyio
async def test_hub_restarted_mid_game_picks_up_the_moves_made_meanwhile(tmp_path):
    moves = corpus()[11]  # Nepomniachtchi - Ding, WCh 2023 game 3: 60 plies
    engine = open_store(migrated_sqlite(tmp_path / "restart.db"))
    with Session(engine) as session:
        _, (game_id,) = paired_round(session, name="Restart test")
    link = PtyLink(board_with_clock(3))
    try:
        first = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, MemoryBus())
        await first.attach_dgt_board(game_id=game_id, url=link.path)
        player = asyncio.create_task(play_game(link, moves, PACE, random.Random(11)))
        await moves_published(first, game_id, UNPLUG_AFTER_PLIES)
        await first.close()  # the laptop running the hub goes down
        stored_before = len(stored_moves(first, game_id))
        before = list(link.board.squares)
        await players_go_on(link.board)
        assert list(link.board.squares) != before
        second = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, MemoryBus())
        try:
            await second.attach_dgt_board(game_id=game_id, url=link.path)
            await player
            await follow_to_the_end(second, game_id, moves)
        finally:
            await second.close()
        assert stored_before < len(moves)
    finally:
        link.close()
        engine.dispose()


@pytest.mark.anyio
async def test_hub_restarted_mid_game_on_a_bus_line(tmp_path):
    games = corpus()[10:12]
    boards = [board_with_clock(4001 + n) for n in range(len(games))]
    async with relay_hub(tmp_path, len(games)) as (first, game_ids):
        link = PtyLink(BusChain(boards))
        try:
            line = await DgtBusLine.open(link.path, BusOptions(), reconnect=False)
            with anyio.fail_after(30):
                await line.discovered()
            for board, game_id in zip(boards, game_ids, strict=True):
                line.mark_game_start(board.address)
                await first.attach_link(game_id=game_id, link=line.board(board.address))
            players = asyncio.gather(
                *(
                    play_game(link.seat(n), moves, PACE, random.Random(n))
                    for n, moves in enumerate(games)
                )
            )
            await moves_published(first, game_ids[0], UNPLUG_AFTER_PLIES)
            await first.close()  # the hub goes down; the players go on
            line.close()
            await players_go_on(boards[0])
            second = Hub(
                Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), first.engine, MemoryBus()
            )
            line = await DgtBusLine.open(link.path, BusOptions(resume=True), reconnect=False)
            try:
                with anyio.fail_after(30):
                    await line.discovered()
                for board, game_id in zip(boards, game_ids, strict=True):
                    await second.attach_link(game_id=game_id, link=line.board(board.address))
                await players
                for game_id, moves in zip(game_ids, games, strict=True):
                    await follow_to_the_end(second, game_id, moves)
            finally:
                await second.close()
                line.close()
        finally:
            link.close()
