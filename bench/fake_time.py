"""A game played on one fake clock: the simulated board, the real driver, the tracker.

The same chain as :mod:`bench.accuracy` without the pseudo-terminal and the event loop:
boardsim's hands play the game on a virtual board with a DGT 3000 clock and real sensor
sweeps, the board's bytes go to the real DGT driver core (sans I/O), and its events go to
the tracker, every one of them on one fake clock that jumps from deadline to deadline. A
game at any pace takes milliseconds, and the outcome depends only on the game, the seed and
the conditions, never on how busy the machine is: this is what the suite's gates run, and
``bench.accuracy --fake-time`` runs hundreds of games this way.

What it leaves out is the event loop and the pty (covered by the real-time bench and
``tests/e2e/test_accuracy.py``) and the feed's finding of the clock's sides from the
presses (``tests/e2e/test_clock_sides.py``): the tracker reads the clock with White's side
as the table has it.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from bench.accuracy_report import (
    HALL_SCAN,
    HALL_SETTLING,
    STILL_SECONDS,
    GameReport,
    SourceGame,
    press_reading,
)
from boardsim.board import BoardTiming, VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import TIME_CONTROLS, Pace, named_pace
from boardsim.performance import ClockSide, Place, apply_step, perform_game
from boardsim.scanner import ScanTiming
from drivers.dgt.protocol import DgtBoardProtocol
from drivers.events import ClockReading, FieldChange, PositionSnapshot
from relay.domain.clock.orientation import Side as ClockSideName
from relay.domain.game.events import GameEvent
from relay.domain.game.placement import read_squares
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import clock_view


class FakeTimeTable:
    """A board, its driver and a tracker sharing one fake clock."""

    def __init__(
        self,
        seed: int,
        *,
        time_control: TimeControl,
        white_side: Side = Side.LEFT,
        scan: ScanTiming | None = HALL_SCAN,
        settling: Settling = HALL_SETTLING,
    ) -> None:
        clock = Dgt3000(time_control, rng=random.Random(seed))
        self.board = VirtualBoard(clock=clock, timing=BoardTiming.realistic(scan=scan))
        self.driver = DgtBoardProtocol()
        self.tracker = PositionTracker(settling=settling)
        self.white_on: Side = white_side
        self.events: list[GameEvent] = []
        #: When the board's sensors reported a change, and the record's length after each
        #: batch of decisions (time, plies).
        self.changes: list[float] = []
        self.record: list[tuple[float, int]] = [(0.0, 0)]
        self.now = 0.0
        self.driver.start(self.now)
        self._exchange()

    def run_until(self, until: float) -> None:
        """Let fake time pass to ``until``, everything due on the way happening in order."""
        while True:
            due = [
                t
                for t in (
                    self.board.next_deadline(),
                    self.driver.deadline,
                    self.tracker.deadline,
                )
                if t is not None and t <= until
            ]
            if not due:
                break
            self.now = max(self.now, min(due))
            self.board.advance(self.now)
            self.driver.advance(self.now)
            self._exchange()
            self._take(self.tracker.settle(self.now, self.now))
        self.now = until
        self.board.advance(until)
        self._exchange()

    def exchange(self) -> None:
        """Bytes both ways until the line is quiet (after the hands did something)."""
        self._exchange()

    def _exchange(self) -> None:
        while True:
            to_board = self.driver.data_to_send()
            self.board.receive_data(to_board, self.now)
            to_host = self.board.data_to_send()
            self.driver.receive_data(to_host, self.now)
            for event in self.driver.events_received():
                self._feed(event)
            if not to_board and not to_host:
                return

    def _feed(self, event: object) -> None:
        tracker, now = self.tracker, self.now
        if isinstance(event, PositionSnapshot | FieldChange):
            self.changes.append(now)
            placement, markers = read_squares(event.position)
            self._take(tracker.observe(placement, now, now, markers))
        elif isinstance(event, ClockReading):
            white_on: ClockSideName = "left" if self.white_on == Side.LEFT else "right"
            self._take(tracker.clock(clock_view(event, white_on=white_on), now, now))

    def _take(self, events: list[GameEvent]) -> None:
        if events:
            self.events += events
            self.record.append((self.now, self.tracker.ply))


def play_game(
    game: SourceGame,
    *,
    seed: int,
    noise: NoiseModel,
    pace: str = "hall",
    hands: Pace | None = None,
    white_side: Side = Side.LEFT,
    scan: ScanTiming | None = HALL_SCAN,
    settling: Settling = HALL_SETTLING,
    time_control: TimeControl | None = None,
) -> GameReport:
    """Play ``game`` at the named ``pace`` (or with the given ``hands``), in fake time.

    The clock is set to the pace's time control (or ``time_control``) and stopped when the
    hands are done; the table is then watched until the tracker has nothing left to decide
    and the board has been still for long enough to judge it.
    """
    control = time_control or TimeControl.parse(TIME_CONTROLS[pace])
    table = FakeTimeTable(
        seed, time_control=control, white_side=white_side, scan=scan, settling=settling
    )
    rng = random.Random(seed)
    steps = list(
        perform_game(
            game.moves,
            pace=hands or named_pace(pace),
            rng=rng,
            noise=noise,
            initial=table.board.squares,
            result=game.result,
            white_side=white_side,
        )
    )
    report = GameReport(game, pace=pace, white_side=white_side, speed=1.0)
    last_touch = {step.ply: n for n, step in enumerate(steps) if isinstance(step.action, Place)}
    for number, step in enumerate(steps):
        table.run_until(table.now + step.delay)
        apply_step(table.board, step, table.now)
        press_reading(report, table.board, step, table.now)
        table.exchange()
        if step.ply and last_touch[step.ply] == number:
            report.hands.append((table.now, step.ply))
        if step.habit:
            report.habits[step.habit] += 1
    table.board.stop_clock(table.now)
    table.exchange()
    if any(step.habit.startswith("result") for step in steps):
        report.gesture = game.result
    quiet = max(settling.windows(time_trouble=False)[2], STILL_SECONDS) * 1.5
    while True:
        table.run_until(table.now + quiet)
        last_change = table.changes[-1] if table.changes else 0.0
        if table.tracker.deadline is None and table.now - last_change >= quiet:
            break
    report.decided = [move.uci() for move in table.tracker.board.move_stack]
    report.events = table.events
    report.changes = table.changes
    report.record = table.record
    report.end = table.now
    return report


def play_games(
    games: Sequence[SourceGame],
    *,
    seed: int,
    noise: NoiseModel,
    pace: str,
    white_sides: Sequence[Side],
    scan: ScanTiming | None = HALL_SCAN,
) -> list[GameReport]:
    """Every game on every side of the clock given, each with its own seed."""
    return [
        play_game(
            game,
            seed=_seed(seed, number, side),
            noise=noise,
            pace=pace,
            white_side=side,
            scan=scan,
        )
        for number, game in enumerate(games)
        for side in white_sides
    ]


def _seed(seed: int, number: int, side: Side) -> int:
    return seed * 1_000_003 + number * 2 + (side == Side.RIGHT)


def play_in_fake_time(
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
    """The real-time bench's run in fake time, over ``processes`` processes: game ``n`` is
    played on board ``n % (boards * processes) + 1`` (its clock side when sides are mixed).
    ``speed`` is of no use here: fake time plays the pace as it is."""
    del speed
    tables = boards * processes
    jobs = [
        (
            game,
            _seed(seed, number, Side.LEFT),
            noise,
            pace,
            clock_side.white_side(number % tables + 1),
            scan,
        )
        for number, game in enumerate(games)
    ]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(_play_job, jobs, chunksize=8))


def _play_job(
    job: tuple[SourceGame, int, NoiseModel, str, Side, ScanTiming],
) -> GameReport:
    game, seed, noise, pace, side, scan = job
    return play_game(game, seed=seed, noise=noise, pace=pace, white_side=side, scan=scan)
