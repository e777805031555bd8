"""Storing a move: CPU and wall time per append and commit, by the two paths into the log.

Every move of a live round is appended to its game's log and committed (a full sync on
SQLite) before anyone sees it, on the hub's store thread, which shares the GIL with the
event loop. This times, in one run, on a SQLite file with a 500-board round:

* ``session``: :func:`relay.store.event_log.append_events` in a session of its own, as the
  arbiter's actions and the importers append;
* ``appender``: :class:`relay.store.log_appender.LogAppender`, the live path the hub's
  recorder uses, one driver connection kept open.

The CPU time is the thread's own (``time.thread_time``: the commit's sync included, the
waiting for the disk not). Prints medians and p99 and the ratio of the medians; never fails.

    .venv/bin/python -m bench.store_append [--moves 5000] [--db sqlite:///path]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlmodel import Session, select

from relay.demo.pgn_round import bundled_games, event_setup, load_pairings
from relay.store.engine import open_store
from relay.store.event_log import append_events
from relay.store.log_appender import LogAppender
from relay.store.models import Game
from relay.store.setup import load_event

BOARDS = 500
#: A move's event as the tracker stores it (the size matters little; the round trips do).
MOVE = {
    "ply": 21,
    "uci": "g1f3",
    "san": "Nf3",
    "fen": "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 3 3",
    "at": 1_790_000_000.0,
    "recovered": False,
    "confirmed": False,
    "clock": 5321.0,
}


def timed(append: Callable[[int], object], games: list[int], moves: int) -> dict[str, list[float]]:
    """Milliseconds of CPU and of wall time per append, after a warm-up of one per board."""
    cpu: list[float] = []
    wall: list[float] = []
    for n in range(moves + len(games)):
        game = games[n % len(games)]
        cpu_start, wall_start = time.thread_time(), time.perf_counter()
        append(game)
        if n >= len(games):
            cpu.append((time.thread_time() - cpu_start) * 1e3)
            wall.append((time.perf_counter() - wall_start) * 1e3)
    return {"cpu": cpu, "wall": wall}


def run(url: str, moves: int) -> dict[str, dict[str, list[float]]]:
    engine = open_store(url)
    try:
        ports = [f"/dev/bench{n}" for n in range(1, BOARDS + 1)]
        with Session(engine) as session:
            load_event(session, event_setup(load_pairings(bundled_games(), BOARDS), ports))
            session.commit()
            games = [game.id for game in session.exec(select(Game)).all() if game.id is not None]

        def by_session(game: int) -> object:
            with Session(engine, expire_on_commit=False) as session:
                appended = append_events(
                    session, game_id=game, events=[("move", MOVE)], recorded_at=time.time()
                )
                session.commit()
                return appended

        appender = LogAppender(engine)
        try:
            results = {
                "session": timed(by_session, games, moves),
                "appender": timed(
                    lambda game: appender.append(
                        game_id=game, events=[("move", MOVE)], recorded_at=time.time()
                    ),
                    games,
                    moves,
                ),
            }
        finally:
            appender.close()
        return results
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5000, help="appends timed per path")
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temp folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'store-bench.db'}"
        print(f"{args.moves} moves per path on {BOARDS} boards, {url.split(':')[0]}")
        results = run(url, args.moves)
    for path, figures in results.items():
        line = "   ".join(
            f"{kind} median {statistics.median(values):.3f} ms, "
            f"p99 {sorted(values)[int(len(values) * 0.99)]:.3f} ms"
            for kind, values in figures.items()
        )
        print(f"{path:>9}: {line}")
    ratio = statistics.median(results["session"]["cpu"]) / statistics.median(
        results["appender"]["cpu"]
    )
    print(f"the appender takes {ratio:.1f}x less CPU per move than a session (same run)")


if __name__ == "__main__":
    main()
