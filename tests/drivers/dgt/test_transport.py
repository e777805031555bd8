"""The asyncio serial transport against a virtual board on a real pseudo-terminal."""

from __future__ import annotations

import os
import resource
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager

import anyio
import chess
import pytest

from boardsim.board import VirtualBoard
from boardsim.pty_link import PtyLink
from drivers.dgt.transport import DgtSerialConnection
from drivers.events import (
    BoardEvent,
    BoardStatus,
    Disconnected,
    FieldChange,
    LineNoise,
    Position,
    PositionSnapshot,
)

DEADLINE = 5


def position_of(board: chess.BaseBoard) -> Position:
    pieces = (board.piece_at(square) for square in chess.SQUARES)
    return tuple(None if piece is None else piece.symbol() for piece in pieces)


START = position_of(chess.BaseBoard())


@asynccontextmanager
async def board_on_pty(
    reconnect: bool = False,
) -> AsyncIterator[tuple[PtyLink, DgtSerialConnection]]:
    link = PtyLink(VirtualBoard())
    try:
        connection = await DgtSerialConnection.open(link.path, reconnect=reconnect)
        try:
            yield link, connection
        finally:
            connection.close()
    finally:
        link.close()


def stream(connection: DgtSerialConnection) -> AsyncGenerator[BoardEvent, None]:
    """The connection's events as a generator the test can close (``aclosing``)."""
    events = connection.events()
    assert isinstance(events, AsyncGenerator)
    return events


async def next_event(events: AsyncGenerator[BoardEvent, None]) -> BoardEvent:
    """The next event that is not a board status report."""
    with anyio.fail_after(DEADLINE):
        while isinstance(event := await anext(events), BoardStatus):
            pass
        return event


@pytest.mark.anyio
async def test_pty_board_sends_start_position_then_field_changes() -> None:
    async with board_on_pty() as (link, connection), aclosing(stream(connection)) as events:
        assert await next_event(events) == PositionSnapshot(START)
        # dump, clock, then updates
        assert link.board.commands_received[-3:] == [0x42, 0x41, 0x4B]

        link.board.set_square(52, 0)  # e2 lifted
        link.flush()
        change = await next_event(events)
        assert isinstance(change, FieldChange)
        assert change.square == chess.E2
        assert change.piece is None

        link.board.set_square(36, 1)  # pawn on e4
        link.flush()
        change = await next_event(events)
        assert isinstance(change, FieldChange)
        assert (change.square, change.piece) == (chess.E4, "P")
        board = chess.Board()
        board.push_uci("e2e4")
        assert change.position == position_of(board)
        assert connection.protocol.position == position_of(board)


def descriptors_of(path: str) -> list[int]:
    """This process's open descriptors on ``path``."""
    target = os.path.realpath(path)
    return [
        int(fd)
        for fd in os.listdir("/proc/self/fd")
        if os.path.realpath(f"/proc/self/fd/{fd}") == target
    ]


@pytest.mark.anyio
async def test_a_port_with_a_descriptor_above_1023_is_read():
    # A hub with hundreds of boards has descriptors past select()'s limit (FD_SETSIZE).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))
    filler = [os.open(os.devnull, os.O_RDONLY) for _ in range(1030)]
    try:
        async with board_on_pty() as (link, connection), aclosing(stream(connection)) as events:
            opened = descriptors_of(link.path)
            assert opened
            assert min(opened) > 1023
            assert await next_event(events) == PositionSnapshot(START)
            link.board.set_square(52, 0)  # e2 lifted
            link.flush()
            change = await next_event(events)
            assert isinstance(change, FieldChange)
            assert change.square == chess.E2
    finally:
        for fd in filler:
            os.close(fd)


@pytest.mark.anyio
async def test_closing_the_link_ends_the_stream_with_disconnected() -> None:
    async with board_on_pty() as (link, connection), aclosing(stream(connection)) as events:
        assert await next_event(events) == PositionSnapshot(START)

        link.close()

        received: list[BoardEvent] = []
        with anyio.fail_after(DEADLINE):
            async for event in events:
                received.append(event)
        assert received
        assert isinstance(received[-1], Disconnected)
        assert not any(isinstance(event, Disconnected) for event in received[:-1])


@pytest.mark.anyio
async def test_loop_url_reads_through_thread() -> None:
    connection = await DgtSerialConnection.open("loop://", reconnect=False)
    try:
        # On loop:// the start-up commands come straight back: nine bytes without bit 7,
        # which are no message start. They may arrive in several reads.
        discarded = 0
        async with aclosing(stream(connection)) as events:
            while discarded < 9:
                event = await next_event(events)
                assert isinstance(event, LineNoise)
                assert event.reason == "no message start"
                discarded += event.discarded
        assert discarded == 9
        assert connection.protocol.position is None
    finally:
        connection.close()
