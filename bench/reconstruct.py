"""Move reconstruction speed: µs per stable snapshot matched, and per move through the domain.

Plays every game of the demo corpus. For each ply it times (a) ``find_move`` on the placement
after the move: matching a stable snapshot against the candidate moves, bitboards restricted
to the changed squares (issue 4 target: median <= 60 µs); (b) the tracker deciding the move:
matching, SAN, FEN, repetition table, game-end laws, draw claims and the dead-position check
(target: median <= 100 µs); beside (c) the naive approach of pushing every legal move and
comparing ``board_fen()`` strings, measured in the same run so the ratio survives a noisy
machine. Prints medians and p99; never fails.

    .venv/bin/python -m bench.reconstruct [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import chess
import chess.pgn

from relay.demo.pgn_round import bundled_games
from relay.domain.game.matching import find_move
from relay.domain.game.placement import Placement
from relay.domain.game.tracker import PositionTracker


def corpus() -> list[list[chess.Move]]:
    games = []
    with bundled_games().open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(list(game.mainline_moves()))
    return games


def naive_find(board: chess.Board, fen: str) -> chess.Move | None:
    for move in board.legal_moves:
        board.push(move)
        hit = board.board_fen() == fen
        board.pop()
        if hit:
            return move
    return None


def run(games: list[list[chess.Move]]) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {"snapshot": [], "move": [], "naive_fen": []}
    clock = time.perf_counter_ns
    for moves in games:
        board = chess.Board()
        tracker = PositionTracker(settle_seconds=0.0)
        for move in moves:
            board.push(move)
            target = Placement.of_board(board)
            fen = board.board_fen()
            board.pop()
            start = clock()
            find_move(board, target)
            results["snapshot"].append((clock() - start) / 1000)
            start = clock()
            naive_find(board, fen)
            results["naive_fen"].append((clock() - start) / 1000)
            tracker.observe(target, 0.0, 0.0)
            start = clock()
            tracker.settle(0.0, 0.0)
            results["move"].append((clock() - start) / 1000)
            board.push(move)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="passes over the corpus")
    args = parser.parse_args()
    games = corpus()
    samples: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        for name, values in run(games).items():
            samples.setdefault(name, []).extend(values)
    plies = sum(len(moves) for moves in games)
    print(f"{len(games)} games, {plies} plies, {args.repeat} passes")
    for name, values in samples.items():
        values.sort()
        p99 = values[int(len(values) * 0.99)]
        print(f"{name:>9}: median {statistics.median(values):7.1f} µs   p99 {p99:7.1f} µs")
    ratio = statistics.median(samples["naive_fen"]) / statistics.median(samples["snapshot"])
    print(f"matching is {ratio:.1f}x faster than the FEN comparison (same run)")


if __name__ == "__main__":
    main()
