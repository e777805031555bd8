"""Reconstruction accuracy: games played by untidy simulated hands, read back by the hub.

Every game is played on a simulated DGT board with a DGT 3000 clock, served on a pseudo-
terminal, through boardsim's physical-noise model (slides, lingering pawns, rook-first
castling, knocked-over pieces, adjusted pieces, result gestures, boards set up the wrong way
round); the real DGT driver reads it over pyserial, and the hub's board feed turns it into
game events with a fresh tracker per game. A game is reconstructed when the tracker's final
move list equals the source. Also counted: false illegal-position alerts (every game is
legal), completed illegal moves, spurious final moves, corrections, recovered moves,
takebacks, and the result proposals against the gestures played.

Paces are boardsim's named paces (:mod:`boardsim.pace`): ``hall``, ``blitz``, ``scramble``,
``lightning``; each game's clock is set to the pace's time control when the game begins and
stopped when the hands are done. Clock sides: White's time on the clock's ``left``,
``right``, or ``mixed`` (odd boards left, even boards right); the feed finds the side from
the presses, as on a board set to ``auto``.

The report gives, per pace and White's clock side: games exact; frozen games (the record
ends 3 or more plies short of the game the board showed); the most plies the record was ever
behind a still board (one whose sensors reported no change for 2 s), and the longest it
stayed behind one, from the board's last change until the record caught up (or, for a game
that never did, until the bench stopped watching: marked "+").

The human pace, the sensor sweep, every settle window and the clock's times are divided by
``--speed``, so the ratio between hands and host stays as at the board while the run takes
minutes, not days; times in the report are multiplied back. By default the hall pace is
played 8 times faster, the others in real time (their point is real hands against the real
windows).

``--fake-time`` plays the same games on one fake clock instead (:mod:`bench.fake_time`: the
real driver core and tracker, no pty, no event loop, no waiting): hundreds of games at any
pace in a minute or two, with figures that do not depend on how busy the machine is. The
feed's finding of the clock's sides is then not exercised (the tracker is told them).

    .venv/bin/python -m bench.accuracy [--pace hall] [--clock-side mixed] [--generated 500]
        [--processes 2] [--boards 40] [--speed N] [--noise messy] [--scan-ms 200-250]
        [--fake-time]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.accuracy_report import (
    HALL_SCAN,
    HALL_SETTLING,
    STILL_SECONDS,
    GameReport,
    SourceGame,
    generated_games,
    press_reading,
    real_games,
    summary,
)
from bench.fake_time import play_in_fake_time
from boardsim.board import BoardTiming, VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import PACES, TIME_CONTROLS, named_pace
from boardsim.performance import ClockSide, Place, apply_step, perform_game
from boardsim.pieces import ROTATED_START_POSITION, START_POSITION
from boardsim.pty_link import PtyLink
from boardsim.scanner import ScanTiming
from drivers.dgt.transport import DgtSerialConnection
from drivers.events import BoardEvent, ClockReading, FieldChange, PositionSnapshot
from relay.domain.game.events import GameEvent
from relay.domain.game.placement import START, read_squares
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed

#: How much faster than life each pace is played unless ``--speed`` says otherwise.
SPEEDS = {"hall": 8.0, "blitz": 1.0, "scramble": 1.0, "lightning": 1.0}


def board_feed(
    tracker: PositionTracker, collect: Callable[[Sequence[GameEvent]], None], white_side: Side
) -> BoardFeed:
    """The hub's board feed for a table whose clock has White's time on ``white_side``.

    The feed is left to find the side out from the presses, as the hub does on a board set
    to ``auto`` (``white_side`` is what it should find). This line is the one to change to
    give it the side instead: ``clock_side="white-left"`` or ``"white-right"``.
    """
    del white_side  # found by the feed itself
    return BoardFeed(tracker, collect, clock_side="auto")


@dataclass(frozen=True, slots=True)
class Conditions:
    """How a run plays: the named pace, its speed, where White's time is, the sensors."""

    pace: str = "hall"
    speed: float = 8.0
    clock_side: ClockSide = ClockSide.LEFT
    scan: ScanTiming = HALL_SCAN

    def time_control(self) -> TimeControl:
        """The pace's time control, its times divided by the speed (at least a second)."""
        control = TimeControl.parse(TIME_CONTROLS[self.pace])
        return TimeControl(
            base_seconds=max(1, round(control.base_seconds / self.speed)),
            bonus_seconds=round(control.bonus_seconds / self.speed),
            bonus=control.bonus,
        )


