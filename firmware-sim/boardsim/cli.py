"""``boardsim``: virtual DGT boards on pseudo-terminals or TCP, playing games from a PGN file.

``boardsim serve --games games.pgn --boards 8`` opens one pseudo-terminal per board and
prints one JSON line per board (``{"event": "board", "board": 1, "port": "/dev/pts/5",
"white": ..., "black": ..., "url": ..., "serial": ..., "address": ...}``), then
``{"event": "ready"}``. Board N plays game N of the file (the file is cycled when there are
more boards than games) as soon as a host listens to it, and reports ``{"event": "finished",
"board": N, "plies": P, "result": R}`` at the end. The boards stay connected until the
process is interrupted.
:mod:`boardsim.service` lists every JSON line.

Options beyond that: ``--pgn`` is the older name of ``--games``; ``--pace`` names how fast
the players are (``hall`` by default, ``blitz``, ``scramble`` or ``lightning``: the numbers
are in :mod:`boardsim.pace`), and sets the clocks' time control to the pace's own (90+30,
3+2, 3 and 1 minutes) unless ``--time-control`` says otherwise; ``--ply-seconds`` and
``--touch-seconds`` replace the pace's mean thinking time and pause between touches;
``--speed N`` divides every human timing (thinking, touching) by N; ``--bus`` puts all
boards on one line as a bus chain;
``--tcp PORT`` serves on ``socket://127.0.0.1:PORT`` (PORT+1, ... for more lines; 0 picks
free ports); ``--faults SPEC`` injects faults (:mod:`boardsim.faults`); ``--noise`` picks how
untidy the players are (``clean`` by default, which the demo relies on); ``--scan-ms``
turns on the 200-250 ms sensor scan (off by default, so fast demo games stay clean);
``--baud 9600`` paces the line like the real cable; ``--time-control`` and ``--no-clock``
set up the clocks; ``--clock-side`` says where White's time is (``left``, the default,
``right``, or ``mixed``: left on odd boards, right on even boards; ``--white-side`` is its
older name); ``--report-moves`` and ``--report-clock`` add JSON lines about the moves
and about what the clocks did with the host's SETNRUN commands (and their flags);
``--wait-for-clock`` makes each player wait for the host to start the clock with a SETNRUN
(the arbiter's central start) before White's first move; ``--black-starts`` has Black start
White's time first all the same, as players do while they wait for the arbiter.
``--rounds N`` plays N games on every board, one a round, as a weekend's rehearsal: after
a game the players set the pieces up again and reset the clock (``--round-gap`` seconds
later, 5 by default), and the next game (the file's next ``--boards`` games) begins as the
first did; with ``--wait-for-clock``, when the arbiter starts the round's clocks. Fixed
ports (``--tcp 7001``: boards on 7001, 7002, ...) stay the same when boardsim is started
again, so the event file's ``socket://127.0.0.1:7001`` keeps working.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import chess.pgn

from boardsim.board import BoardTiming
from boardsim.clock import TimeControl
from boardsim.faults import parse_faults
from boardsim.noise import NoiseModel
from boardsim.pace import PACES, TIME_CONTROLS, named_pace
from boardsim.performance import ClockSide
from boardsim.scanner import ScanTiming
from boardsim.service import ServeOptions, serve


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardsim",
        description="Virtual DGT boards on pseudo-terminals or TCP, playing games from PGN.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve_ = commands.add_parser("serve", help="serve boards that play games from a PGN file")
    serve_.add_argument(
        "--games", "--pgn", dest="pgn", type=Path, required=True, help="games to play, in order"
    )
    serve_.add_argument("--boards", type=int, default=8, help="number of boards (default 8)")
    serve_.add_argument(
        "--pace", default="hall", choices=tuple(PACES), help="how fast the players are (hall)"
    )
    serve_.add_argument(
        "--ply-seconds", type=float, default=None, help="mean thinking time per ply (the pace's)"
    )
    serve_.add_argument(
        "--touch-seconds", type=float, default=None, help="mean pause between touches (the pace's)"
    )
    serve_.add_argument(
        "--speed", type=float, default=1.0, help="divide every human timing by this (default 1)"
    )
    serve_.add_argument("--seed", type=int, default=None, help="seed for repeatable play")
    serve_.add_argument("--bus", action="store_true", help="all boards on one line, in bus mode")
    serve_.add_argument(
        "--tcp",
        type=int,
        default=None,
        metavar="PORT",
        help="serve on TCP from PORT, PORT+1, ... (fixed ports survive a restart; 0: free ones)",
    )
    serve_.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="N",
        help="games per board, one a round: the board is set up again between them",
    )
    serve_.add_argument(
        "--round-gap",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="from a game's end to the board set up for the next round (default 5)",
    )
    serve_.add_argument("--faults", default="", metavar="SPEC", help="faults to inject")
    serve_.add_argument(
        "--noise", default="clean", choices=("clean", "human", "messy"), help="player habits"
    )
    serve_.add_argument(
        "--scan-ms", default="0", metavar="MS", help="sensor scan time, e.g. 200-250 (0: instant)"
    )
    serve_.add_argument(
        "--baud", type=int, default=0, help="pace the line at this baud rate (0: instant)"
    )
    serve_.add_argument(
        "--time-control",
        default=None,
        help="clock time control, e.g. 90+30, 5d3, 5b3, 1, 90/40:30+30 (default: the pace's)",
    )
    serve_.add_argument("--no-clock", action="store_true", help="boards without a clock")
    serve_.add_argument(
        "--clock-side",
        "--white-side",
        dest="clock_side",
        default="left",
        choices=tuple(side.value for side in ClockSide),
        help="White's side of the clock; mixed: left on odd boards, right on even ones",
    )
    serve_.add_argument(
        "--report-moves",
        action="store_true",
        help='report {"event": "moved", ...} with the time of each move\'s last touch',
    )
    serve_.add_argument(
        "--report-clock",
        action="store_true",
        help='report {"event": "clock-set" | "clock-refused", ...} for each SETNRUN a clock '
        'accepts or refuses, and {"event": "flag", ...} when a flag falls',
    )
    serve_.add_argument(
        "--wait-for-clock",
        action="store_true",
        help="players wait for the host to start the clock (SETNRUN) before White's first move",
    )
    serve_.add_argument(
        "--black-starts",
        action="store_true",
        help="with --wait-for-clock: Black presses to start White's time before that wait",
    )
    return parser


def load_games(path: Path, count: int) -> list[chess.pgn.Game]:
    """The first ``count`` games of ``path``, cycling through the file if it is short."""
    games: list[chess.pgn.Game] = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            if game.errors:
                raise ValueError(f"{path}: game {len(games) + 1}: {game.errors[0]}")
            games.append(game)
    if not games:
        raise ValueError(f"{path}: no games")
    return [games[i % len(games)] for i in range(count)]


def options_of(args: argparse.Namespace) -> ServeOptions:
    """The serve options an argument list asks for; raises ValueError on bad values."""
    if args.baud < 0:
        raise ValueError("--baud must not be negative")
    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    if args.round_gap < 0:
        raise ValueError("--round-gap must not be negative")
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        raise ValueError("--tcp needs a port number")
    if args.wait_for_clock and args.no_clock:
        raise ValueError("--wait-for-clock needs a clock: drop --no-clock")
    if args.black_starts and not args.wait_for_clock:
        raise ValueError(
            "--black-starts goes with --wait-for-clock (without it Black always starts the clock)"
        )
    pace = named_pace(args.pace)
    if args.ply_seconds is not None:
        pace = replace(pace, ply_seconds=args.ply_seconds)
    if args.touch_seconds is not None:
        pace = replace(pace, touch_seconds=args.touch_seconds)
    time_control = args.time_control or TIME_CONTROLS[args.pace]
    return ServeOptions(
        pace=pace.faster(args.speed),
        seed=args.seed,
        noise=NoiseModel.preset(args.noise),
        timing=BoardTiming.realistic(scan=ScanTiming.parse(args.scan_ms)),
        time_control=None if args.no_clock else TimeControl.parse(time_control),
        clock_side=ClockSide(args.clock_side),
        bus=args.bus,
        tcp_port=args.tcp,
        byte_seconds=10 / args.baud if args.baud else None,
        faults=tuple(parse_faults(args.faults)),
        report_moves=args.report_moves,
        report_clock=args.report_clock,
        wait_for_clock=args.wait_for_clock,
        black_starts=args.black_starts,
        rounds=args.rounds,
        round_gap_seconds=args.round_gap,
    )


async def _main(args: argparse.Namespace, options: ServeOptions) -> None:
    games = load_games(args.pgn, args.boards * args.rounds)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await serve(games, options, stop)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.boards < 1:
        print("boardsim: --boards must be at least 1", file=sys.stderr)
        return 2
    try:
        options = options_of(args)
    except ValueError as error:
        print(f"boardsim: {error}", file=sys.stderr)
        return 2
    try:
        asyncio.run(_main(args, options))
    except (OSError, ValueError) as error:
        print(f"boardsim: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
