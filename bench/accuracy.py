"""Reconstruction accuracy: games played by untidy simulated hands, read back by the hub.

Every game is played on a simulated DGT board with a DGT 3000 clock, served on a pseudo-
terminal, through boardsim's physical-noise model (slides, lingering pawns, rook-first
castling, knocked-over pieces, adjusted pieces, result gestures, boards set up the wrong way
round); the real DGT driver reads it over pyserial, and the hub's board feed turns it into
game events with a fresh tracker per game. A game is reconstructed when the tracker's final
move list equals the source. Also counted: false illegal-position alerts (every game is
legal), completed illegal moves, spurious final moves, corrections, recovered moves,
takebacks, and the result proposals against the gestures played.

The human pace and every settle window are divided by ``--speed``, so the ratio between
hands and host stays as in a tournament hall while the run takes minutes, not days.

    .venv/bin/python -m bench.accuracy [--generated 500] [--processes 2] [--boards 40] [--speed 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.clock import Dgt3000, TimeControl
from boardsim.generated import steered_game
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import apply_step, perform_game
from boardsim.pieces import ROTATED_START_POSITION, START_POSITION
from boardsim.pty_link import PtyLink
from boardsim.scanner import ScanTiming
from drivers.dgt.transport import DgtSerialConnection
from drivers.events import BoardEvent, FieldChange, PositionSnapshot
from relay.domain.game.events import (
    ArbiterAlert,
    GameEvent,
    IllegalMoveCompleted,
    MoveCorrected,
    MoveMade,
    ResultProposed,
    TakenBack,
)
from relay.domain.game.placement import START, read_squares
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed

#: The real games of the test data (tests/data/README.md), in this repository.
REAL_GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-games.pgn"
#: Tournament pace at speed 1: seconds of thought per ply, seconds between two touches.
HALL_PACE = Pace(ply_seconds=1.5, touch_seconds=0.12, jitter=0.5)
#: A real board sweeps its sensors every 200-250 ms.
HALL_SCAN = ScanTiming(0.2, 0.25)
#: The host's windows for a board that reports each sweep: twice the sweep to settle.
HALL_SETTLING = Settling(settle_seconds=0.25, link_seconds=0.25)


@dataclass(frozen=True, slots=True)
class SourceGame:
    name: str
    moves: tuple[chess.Move, ...]
    result: str


@dataclass
class GameReport:
    game: SourceGame
    decided: list[str] = field(default_factory=list)
    habits: Counter[str] = field(default_factory=Counter)
    events: list[GameEvent] = field(default_factory=list)
    gesture: str | None = None  # the result the hands showed, if they did

    @property
    def exact(self) -> bool:
        return self.decided == [move.uci() for move in self.game.moves]

    @property
    def spurious(self) -> int:
        """Moves decided beyond the end of the game."""
        source = [move.uci() for move in self.game.moves]
        if self.decided[: len(source)] != source:
            return 0
        return len(self.decided) - len(source)

    def count(self, kind: type[GameEvent]) -> int:
        return sum(isinstance(event, kind) for event in self.events)

    @property
    def illegal_alerts(self) -> int:
        return sum(
            isinstance(event, ArbiterAlert) and event.alert == "illegal-position"
            for event in self.events
        )

    @property
    def recovered(self) -> int:
        return sum(isinstance(e, MoveMade) and e.recovered for e in self.events)

    @property
    def ended_by_law(self) -> bool:
        board = chess.Board()
        for move in self.game.moves:
            board.push(move)
        return board.outcome() is not None

    @property
    def proposals(self) -> list[str]:
        return [e.result for e in self.events if isinstance(e, ResultProposed)]


def real_games(path: Path = REAL_GAMES) -> list[SourceGame]:
    games = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            name = f"{game.headers.get('White', '?')} - {game.headers.get('Black', '?')}"
            result = game.headers.get("Result", "*")
            games.append(SourceGame(name, tuple(game.mainline_moves()), result))
    return games


def generated_games(count: int, seed: int = 0) -> list[SourceGame]:
    games = []
    for number in range(count):
        rng = random.Random(f"{seed}:{number}")
        moves = steered_game(rng)
        board = chess.Board()
        for move in moves:
            board.push(move)
        outcome = board.outcome()
        result = outcome.result() if outcome else rng.choice(("1-0", "0-1", "1/2-1/2"))
        games.append(SourceGame(f"generated {seed}:{number}", tuple(moves), result))
    return games


class _Table:
    """One simulated board on a pty, read by the real driver into a board feed."""

    def __init__(self, index: int, speed: float) -> None:
        self.index = index
        self.speed = speed
        scan = ScanTiming(HALL_SCAN.period_min / speed, HALL_SCAN.period_max / speed)
        clock = Dgt3000(TimeControl.parse("90+30"), rng=random.Random(index))
        self.board = VirtualBoard(
            serial_number=f"{index + 1:05d}",
            clock=clock,
            timing=BoardTiming.realistic(scan=scan),
        )
        self.settling = HALL_SETTLING.faster(speed)
        self.events: list[GameEvent] = []
        self.shown = START
        self.last_change = 0.0
        self.changed = asyncio.Event()

    async def run(
        self, games: Sequence[SourceGame], noise: NoiseModel, seed: int
    ) -> list[GameReport]:
        loop = asyncio.get_running_loop()
        self.link = PtyLink(self.board)
        connection = await DgtSerialConnection.open(self.link.path, reconnect=False)
        self.feed = BoardFeed(PositionTracker(settling=self.settling), self._collect)
        reading = loop.create_task(self._read(connection.events()))
        try:
            async with asyncio.timeout(30):
                await self.link.wait_until_updating()
            reports = []
            for number, game in enumerate(games):
                rng = random.Random(f"{seed}:{self.index}:{number}")
                reports.append(await self._play(game, noise, rng))
            return reports
        finally:
            connection.close()
            await reading
            self.feed.close()
            self.link.close()

    async def _read(self, events: AsyncIterator[BoardEvent]) -> None:
        loop = asyncio.get_running_loop()
        async for event in events:
            self.feed.handle(event)
            if isinstance(event, PositionSnapshot | FieldChange):
                self.shown = read_squares(event.position)[0]
                self.last_change = loop.time()
            self.changed.set()

    def _collect(self, events: Sequence[GameEvent]) -> None:
        self.events += events
        self.changed.set()

    async def _play(self, game: SourceGame, noise: NoiseModel, rng: random.Random) -> GameReport:
        loop = asyncio.get_running_loop()
        turned = rng.random() < noise.rotated
        # Between games the board is reset at once (the set-up is not part of the game).
        self.board.set_position(ROTATED_START_POSITION if turned else START_POSITION, loop.time())
        self.link.flush()
        await self._until(lambda: self.shown == START)
        self.feed.tracker = PositionTracker(settling=self.settling)
        self.events = []
        pace = HALL_PACE.faster(self.speed)
        steps = list(
            perform_game(
                game.moves,
                pace=pace,
                rng=rng,
                noise=noise,
                initial=self.board.squares,
                result=game.result,
                rotated_board=turned,
            )
        )
        report = GameReport(game)
        if turned:
            report.habits["rotated"] += 1
        for step in steps:
            await asyncio.sleep(step.delay)
            apply_step(self.board, step, loop.time())
            self.link.flush()
            if step.habit:
                report.habits[step.habit] += 1
        if any(step.habit.startswith("result") for step in steps):
            report.gesture = game.result
        quiet = self.settling.windows(time_trouble=False)[2] * 1.5
        tracker = self.feed.tracker
        await self._until(
            lambda: tracker.deadline is None and loop.time() - self.last_change > quiet
        )
        report.decided = [move.uci() for move in tracker.board.move_stack]
        report.events = list(self.events)
        return report

    async def _until(self, done: object, patience: float = 60.0) -> None:
        assert callable(done)
        deadline = asyncio.get_running_loop().time() + patience
        while not done():
            self.changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"board {self.index}: gave up waiting")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.02))


async def play_all(
    games: Sequence[SourceGame],
    *,
    boards: int,
    speed: float,
    noise: NoiseModel,
    seed: int = 0,
) -> list[GameReport]:
    """Play ``games`` on ``boards`` boards at once; reports in the order of ``games``."""
    shares = [list(games[n::boards]) for n in range(boards)]
    tables = [_Table(n, speed) for n in range(boards)]
    async with asyncio.TaskGroup() as group:
        tasks = [
            group.create_task(table.run(share, noise, seed))
            for table, share in zip(tables, shares, strict=True)
            if share
        ]
    by_board = [task.result() for task in tasks]
    reports: list[GameReport] = []
    for index in range(len(games)):
        reports.append(by_board[index % boards][index // boards])
    return reports


def _play_share(
    games: Sequence[SourceGame], boards: int, speed: float, noise: NoiseModel, seed: int
) -> list[GameReport]:
    return asyncio.run(play_all(games, boards=boards, speed=speed, noise=noise, seed=seed))


def play_in_processes(
    games: Sequence[SourceGame],
    *,
    processes: int,
    boards: int,
    speed: float,
    noise: NoiseModel,
    seed: int = 0,
) -> list[GameReport]:
    """:func:`play_all` split over ``processes`` processes (``boards`` each), so that one
    busy event loop does not stretch the timing the hands and the host depend on."""
    shares = [list(games[n::processes]) for n in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [
            pool.submit(_play_share, share, boards, speed, noise, seed + n)
            for n, share in enumerate(shares)
        ]
        results = [future.result() for future in futures]
    return [results[index % processes][index // processes] for index in range(len(games))]


def summary(reports: Sequence[GameReport]) -> str:
    habits: Counter[str] = Counter()
    for report in reports:
        habits.update(report.habits)
    exact = sum(report.exact for report in reports)
    # After checkmate or a fivefold repetition the result is known: gestures are not read.
    gestures = [r for r in reports if r.gesture and not r.ended_by_law]
    lines = [
        f"games: {len(reports)}, plies: {sum(len(r.game.moves) for r in reports)}",
        f"reconstructed exactly: {exact}/{len(reports)}",
        f"false illegal-position alerts: {sum(r.illegal_alerts for r in reports)}",
        f"completed illegal moves reported: {sum(r.count(IllegalMoveCompleted) for r in reports)}",
        f"spurious final moves: {sum(r.spurious for r in reports)}",
        f"corrections: {sum(r.count(MoveCorrected) for r in reports)}, "
        f"recovered moves: {sum(r.recovered for r in reports)}, "
        f"takebacks: {sum(r.count(TakenBack) for r in reports)}",
        f"result gestures in games the laws did not end: {len(gestures)}, proposed correctly: "
        f"{sum(r.proposals == [r.gesture] for r in gestures)}",
        "noise (touches per habit): "
        + ", ".join(f"{name} {count}" for name, count in sorted(habits.items())),
    ]
    for report in reports:
        if not report.exact:
            lines += _mismatch(report)
    return "\n".join(lines)


def _mismatch(report: GameReport) -> list[str]:
    """Where a game went wrong, and the events around it, to turn into a test case."""
    source = [move.uci() for move in report.game.moves]
    at = next(
        (n for n, (a, b) in enumerate(zip(source, report.decided, strict=False)) if a != b),
        min(len(source), len(report.decided)),
    )
    lines = [
        f"  MISMATCH {report.game.name} from ply {at + 1}: "
        f"played {source[at : at + 4]}, decided {report.decided[at : at + 4]}"
    ]
    for event in report.events:
        ply = getattr(event, "ply", None)
        if event.kind != "claims" and ply is not None and at - 2 <= ply <= at + 5:
            lines.append(f"    {event}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=500, help="generated games")
    parser.add_argument("--boards", type=int, default=40, help="boards per process")
    parser.add_argument("--processes", type=int, default=2, help="processes playing at once")
    parser.add_argument("--speed", type=float, default=8.0, help="times faster than a hall")
    parser.add_argument("--noise", default="messy", help="clean, human or messy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = real_games() + generated_games(args.generated, args.seed)
    started = time.monotonic()
    boards = args.boards * args.processes
    print(f"playing {len(games)} games on {boards} boards at {args.speed}x", flush=True)
    reports = play_in_processes(
        games,
        processes=args.processes,
        boards=args.boards,
        speed=args.speed,
        noise=NoiseModel.preset(args.noise),
        seed=args.seed,
    )
    print(summary(reports))
    print(f"{time.monotonic() - started:.0f} s")
    sys.exit(0)


if __name__ == "__main__":
    main()
