"""The ``boardsim`` command line: loading games and refusing bad arguments."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

import anyio
import pytest
import serial

from boardsim.cli import build_parser, load_games, main, options_of
from boardsim.clock import Bonus, TimeControl
from boardsim.faults import Fault, FaultKind
from boardsim.noise import NoiseModel
from boardsim.pace import HALL, LIGHTNING, SCRAMBLE, Pace
from boardsim.performance import ClockSide
from boardsim.presses import HALL_PRESSES
from boardsim.scanner import ScanTiming
from boardsim.service import ServeOptions, serve
from boardsim.wire import bus_command
from tests.boardsim.recorder import Recorder

TWO_GAMES = """\
[Event "Test"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Test"]
[White "Gamma"]
[Black "Delta"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
"""


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    path = tmp_path / "two.pgn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    return path


def test_load_games_cycles_a_short_file(two_games: Path) -> None:
    games = load_games(two_games, 5)

    assert [game.headers["White"] for game in games] == [
        "Alpha",
        "Gamma",
        "Alpha",
        "Gamma",
        "Alpha",
    ]
    assert games[0] is games[2] is games[4]
    assert games[1] is games[3]
    assert len(list(games[0].mainline_moves())) == 7


def test_load_games_takes_the_first_games(two_games: Path) -> None:
    games = load_games(two_games, 1)

    assert len(games) == 1
    assert games[0].headers["Black"] == "Beta"


def test_load_games_of_empty_file_raises(tmp_path: Path) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text("\n\n", encoding="utf-8")

    with pytest.raises(ValueError, match="no games"):
        load_games(path, 3)


def test_load_games_with_illegal_move_raises(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text('[White "X"]\n\n1. e4 e5 2. Ke3 *\n', encoding="utf-8")

    with pytest.raises(ValueError, match="game 1"):
        load_games(path, 1)


def test_missing_pgn_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.pgn"

    assert main(["serve", "--pgn", str(missing)]) == 1

    captured = capsys.readouterr()
    assert captured.err.startswith("boardsim: ")
    assert "missing.pgn" in captured.err
    assert captured.out == ""


def test_empty_pgn_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text("", encoding="utf-8")

    assert main(["serve", "--pgn", str(path)]) == 1

    assert "no games" in capsys.readouterr().err


@pytest.mark.parametrize("boards", ["0", "-3"])
def test_too_few_boards_returns_2(
    two_games: Path, boards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pgn", str(two_games), "--boards", boards]) == 2

    assert "--boards must be at least 1" in capsys.readouterr().err


def test_parser_defaults(two_games: Path) -> None:
    args = build_parser().parse_args(["serve", "--pgn", str(two_games)])

    assert args.command == "serve"
    assert args.pgn == two_games
    assert args.boards == 8
    assert args.seed is None


def test_missing_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])

    assert exit_info.value.code == 2
    assert "usage: boardsim" in capsys.readouterr().err


# -- the serve options ------------------------------------------------------------------------


def options(*argv: str) -> ServeOptions:
    return options_of(build_parser().parse_args(["serve", "--games", "g.pgn", *argv]))


def test_default_options_are_the_clean_demo() -> None:
    chosen = options()

    assert chosen.noise == NoiseModel.clean()
    assert chosen.pace == HALL == Pace(1.5, 0.12, presses=HALL_PRESSES, reaction_seconds=0.2)
    assert chosen.timing.scan is None
    assert chosen.byte_seconds is None
    assert chosen.time_control == TimeControl(5400, 30)
    assert (chosen.bus, chosen.tcp_port, chosen.faults) == (False, None, ())
    assert chosen.clock_side is ClockSide.LEFT
    assert (chosen.report_moves, chosen.report_clock, chosen.wait_for_clock) == (False,) * 3


def test_clock_reports_and_the_central_start_are_asked_for_by_flag() -> None:
    chosen = options("--report-clock", "--wait-for-clock")

    assert (chosen.report_clock, chosen.wait_for_clock) == (True, True)
    assert not chosen.report_moves
    assert not chosen.black_starts
    assert options("--wait-for-clock", "--black-starts").black_starts


def test_games_and_pgn_are_the_same_option(two_games: Path) -> None:
    by_games = build_parser().parse_args(["serve", "--games", str(two_games)])
    by_pgn = build_parser().parse_args(["serve", "--pgn", str(two_games)])

    assert by_games.pgn == by_pgn.pgn == two_games


def test_every_option() -> None:
    chosen = options(
        "--ply-seconds", "2", "--touch-seconds", "0.2", "--speed", "10", "--bus", "--tcp", "0",
        "--faults", "mute@1:board=1", "--noise", "messy", "--scan-ms", "200-250",
        "--baud", "9600", "--time-control", "5d3", "--white-side", "right", "--seed", "4",
    )  # fmt: skip

    assert chosen.pace.ply_seconds == pytest.approx(0.2)
    assert chosen.pace.touch_seconds == pytest.approx(0.02)
    assert (chosen.bus, chosen.tcp_port, chosen.seed) == (True, 0, 4)
    assert chosen.faults == (Fault(FaultKind.MUTE, at=1.0, board=1),)
    assert chosen.noise == NoiseModel.messy()
    assert chosen.timing.scan == ScanTiming(0.2, 0.25)
    assert chosen.byte_seconds == pytest.approx(10 / 9600)
    assert chosen.time_control == TimeControl(300, 3, Bonus.DELAY)
    assert chosen.clock_side is ClockSide.RIGHT
    assert options("--no-clock").time_control is None


def test_a_named_pace_brings_its_time_control() -> None:
    lightning = options("--pace", "lightning")

    assert lightning.pace == LIGHTNING
    assert lightning.time_control == TimeControl(60, 0)
    assert options("--pace", "scramble").pace == SCRAMBLE
    assert options("--pace", "blitz").time_control == TimeControl(180, 2)
    assert options("--pace", "lightning", "--time-control", "3+2").time_control == TimeControl(
        180, 2
    )


def test_ply_and_touch_seconds_replace_the_pace_s_own() -> None:
    chosen = options("--pace", "lightning", "--ply-seconds", "0.5", "--touch-seconds", "0.2")

    assert chosen.pace == replace(LIGHTNING, ply_seconds=0.5, touch_seconds=0.2)
    assert options("--ply-seconds", "2").pace == replace(HALL, ply_seconds=2.0)


@pytest.mark.parametrize(
    ("argv", "side"),
    [
        (["--clock-side", "mixed"], ClockSide.MIXED),
        (["--clock-side", "right"], ClockSide.RIGHT),
        (["--white-side", "right"], ClockSide.RIGHT),  # the older name
        (["--white-side", "mixed"], ClockSide.MIXED),
    ],
)
def test_the_clock_side_and_its_older_name(argv: list[str], side: ClockSide) -> None:
    assert options(*argv).clock_side is side


@pytest.mark.parametrize("bad", [["--pace", "bullet"], ["--clock-side", "middle"]])
def test_unknown_paces_and_clock_sides_are_usage_errors(
    two_games: Path, bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--games", str(two_games), *bad])

    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bad",
    [
        ["--faults", "explode@1"],
        ["--time-control", "fast"],
        ["--scan-ms", "slow"],
        ["--baud", "-1"],
        ["--tcp", "70000"],
        ["--speed", "0"],
        ["--wait-for-clock", "--no-clock"],
        ["--black-starts"],
    ],
)
def test_bad_option_values_return_2(
    two_games: Path, bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--games", str(two_games), *bad]) == 2

    captured = capsys.readouterr()
    assert captured.err.startswith("boardsim: ")
    assert captured.out == ""


def test_a_fault_for_a_missing_board_returns_1(
    two_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["serve", "--games", str(two_games), "--boards", "2", "--faults", "mute:board=3"]

    assert main(argv) == 1

    captured = capsys.readouterr()
    assert "no board 3" in captured.err
    assert captured.out == ""


@pytest.mark.anyio
async def test_serve_a_bus_chain_on_tcp_with_a_fault(two_games: Path) -> None:
    games = load_games(two_games, 2)
    chosen = ServeOptions(
        pace=Pace(0.02, 0.005),
        seed=1,
        bus=True,
        tcp_port=0,
        faults=(Fault(FaultKind.BATTERY, board=1),),
    )
    recorder = Recorder()
    stop = asyncio.Event()
    serving = asyncio.create_task(serve(games, chosen, stop, recorder))
    try:
        await recorder.wait_for(event="ready")
        boards = [r for r in recorder.records if r["event"] == "board"]
        assert [(b["board"], b["serial"], b["address"]) for b in boards] == [
            (1, "10000", 10000),
            (2, "10001", 10001),
        ]
        assert boards[0]["url"] == boards[1]["url"] == boards[0]["port"]
        assert all(b["bus"] is True and b["transport"] == "tcp" for b in boards)
        assert (boards[1]["white"], boards[1]["black"]) == ("Gamma", "Delta")
        await recorder.wait_for(event="fault", kind="battery", phase="start")

        port = serial.serial_for_url(str(boards[0]["url"]), timeout=5)
        try:
            port.write(bus_command(0x87, 10001))  # board 2 is addressed: its game starts
            await recorder.wait_for(event="finished", board=2)
            port.write(bus_command(0x81, 10000))
            with anyio.fail_after(10):
                data = await anyio.to_thread.run_sync(port.read, 6 + 13)
            ping, clock = data[:6], data[6:]
            assert ping[0] == 0x87
            assert clock[:3] == bytes((0x84, 0, 13))
            assert clock[11] & 0x04  # battery low on board 1
            assert not any(r["event"] == "finished" and r["board"] == 1 for r in recorder.records)
        finally:
            port.close()
    finally:
        stop.set()
        with anyio.fail_after(10):
            await serving


@pytest.mark.anyio
@pytest.mark.processes
async def test_the_boardsim_command_serves_on_tcp(two_games: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boardsim", "serve", "--games", str(two_games), "--boards", "1",
        "--tcp", "0", "--speed", "50", "--seed", "2", "--no-clock",
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    port = None
    try:
        with anyio.fail_after(30):
            board = json.loads(await process.stdout.readline())
            assert json.loads(await process.stdout.readline()) == {"event": "ready"}
        assert board["event"] == "board"
        assert board["port"] == board["url"]
        assert board["url"].startswith("socket://127.0.0.1:")
        port = serial.serial_for_url(board["url"], timeout=5)
        port.write(bytes((0x40, 0x42, 0x4B)))
        with anyio.fail_after(10):
            dump = await anyio.to_thread.run_sync(port.read, 67)
            assert dump[:3] == bytes((0x86, 0, 67))
            finished = json.loads(await process.stdout.readline())
            assert finished == {
                "event": "finished",
                "board": 1,
                "plies": 7,
                "result": "1-0",
                "round": 1,
            }
    finally:
        if port is not None:
            port.close()
        process.terminate()
        with anyio.fail_after(10):
            assert await process.wait() == 0


@pytest.mark.anyio
async def test_moves_are_reported_with_the_time_of_their_last_touch(two_games: Path) -> None:
    games = load_games(two_games, 1)
    plies = len(list(games[0].mainline_moves()))
    chosen = ServeOptions(pace=Pace(0.02, 0.005), seed=3, tcp_port=0, report_moves=True)
    recorder = Recorder()
    stop = asyncio.Event()
    serving = asyncio.create_task(serve(games, chosen, stop, recorder))
    try:
        await recorder.wait_for(event="ready")
        (board,) = [r for r in recorder.records if r["event"] == "board"]
        port = serial.serial_for_url(str(board["url"]), timeout=5)
        try:
            port.write(bytes((0x40, 0x42, 0x4B)))  # reset, dump, update: the game starts
            with anyio.fail_after(20):
                await recorder.wait_for(event="finished", board=1)
        finally:
            port.close()
        moved = [r for r in recorder.records if r["event"] == "moved"]
        assert [r["ply"] for r in moved] == list(range(1, plies + 1))
        times = [float(str(r["at"])) for r in moved]
        assert times == sorted(times)
        assert all(r["board"] == 1 for r in moved)
    finally:
        stop.set()
        with anyio.fail_after(10):
            await serving
