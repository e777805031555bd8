"""``serve`` with the clock options: clock reports as JSON lines, and the central start."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import anyio
import pytest
import serial

from boardsim.bwtime import Status
from boardsim.cli import load_games
from boardsim.clock import (
    FlagFell,
    Refusal,
    RunMode,
    SetnrunApplied,
    SetnrunRefused,
    Side,
    TimeControl,
)
from boardsim.faults import Fault, FaultKind
from boardsim.pace import Pace
from boardsim.performance import ClockSide
from boardsim.pieces import START_POSITION
from boardsim.service import ServeOptions, clock_record, serve
from tests.boardsim.recorder import Recorder

DEADLINE = 10
FAST = Pace(ply_seconds=0.02, touch_seconds=0.005)
SCHOLARS_MATE = """\
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""
PLIES = 7

SEND_CLK = 0x41
SEND_BRD = 0x42
SEND_UPDATE_NICE = 0x4B


def setnrun(left: tuple[int, int, int], right: tuple[int, int, int], mode: int) -> bytes:
    """A SETNRUN clock message as the host sends it through the board."""
    return bytes((0x2B, 0x0A, 0x03, 0x0A, *left, *right, mode, 0x00))


@pytest.fixture
def one_game(tmp_path: Path) -> Path:
    path = tmp_path / "mate.pgn"
    path.write_text(SCHOLARS_MATE, encoding="utf-8")
    return path


async def read_message(port: serial.SerialBase) -> bytes:
    """One whole message from the board, by its length header."""

    def read() -> bytes:
        head = bytes(port.read(3))
        assert len(head) == 3, head.hex()
        rest = bytes(port.read((head[1] << 7 | head[2]) - 3))
        return head + rest

    with anyio.fail_after(DEADLINE):
        return await anyio.to_thread.run_sync(read)


def ack_bytes(message: bytes) -> tuple[int, int] | None:
    """(ack0, ack1) if ``message`` is a clock ack, else None (dgt-protocol.md, BWTIME)."""
    if message[0] != 0x8D or (message[3] & 0x0F != 0x0A and message[6] & 0x0F != 0x0A):
        return None
    return message[4] & 0x7F | (message[6] << 3) & 0x80, message[5] & 0x7F | (
        message[6] << 2
    ) & 0x80


async def next_ack(port: serial.SerialBase) -> tuple[int, int]:
    while (ack := ack_bytes(await read_message(port))) is None:
        pass
    return ack


async def serving(games_path: Path, count: int, options: ServeOptions, recorder: Recorder):
    """Start ``serve`` and return its task, its stop event and the boards' URLs."""
    stop = asyncio.Event()
    task = asyncio.create_task(serve(load_games(games_path, count), options, stop, recorder))
    await recorder.wait_for(event="ready")
    urls = [str(r["url"]) for r in recorder.of("board")]
    return task, stop, urls


async def stopped(task: asyncio.Task[None], stop: asyncio.Event) -> None:
    stop.set()
    with anyio.fail_after(DEADLINE):
        await task


def test_clock_records_are_the_documented_json_lines() -> None:
    applied = SetnrunApplied(5400, 5399, RunMode.BOTH, 3.0)
    refused = SetnrunRefused(Refusal.NOT_MODE23, 3.0)

    assert clock_record(2, applied, 1700000000.5) == {
        "event": "clock-set",
        "board": 2,
        "left": 5400,
        "right": 5399,
        "run": "both",
        "at": 1700000000.5,
    }
    assert clock_record(3, refused, 1.0) == {
        "event": "clock-refused",
        "board": 3,
        "reason": "not-in-mode-23",
    }
    assert clock_record(1, FlagFell(Side.RIGHT, 9.0), 2.0) == {
        "event": "flag",
        "board": 1,
        "side": "right",
        "at": 2.0,
    }