class _Table:
    """One simulated board on a pty, read by the real driver into a board feed."""

    def __init__(self, index: int, number: int, conditions: Conditions) -> None:
        self.index = index
        self.conditions = conditions
        self.speed = speed = conditions.speed
        self.white_side = conditions.clock_side.white_side(number)
        scan = ScanTiming(conditions.scan.period_min / speed, conditions.scan.period_max / speed)
        self.time_control = conditions.time_control()
        self.clock = Dgt3000(self.time_control, rng=random.Random(index))
        self.board = VirtualBoard(
            serial_number=f"{number:05d}",
            clock=self.clock,
            timing=BoardTiming.realistic(scan=scan),
        )
        self.settling = HALL_SETTLING.faster(speed)
        self.events: list[GameEvent] = []
        self.changes: list[float] = []
        self.record: list[tuple[float, int]] = []
        self.shown = START
        self.last_change = 0.0
        #: Whether the host has read the clock stopped at the end of the game.
        self.stop_read = True
        self.changed = asyncio.Event()

    async def run(
        self, games: Sequence[SourceGame], noise: NoiseModel, seed: int
    ) -> list[GameReport]:
        loop = asyncio.get_running_loop()
        self.link = PtyLink(self.board)
        connection = await DgtSerialConnection.open(self.link.path, reconnect=False)
        tracker = PositionTracker(settling=self.settling)
        self.feed = board_feed(tracker, self._collect, self.white_side)
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
                self.changes.append(self.last_change)
            elif isinstance(event, ClockReading) and not event.running:
                self.stop_read = True
            self.changed.set()

    def _collect(self, events: Sequence[GameEvent]) -> None:
        self.events += events
        self.record.append((asyncio.get_running_loop().time(), self.feed.tracker.ply))
        self.changed.set()

    async def _play(self, game: SourceGame, noise: NoiseModel, rng: random.Random) -> GameReport:
        loop = asyncio.get_running_loop()
        turned = rng.random() < noise.rotated
        # Between games the board is reset at once (the set-up is not part of the game), and
        # the arbiter sets the clock for the new game.
        self.board.set_position(ROTATED_START_POSITION if turned else START_POSITION, loop.time())
        self.clock.reset(loop.time(), self.time_control)
        self.link.flush()
        await self._until(lambda: self.shown == START)
        self.feed.tracker = PositionTracker(settling=self.settling)
        self.events = []
        pace = named_pace(self.conditions.pace).faster(self.speed)
        steps = list(
            perform_game(
                game.moves,
                pace=pace,
                rng=rng,
                noise=noise,
                initial=self.board.squares,
                result=game.result,
                white_side=self.white_side,
                rotated_board=turned,
            )
        )
        last_touch = {step.ply: n for n, step in enumerate(steps) if isinstance(step.action, Place)}
        report = GameReport(
            game, pace=self.conditions.pace, white_side=self.white_side, speed=self.speed
        )
        self.changes = []
        self.record = [(loop.time(), 0)]
        if turned:
            report.habits["rotated"] += 1
        for number, step in enumerate(steps):
            await asyncio.sleep(step.delay)
            apply_step(self.board, step, loop.time())
            press_reading(report, self.board, step, loop.time())
            self.link.flush()
            if step.ply and last_touch[step.ply] == number:
                report.hands.append((loop.time(), step.ply))
            if step.habit:
                report.habits[step.habit] += 1
        # The game is over: the clock is stopped, so no flag falls while the end is watched.
        # The end is judged once the host has read that stop (a busy host reads the last
        # ply, its press and the stop in one late batch: the board's quiet since the last
        # change read is no sign that nothing is left to read) and then seen a still board.
        # A clock that no longer runs (a flag fell) has no stop to report.
        self.stop_read = self.clock.running is None
        self.board.stop_clock(loop.time())
        self.link.flush()
        stopped = loop.time()
        if any(step.habit.startswith("result") for step in steps):
            report.gesture = game.result
        quiet = max(self.settling.windows(time_trouble=False)[2], STILL_SECONDS / self.speed)
        tracker = self.feed.tracker
        await self._until(
            lambda: (
                self.stop_read
                and tracker.deadline is None
                and loop.time() - max(self.last_change, stopped) > quiet * 1.5
            )
        )
        report.decided = [move.uci() for move in tracker.board.move_stack]
        report.events = list(self.events)
        report.changes = list(self.changes)
        report.record = list(self.record)
        report.end = loop.time()
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
    pace: str = "hall",
    clock_side: ClockSide = ClockSide.LEFT,
    scan: ScanTiming = HALL_SCAN,
    first_board: int = 1,
) -> list[GameReport]:
    """Play ``games`` on ``boards`` boards at once (numbered from ``first_board``, which
    decides their clock side when it is mixed); reports in the order of ``games``."""
    conditions = Conditions(pace=pace, speed=speed, clock_side=clock_side, scan=scan)
    return await _play_tables(games, boards, noise, seed, conditions, first_board)


