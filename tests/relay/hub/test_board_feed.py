"""The board feed: driver events by side of the clock, to tracker inputs by colour."""

from __future__ import annotations

import asyncio

import anyio
import chess
import pytest

from drivers.events import ClockReading, ClockSide, Lever, PositionSnapshot
from relay.domain.game.events import GameEvent, MoveMade, ResultProposed
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed, clock_view


def reading(left: int, right: int, lever: Lever, *, left_flag: bool = False) -> ClockReading:
    return ClockReading(
        left=ClockSide(left, flag_fallen=left_flag),
        right=ClockSide(right),
        running=True,
        left_to_move=lever == Lever.LEFT_UP,
        right_to_move=lever == Lever.RIGHT_UP,
        lever=lever,
        battery_low=False,
    )


@pytest.mark.parametrize(
    ("white_on_left", "lever", "white", "black", "to_move"),
    [
        (True, Lever.LEFT_UP, 100, 200, chess.WHITE),
        (True, Lever.RIGHT_UP, 100, 200, chess.BLACK),
        (False, Lever.LEFT_UP, 200, 100, chess.BLACK),
        (False, Lever.RIGHT_UP, 200, 100, chess.WHITE),
    ],
)
def test_clock_sides_become_colours(white_on_left, lever, white, black, to_move):
    view = clock_view(reading(100, 200, lever, left_flag=True), white_on_left=white_on_left)
    assert (view.white_seconds, view.black_seconds, view.to_move) == (white, black, to_move)
    assert view.flag(chess.WHITE) == white_on_left


def squares(board: chess.BaseBoard, markers: dict[chess.Square, str] | None = None):
    shown = [None if (p := board.piece_at(s)) is None else p.symbol() for s in chess.SQUARES]
    for square, symbol in (markers or {}).items():
        shown[square] = symbol
    return tuple(shown)


@pytest.mark.anyio
async def test_feed_settles_on_its_own_timer_and_reads_markers():
    got: list[GameEvent] = []
    arrived = asyncio.Event()

    def on_events(events):
        got.extend(events)
        arrived.set()

    settling = Settling(settle_seconds=0.01, recover_seconds=0.02, alert_seconds=0.05)
    feed = BoardFeed(PositionTracker(settling=settling), on_events)
    board = chess.Board()
    feed.handle(PositionSnapshot(squares(board)))
    board.push_san("e4")
    feed.handle(PositionSnapshot(squares(board)))
    with anyio.fail_after(5):
        while not got:
            arrived.clear()
            await arrived.wait()
    assert [e.san for e in got if isinstance(e, MoveMade)] == ["e4"]
    feed.handle(PositionSnapshot(squares(board, {chess.D4: "0"})))  # black-wins marker
    with anyio.fail_after(5):
        while len(got) < 2:
            arrived.clear()
            await arrived.wait()
    assert got[-1] == ResultProposed(result="0-1", gesture="marker", at=got[-1].at)
    feed.close()
