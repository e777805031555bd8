"""A press after the move was decided, through the hub: a simulated DGT board and clock on a
pseudo-terminal, the real driver, the board session, the store and the bus.

The move is published at once without a time; the press, a second later, is stored and
streamed as one ``move-clock`` event, and every output folds it: the game's page and
scoresheet (the game's detail), the round PGN (webmasters, the export folder, FTP and the
lichess push write it), the LiveChess feed's ``game-N.json``.
"""

from __future__ import annotations

import asyncio
import random

import anyio
import chess
import pytest
from sqlmodel import Session

from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.hands import touches_for_move
from boardsim.pty_link import PtyLink
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.config import Settings
from relay.hub.hub import Hub
from relay.hub.livechess_feed import game_json
from relay.store.event_log import read_events
from relay.store.tournaments import get_game
from tests.pairings import paired_round


@pytest.fixture
def game_id(engine) -> int:
    with Session(engine) as session:
        _, (game,) = paired_round(session, name="Late press")
        return game


@pytest.mark.anyio
async def test_a_press_after_the_decision_reaches_the_stream_the_store_and_every_output(
    engine, game_id
):
    bus = MemoryBus()
    got: list[Published] = []
    arrived = asyncio.Event()

    def on_event(message: Published) -> None:
        got.append(message)
        arrived.set()

    async def until(kind: str) -> Published:
        with anyio.fail_after(10):
            while not any(message.kind == kind for message in got):
                arrived.clear()
                await arrived.wait()
        return next(message for message in got if message.kind == kind)

    bus.subscribe(game_topic(game_id), on_event)
    hub = Hub(Settings(settle_seconds=0.05, board_sweep_seconds=0.0), engine, bus)
    clock = Dgt3000(TimeControl(300, 2), ack_delay=(0.0, 0.0))
    virtual = VirtualBoard(clock=clock)
    link = PtyLink(virtual)
    try:
        await hub.attach_dgt_board(game_id=game_id, url=link.path, clock_side="white-left")
        with anyio.fail_after(5):
            await link.wait_until_updating()
        virtual.press_lever(Side.RIGHT)  # Black starts White's clock
        link.flush()
        board = chess.Board()
        for touch in touches_for_move(board, board.parse_san("e4"), random.Random(1)):
            virtual.set_square(touch.dgt_index, touch.dgt_code)
        link.flush()
        move = await until("move")
        assert (move.data["clock"], move.data["unclocked"]) == (None, True)
        virtual.press_lever(Side.LEFT)  # the press after the decision, as a player who looked
        shown = float(clock.side_reading(Side.LEFT).total_seconds)  # increment included
        link.flush()
        clocked = await until("move-clock")
        assert (clocked.data["ply"], clocked.data["clock"]) == (1, shown)
        assert clocked.seq > move.seq
    finally:
        await hub.close()
        link.close()

    with Session(engine) as session:
        kinds = [(e.kind, e.data.get("ply")) for e in read_events(session, game_id=game_id)]
        round_id = get_game(session, game_id=game_id).round_id
    assert ("move-clock", 1) in kinds
    views = hub.views
    view = await views.game(game_id)
    version = view.version
    detail = view.detail(version)
    assert detail["moves"][0]["clock"] == shown
    minutes, seconds = divmod(int(shown), 60)
    assert f"1. e4 {{ [%clk 0:{minutes:02d}:{seconds:02d}]" in await views.round_pgn(round_id)
    assert game_json(view, version, now=0.0)["moves"][0].startswith(f"e4 {int(shown)}")
