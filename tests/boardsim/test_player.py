"""A player at a served board: games played in real time reach a host over pty and TCP."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import anyio
import anyio.lowlevel
import chess
import pytest
import serial

from boardsim.board import VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import ClockCommand, Dgt3000, Side, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import PressLever, Step
from boardsim.pieces import position_of
from boardsim.player import ClockStart, play_game
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


# -- waiting for the host to start the clock --------------------------------------------------


def setnrun(mode: int) -> bytes:
    return bytes((0, 5, 0, 0, 5, 0, mode))


def test_clock_start_is_set_only_by_a_setnrun_that_runs_the_clock() -> None:
    clock = Dgt3000(TimeControl(300, 0), ack_delay=(0.0, 0.0))
    start = ClockStart(clock)
    assert not start.started

    clock.handle(ClockCommand.SETNRUN, setnrun(0x04 | 0x01), 1.0)  # paused
    clock.handle(ClockCommand.SETNRUN, setnrun(0x08), 2.0)  # set, nothing runs
    clock.handle(ClockCommand.SETNRUN, bytes((0, 99, 0, 0, 5, 0, 0x01)), 3.0)  # refused
    assert not start.started

    clock.handle(ClockCommand.SETNRUN, setnrun(0x01 | 0x08), 4.0)
    assert start.started

    start.close()
    start.close()
    assert clock.listeners == []


def test_a_clock_already_running_counts_as_started() -> None:
    clock = Dgt3000(TimeControl(300, 0))
    clock.handle(ClockCommand.SETNRUN, setnrun(0x02), 1.0)

    assert ClockStart(clock).started


@pytest.mark.anyio
async def test_waiting_for_the_clock_needs_a_clock() -> None:
    link = await TcpLink.open(VirtualBoard())
    try:
        with pytest.raises(ValueError, match="clock"):
            await play_game(link, [], FAST, random.Random(1), wait_for_clock=True)
    finally:
        await link.aclose()


@contextlib.asynccontextmanager
async def clocked_board() -> AsyncIterator[tuple[Dgt3000, TcpLink, serial.SerialBase]]:
    """A board with a DGT 3000 (acks at once) on TCP, and the host's port to it."""
    clock = Dgt3000(TimeControl(300, 0), ack_delay=(0.0, 0.0))
    link = await TcpLink.open(VirtualBoard(clock=clock))
    port = serial.serial_for_url(link.url, timeout=5)
    try:
        yield clock, link, port
    finally:
        port.close()
        await link.aclose()


@pytest.mark.anyio
async def test_black_may_start_the_clock_and_white_still_waits_for_the_host() -> None:
    moves, expected = scholars_mate()
    instant = Pace(ply_seconds=0.0, touch_seconds=0.0)
    started = anyio.Event()

    def heard(step: Step, at: float) -> None:
        if isinstance(step.action, PressLever) and not step.ply:
            started.set()

    async with clocked_board() as (clock, link, port):
        async with anyio.create_task_group() as group:
            group.start_soon(
                lambda: play_game(
                    link,
                    moves,
                    instant,
                    random.Random(3),
                    wait_for_clock=True,
                    black_starts=True,
                    on_step=heard,
                )
            )
            port.write(bytes((0x4B,)))  # update mode: the player sits down
            with anyio.fail_after(DEADLINE):
                await started.wait()
            # Black's press started White's time; White, thinking for no time at all, would
            # have moved within a few turns of the loop if it did not wait for the host.
            for _ in range(50):
                await anyio.lowlevel.checkpoint()
            assert clock.running is Side.LEFT
            assert tuple(link.board.squares) == position_of(chess.Board())
            assert len(clock.listeners) == 1  # White listens for the central start

            clock.handle(ClockCommand.SETNRUN, setnrun(0x01 | 0x08), link.board.now)
        assert tuple(link.board.squares) == expected
        assert clock.listeners == []


@pytest.mark.anyio
async def test_a_game_started_by_the_host_before_the_player_sat_down_is_played() -> None:
    moves, expected = scholars_mate()
    async with clocked_board() as (clock, link, port):
        # Update mode, the central start (left runs, toggle on lever), then a dump to know
        # the board has taken all of it.
        port.write(bytes((0x4B, 0x2B, 0x0A, 0x03, 0x0A, *setnrun(0x09), 0x00, 0x42)))
        while (await read(port, 3))[0] != 0x86:
            await read(port, 7)  # the SETNRUN's ack, or a BWTIME
        await read(port, 64)
        started = clock.reading()
        assert (started.running, started.turn) == (True, Side.LEFT)

        with anyio.fail_after(DEADLINE):
            await play_game(link, moves, FAST, random.Random(2), wait_for_clock=True)

        assert tuple(link.board.squares) == expected
        assert clock.listeners == []  # the player stopped listening once it had started
        # Nobody pressed to begin: White's press handed over to Black, and so on; after
        # White's mating move the right side (Black) runs.
        assert clock.running is Side.RIGHT
