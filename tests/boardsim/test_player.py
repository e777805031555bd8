"""A player at a served board: games played in real time reach a host over pty and TCP."""

from __future__ import annotations

import random
from dataclasses import replace

import anyio
import chess
import pytest
import serial

from boardsim.board import VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import Dgt3000, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.pieces import position_of
from boardsim.player import play_game
from boardsim.pty_link import PtyLink
from boardsim.tcp_link import TcpLink
from boardsim.wire import bus_command

DEADLINE = 10
FAST = Pace(ply_seconds=0.02, touch_seconds=0.005)
SAN = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]


def scholars_mate() -> tuple[list[chess.Move], tuple[int, ...]]:
    board = chess.Board()
    moves = [board.push_san(san) for san in SAN]
    return moves, position_of(board)


async def read(port: serial.SerialBase, count: int) -> bytes:
    with anyio.fail_after(DEADLINE):
        data = await anyio.to_thread.run_sync(port.read, count)
    assert len(data) == count, data.hex()
    return bytes(data)


@pytest.mark.anyio
async def test_an_untidy_game_on_a_pty_adds_up_for_the_host() -> None:
    moves, expected = scholars_mate()
    link = PtyLink(VirtualBoard())
    port = serial.serial_for_url(link.path, timeout=5)
    noise = replace(NoiseModel.messy(), result_gesture=0.0)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(
                lambda: play_game(
                    link,
                    moves,
                    FAST,
                    random.Random(5),
                    noise=noise,
                    press_clock=False,
                    rotated_board=False,
                )
            )
            port.write(bytes((0x40, 0x42, 0x4B)))
            dump = await read(port, 67)
            seen = list(dump[3:])
            while tuple(seen) != expected:
                update = await read(port, 5)
                assert update[:3] == bytes((0x8E, 0, 5))
                seen[update[3]] = update[4]
        assert tuple(link.board.squares) == expected
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_a_game_on_a_bus_chain_seat_starts_when_the_board_is_addressed() -> None:
    moves, expected = scholars_mate()
    boards = [
        VirtualBoard(serial_number=f"0400{n}", clock=Dgt3000(TimeControl(300, 2))) for n in (1, 2)
    ]
    link = await TcpLink.open(BusChain(boards))
    port = serial.serial_for_url(link.url, timeout=5)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(play_game, link.seat(1), moves, FAST, random.Random(1))
            port.write(bus_command(0x87, 4002))
            assert (await read(port, 6))[0] == 0x87
        port.write(bus_command(0x82, 4002))
        dump = await read(port, 70)
        assert tuple(dump[5:-1]) == expected
        assert tuple(boards[0].squares) != expected  # the other board was left alone
        assert boards[1].clock is not None
        assert boards[1].clock.running is not None
    finally:
        port.close()
        await link.aclose()