@pytest.mark.anyio
async def test_serve_reports_the_setnruns_a_clock_applies_and_refuses_and_its_flag(
    one_game: Path,
) -> None:
    options = ServeOptions(pace=FAST, seed=4, time_control=TimeControl(300, 0), report_clock=True)
    recorder = Recorder()
    task, stop, (url,) = await serving(one_game, 1, options, recorder)
    port = serial.serial_for_url(url, timeout=5)
    try:
        assert recorder.of("clock-set") == recorder.of("clock-refused") == []
        before = time.time()
        port.write(
            bytes((SEND_UPDATE_NICE,))
            + setnrun((0, 60, 0), (0, 5, 0), 0x01)  # 60 minutes: not a time
            # Left 1:02:03, right 0:00:01, right runs; no toggle, so the players' presses
            # leave it running until its flag falls.
            + setnrun((1, 2, 3), (0, 0, 1), 0x02)
        )

        refused = await recorder.wait_for(event="clock-refused")
        applied = await recorder.wait_for(event="clock-set")
        after = time.time()
        assert refused == {"event": "clock-refused", "board": 1, "reason": "bad-time"}
        assert {k: v for k, v in applied.items() if k != "at"} == {
            "event": "clock-set",
            "board": 1,
            "left": 3723,
            "right": 1,
            "run": "right",
        }
        set_at = float(str(applied["at"]))
        assert before <= set_at <= after
        # The clock answers in the order it was asked: the error ack, then the OK.
        assert await next_ack(port) == (0x40, 0x0A)
        assert await next_ack(port) == (0x10, 0x0A)

        flag = await recorder.wait_for(event="flag")
        assert {k: v for k, v in flag.items() if k != "at"} == {
            "event": "flag",
            "board": 1,
            "side": "right",
        }
        assert float(str(flag["at"])) - set_at == pytest.approx(1.0, abs=0.05)
        assert len(recorder.of("clock-set")) == len(recorder.of("flag")) == 1
    finally:
        port.close()
        await stopped(task, stop)


@pytest.mark.anyio
async def test_without_report_clock_no_clock_lines(one_game: Path) -> None:
    options = ServeOptions(pace=FAST, seed=4, time_control=TimeControl(300, 0))
    recorder = Recorder()
    task, stop, (url,) = await serving(one_game, 1, options, recorder)
    port = serial.serial_for_url(url, timeout=5)
    try:
        port.write(bytes((SEND_UPDATE_NICE,)) + setnrun((0, 1, 0), (0, 1, 0), 0x09))
        assert await next_ack(port) == (0x10, 0x0A)  # applied, but not reported
        await recorder.wait_for(event="finished", board=1)
        kinds = {record["event"] for record in recorder.records}
        assert kinds == {"board", "ready", "finished"}
    finally:
        port.close()
        await stopped(task, stop)


@pytest.mark.anyio
async def test_a_clock_with_noack_ignores_the_setnrun_and_reports_nothing(
    one_game: Path,
) -> None:
    options = ServeOptions(
        pace=FAST,
        seed=4,
        time_control=TimeControl(300, 0),
        report_clock=True,
        faults=(Fault(FaultKind.NOACK, board=1),),
    )
    recorder = Recorder()
    task, stop, (url,) = await serving(one_game, 1, options, recorder)
    port = serial.serial_for_url(url, timeout=5)
    try:
        await recorder.wait_for(event="fault", kind="noack", phase="start")
        # SETNRUN to 0:00:30 each, paused; then SEND_CLK, which the board answers itself.
        port.write(
            bytes((SEND_UPDATE_NICE, SEND_BRD))
            + setnrun((0, 0, 30), (0, 0, 30), 0x04)
            + bytes((SEND_CLK,))
        )
        while (message := await read_message(port))[0] != 0x86:
            pass
        while ack_bytes(message := await read_message(port)) is not None or message[0] != 0x8D:
            pass
        # The clock kept its own times (5:00 or just under), not the SETNRUN's 0:00:30.
        assert message[4] in (0x04, 0x05)
        assert message[7] in (0x04, 0x05)
        assert recorder.of("clock-set") == recorder.of("clock-refused") == []
    finally:
        port.close()
        await stopped(task, stop)


@pytest.mark.anyio
async def test_with_wait_for_clock_white_moves_only_after_the_host_starts_the_clock(
    one_game: Path,
) -> None:
    options = ServeOptions(
        pace=FAST,
        seed=6,
        time_control=TimeControl(300, 0),
        report_moves=True,
        report_clock=True,
        wait_for_clock=True,
    )
    recorder = Recorder()
    task, stop, urls = await serving(one_game, 2, options, recorder)
    first, second = (serial.serial_for_url(url, timeout=5) for url in urls)
    start = setnrun((0, 5, 0), (0, 5, 0), 0x01 | 0x08)  # White (left) runs, toggle on lever
    try:
        # Both hosts listen (update mode; the dump's arrival says the mode was taken).
        for port in (first, second):
            port.write(bytes((SEND_UPDATE_NICE, SEND_BRD)))
            assert (await read_message(port))[0] == 0x86

        # Board 2's clock is started and its whole game is played, which is ample time
        # for board 1, whose host listens as well, to have moved had it not waited.
        second.write(start)
        await recorder.wait_for(event="finished", board=2)
        assert len(recorder.of("moved", board=2)) == PLIES
        assert recorder.of("moved", board=1) == recorder.of("clock-set", board=1) == []
        assert first.in_waiting == 0  # not one field update from board 1

        first.write(start)
        await recorder.wait_for(event="finished", board=1)
        (applied,) = recorder.of("clock-set", board=1)
        assert applied["run"] == "left"
        moved = recorder.of("moved", board=1)
        assert [record["ply"] for record in moved] == list(range(1, PLIES + 1))
        assert all(float(str(r["at"])) > float(str(applied["at"])) for r in moved)
        # Its first news after the start is the start's ack, the new times, or a move.
        assert (await read_message(first))[0] in (0x8D, 0x8E)
    finally:
        first.close()
        second.close()
        await stopped(task, stop)