async def _play_tables(
    games: Sequence[SourceGame],
    boards: int,
    noise: NoiseModel,
    seed: int,
    conditions: Conditions,
    first_board: int,
) -> list[GameReport]:
    shares = [list(games[n::boards]) for n in range(boards)]
    tables = [_Table(n, first_board + n, conditions) for n in range(boards)]
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
    games: Sequence[SourceGame],
    boards: int,
    noise: NoiseModel,
    seed: int,
    conditions: Conditions,
    first_board: int,
) -> list[GameReport]:
    return asyncio.run(_play_tables(games, boards, noise, seed, conditions, first_board))


def play_in_processes(
    games: Sequence[SourceGame],
    *,
    processes: int,
    boards: int,
    speed: float,
    noise: NoiseModel,
    seed: int = 0,
    pace: str = "hall",
    clock_side: ClockSide = ClockSide.LEFT,
    scan: ScanTiming = HALL_SCAN,
) -> list[GameReport]:
    """:func:`play_all` split over ``processes`` processes (``boards`` each, process ``n``
    serving boards ``n * boards + 1`` on), so that one busy event loop does not stretch the
    timing the hands and the host depend on."""
    conditions = Conditions(pace=pace, speed=speed, clock_side=clock_side, scan=scan)
    shares = [list(games[n::processes]) for n in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [
            pool.submit(_play_share, share, boards, noise, seed + n, conditions, 1 + n * boards)
            for n, share in enumerate(shares)
        ]
        results = [future.result() for future in futures]
    return [results[index % processes][index // processes] for index in range(len(games))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pace", nargs="+", default=["hall"], choices=tuple(PACES), help="paces, in turn"
    )
    parser.add_argument(
        "--clock-side",
        default="mixed",
        choices=tuple(side.value for side in ClockSide),
        help="White's side of the clocks; mixed: left on odd boards, right on even ones",
    )
    parser.add_argument("--generated", type=int, default=500, help="generated games")
    parser.add_argument("--boards", type=int, default=40, help="boards per process")
    parser.add_argument("--processes", type=int, default=2, help="processes playing at once")
    parser.add_argument(
        "--speed", type=float, default=None, help="times faster than life (hall 8, others 1)"
    )
    parser.add_argument("--noise", default="messy", help="clean, human or messy")
    parser.add_argument("--scan-ms", default="200-250", help="the sensors' sweep, in ms")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--fake-time",
        action="store_true",
        help="play on one fake clock (bench.fake_time): no pty, no waiting, any machine",
    )
    args = parser.parse_args()
    scan = ScanTiming.parse(args.scan_ms)
    if scan is None:
        parser.error("--scan-ms: a real board sweeps its sensors; give e.g. 200-250")
    games = real_games() + generated_games(args.generated, args.seed)
    boards = args.boards * args.processes
    reports: list[GameReport] = []
    for pace in args.pace:
        speed = args.speed or SPEEDS[pace]
        started = time.monotonic()
        how = "in fake time" if args.fake_time else f"on {boards} boards at {speed:g}x"
        print(
            f"playing {len(games)} games at {pace} pace ({TIME_CONTROLS[pace]}) {how}, "
            f"White's clock side {args.clock_side}",
            flush=True,
        )
        play = play_in_fake_time if args.fake_time else play_in_processes
        reports += play(
            games,
            processes=args.processes,
            boards=args.boards,
            speed=speed,
            noise=NoiseModel.preset(args.noise),
            seed=args.seed,
            pace=pace,
            clock_side=ClockSide(args.clock_side),
            scan=scan,
        )
        print(f"{pace}: {time.monotonic() - started:.0f} s", flush=True)
    print(summary(reports))
    sys.exit(0)


if __name__ == "__main__":
    main()
