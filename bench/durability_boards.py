"""Durability with moves from boards: a move the hub has shown survives SIGKILL, is stored
once, and the boards' games end up stored move for move.

boardsim plays the bundled games on pseudo-terminals in a process of its own; ``relay
serve`` follows them with the event file that names their ports, on SQLite or PostgreSQL.
A board's move is acknowledged when the round's stream shows it: the hub publishes an event
only after committing it. At random moments the hub is killed with SIGKILL and started
again on the same database; the boards play on meanwhile and the restarted hub reads what
each board logged while nobody listened. After the last restart the hub runs until every
game is over, then:

* lost: a move shown on the stream (and the one the board played there) that is not in
  the game as stored;
* duplicated: a log entry that puts a move where the same move already stood;
* complete: games stored exactly as the boards played them.

Lost and duplicated must be 0, and every game complete. Never fails; prints the figures.

    .venv/bin/python -m bench.durability_boards [--kills 10] [--boards 16]
        [--ply-seconds 0.5] [--databases sqlite postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bench.boardsim_process import BoardsimProcess
from bench.durability import stored_moves, trial_options
from relay.demo.pgn_round import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from tests.relay_serve import relay_serve
from tests.stores import empty_store

#: Seconds the hub runs between its start and its kill, drawn uniformly.
UP_SECONDS = (1.0, 4.0)
#: Seconds the boards are given to play every game to its end.
FINISH_SECONDS = 600


@dataclass
class Figures:
    kills: int = 0
    #: (game id, ply) -> the move the stream showed there last, in UCI.
    shown: dict[tuple[int, int], str] = field(default_factory=dict)
    lost: int = 0
    duplicated: int = 0
    complete: int = 0
    games: int = 0
    #: Games not stored as played: (board, plies stored, plies played).
    incomplete: list[tuple[int, int, int]] = field(default_factory=list)


class Follower(threading.Thread):
    """Notes every move a round's stream shows until the connection ends."""

    def __init__(self, url: str, figures: Figures, lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.figures = figures
        self.lock = lock
        self.plies: dict[int, int] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            with connect(self.url, max_size=None, open_timeout=30) as stream:
                snapshot = json.loads(stream.recv(timeout=30))
                self.plies = {game["id"]: game["ply"] for game in snapshot["games"]}
                self.ready.set()
                while True:
                    message = json.loads(stream.recv())
                    if message.get("kind") not in {"move", "correction", "takeback"}:
                        continue
                    data, game = message["data"], message["game"]
                    with self.lock:
                        self.plies[game] = data["ply"]
                        if message["kind"] != "takeback":
                            self.figures.shown[(game, data["ply"])] = data["uci"]
        except (ConnectionClosed, OSError, TimeoutError):
            return  # the hub was killed
        finally:
            self.ready.set()


def played(boards: int) -> list[list[str]]:
    """What board n plays: the n-th bundled game, cycling, in UCI."""
    games = []
    with bundled_games().open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append([move.uci() for move in game.mainline_moves()])
    return [games[n % len(games)] for n in range(boards)]


def run(db_url: str, folder: Path, *, kills: int, boards: int, pace: float, seed: int) -> Figures:
    chance = random.Random(seed)
    figures = Figures(games=boards)
    lock = threading.Lock()
    sim = BoardsimProcess(bundled_games(), boards, "--ply-seconds", str(pace), "--seed", str(seed))
    try:
        event = folder / "event.toml"
        setup = event_setup(load_pairings(bundled_games(), boards), sim.ports)
        event.write_text(render_event_file(setup), encoding="utf-8")
        for _ in range(kills):
            with relay_serve(folder, event, db_url) as (process, address):
                follower = Follower(f"ws://{address}api/rounds/1/stream", figures, lock)
                follower.start()
                follower.ready.wait(timeout=30)
                time.sleep(chance.uniform(*UP_SECONDS))
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
                follower.join(timeout=30)
                figures.kills += 1
            print(f"  kill {figures.kills}: {len(figures.shown)} moves shown", flush=True)
        with relay_serve(folder, event, db_url) as (_, address):
            sim.wait_until(lambda: len(sim.finished) == boards, FINISH_SECONDS, "last game")
            follower = Follower(f"ws://{address}api/rounds/1/stream", figures, lock)
            follower.start()
            follower.ready.wait(timeout=30)
            expected = played(boards)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                with lock:
                    plies = sorted(follower.plies.values())
                if plies == sorted(len(moves) for moves in expected):
                    break
                time.sleep(0.5)
    finally:
        sim.stop()
    final = stored_moves(db_url)
    expected_by_game = dict(zip(sorted(final), played(boards), strict=True))
    for (game_id, ply), uci in figures.shown.items():
        moves, _ = final[game_id]
        source = expected_by_game[game_id]
        if ply <= len(source) and source[ply - 1] == uci and moves[ply - 1 : ply] != [uci]:
            figures.lost += 1
    figures.duplicated = sum(repeated for _, repeated in final.values())
    for board, (game, moves) in enumerate(sorted(expected_by_game.items()), start=1):
        if final[game][0] == moves:
            figures.complete += 1
        else:
            figures.incomplete.append((board, len(final[game][0]), len(moves)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    trial_options(parser)
    parser.add_argument("--boards", type=int, default=16, help="boards playing at once")
    parser.add_argument("--ply-seconds", type=float, default=0.5, help="each board's pace")
    args = parser.parse_args()
    for kind in args.databases:
        with (
            tempfile.TemporaryDirectory() as name,
            empty_store(kind, Path(name), "durability.db") as url,
        ):
            figures = run(
                url, Path(name), kills=args.kills, boards=args.boards, pace=args.ply_seconds,
                seed=args.seed,
            )  # fmt: skip
        print(
            f"{kind}: {figures.kills} SIGKILLs, {len(figures.shown)} board moves shown, "
            f"{figures.lost} lost, {figures.duplicated} duplicated, "
            f"{figures.complete} of {figures.games} games stored as played",
            flush=True,
        )
        for board, stored, moves in figures.incomplete:
            print(f"  board {board}: {stored} of {moves} plies stored", flush=True)


if __name__ == "__main__":
    main()
