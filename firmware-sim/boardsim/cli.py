"""``boardsim``: virtual DGT boards on pseudo-terminals, playing games from a PGN file.

``boardsim serve --pgn games.pgn --boards 8`` opens one pseudo-terminal per board and
prints one JSON line per board (``{"event": "board", "board": 1, "port": "/dev/pts/5",
"white": ..., "black": ...}``), then ``{"event": "ready"}``. Board N plays game N of the file
(the file is cycled when there are more boards than games) as soon as a host puts it into
update mode, and reports ``{"event": "finished", "board": N}`` at the end. The boards stay
connected until the process is interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import chess.pgn

from boardsim.board import VirtualBoard
from boardsim.player import Pace, play_game
from boardsim.pty_link import PtyLink


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardsim",
        description="Virtual DGT boards on pseudo-terminals, playing games from a PGN file.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve boards that play games from a PGN file")
    serve.add_argument("--pgn", type=Path, required=True, help="games to play, in order")
    serve.add_argument("--boards", type=int, default=8, help="number of boards (default 8)")
    serve.add_argument("--ply-seconds", type=float, default=1.5, help="mean thinking time per ply")
    serve.add_argument(
        "--touch-seconds", type=float, default=0.12, help="mean pause between touches"
    )
    serve.add_argument("--seed", type=int, default=None, help="seed for repeatable play")
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


def _emit(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


async def serve(
    games: Sequence[chess.pgn.Game], pace: Pace, seed: int | None, stop: asyncio.Event
) -> None:
    """Serve one board per game until ``stop`` is set; a failing player stops them all."""
    links = [PtyLink(VirtualBoard(serial_number=f"{10000 + n:05d}")) for n in range(len(games))]
    players: list[asyncio.Task[None]] = []
    failures: list[BaseException] = []

    async def play(number: int, link: PtyLink, game: chess.pgn.Game) -> None:
        rng = random.Random(None if seed is None else seed + number)
        await play_game(link, list(game.mainline_moves()), pace, rng)
        _emit({"event": "finished", "board": number})

    def watch(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            failures.append(error)
            stop.set()

    try:
        for number, (link, game) in enumerate(zip(links, games, strict=True), start=1):
            _emit(
                {
                    "event": "board",
                    "board": number,
                    "port": link.path,
                    "white": game.headers.get("White", "?"),
                    "black": game.headers.get("Black", "?"),
                }
            )
        _emit({"event": "ready"})
        for number, (link, game) in enumerate(zip(links, games, strict=True), start=1):
            players.append(asyncio.create_task(play(number, link, game)))
            players[-1].add_done_callback(watch)
        await stop.wait()
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for link in links:
            link.close()
    if failures:
        raise failures[0]


async def _main(args: argparse.Namespace) -> None:
    games = load_games(args.pgn, args.boards)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    pace = Pace(ply_seconds=args.ply_seconds, touch_seconds=args.touch_seconds)
    await serve(games, pace, args.seed, stop)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.boards < 1:
        print("boardsim: --boards must be at least 1", file=sys.stderr)
        return 2
    try:
        asyncio.run(_main(args))
    except (OSError, ValueError) as error:
        print(f"boardsim: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