@pytest.mark.anyio
async def test_waiting_for_the_clock_needs_a_clock(one_game: Path) -> None:
    options = ServeOptions(time_control=None, wait_for_clock=True)

    with pytest.raises(ValueError, match="clock"):
        await serve(load_games(one_game, 1), options, asyncio.Event(), Recorder())


@pytest.mark.anyio
async def test_a_mixed_room_puts_white_left_on_odd_boards_and_right_on_even(
    one_game: Path,
) -> None:
    options = ServeOptions(pace=FAST, seed=2, clock_side=ClockSide.MIXED)
    recorder = Recorder()
    task, stop, urls = await serving(one_game, 2, options, recorder)
    try:
        for url, white in zip(urls, (Side.LEFT, Side.RIGHT), strict=True):
            port = serial.serial_for_url(url, timeout=5)
            try:
                port.write(bytes((SEND_UPDATE_NICE, SEND_BRD)))
                # Black presses to begin: the first reading of a running clock shows
                # White's time running, on White's side of the clock.
                while True:
                    message = await read_message(port)
                    is_time = message[0] == 0x8D and ack_bytes(message) is None
                    if is_time and message[9] & Status.RUNNING:
                        break
                turn = Status.LEFT_TURN if white is Side.LEFT else Status.RIGHT_TURN
                assert message[9] & (Status.LEFT_TURN | Status.RIGHT_TURN) == turn
            finally:
                port.close()
    finally:
        await stopped(task, stop)


@pytest.mark.anyio
async def test_each_round_a_board_is_set_up_again_and_its_next_game_waits_for_the_start(
    tmp_path: Path,
) -> None:
    """A weekend's rehearsal: board 1 plays the file's first game in round 1, then, set up
    again with its clock reset, the file's second game once the host starts round 2."""
    games = tmp_path / "two.pgn"
    other = '[White "Gamma"]\n[Black "Delta"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    games.write_text(SCHOLARS_MATE + "\n" + other, encoding="utf-8")
    options = ServeOptions(
        pace=FAST,
        seed=3,
        time_control=TimeControl(300, 0),
        report_moves=True,
        wait_for_clock=True,
        rounds=2,
        round_gap_seconds=0.05,
    )
    recorder = Recorder()
    stop = asyncio.Event()
    task = asyncio.create_task(serve(load_games(games, 2), options, stop, recorder))
    await recorder.wait_for(event="ready")
    ((url, white),) = [(str(r["url"]), r["white"]) for r in recorder.of("board")]
    assert white == "Alpha"
    port = serial.serial_for_url(url, timeout=5)
    start = setnrun((0, 5, 0), (0, 5, 0), 0x01 | 0x08)
    try:
        port.write(bytes((SEND_UPDATE_NICE, SEND_BRD)) + start)
        await recorder.wait_for(event="finished", board=1, round=1)
        new_round = await recorder.wait_for(event="round", board=1)
        assert (new_round["round"], new_round["white"], new_round["black"]) == (2, "Gamma", "Delta")
        port.reset_input_buffer()
        port.write(bytes((SEND_BRD,)))
        while (message := await read_message(port))[0] != 0x86:
            pass
        assert bytes(message[3:]) == bytes(START_POSITION)  # the pieces are back
        assert len(recorder.of("moved", board=1)) == PLIES  # round 2 waits for its start
        port.write(start)
        finished = await recorder.wait_for(event="finished", board=1, round=2)
        assert (finished["plies"], finished["result"]) == (4, "0-1")
    finally:
        port.close()
        await stopped(task, stop)


@pytest.mark.anyio
async def test_games_that_do_not_fill_the_rounds_are_refused(one_game: Path) -> None:
    with pytest.raises(ValueError, match="3 games do not make 2 rounds"):
        await serve(load_games(one_game, 3), ServeOptions(rounds=2), asyncio.Event(), Recorder())
