"""What an accuracy run plays and what it reports, whichever way it is played.

The corpus (the real games of the test data and generated ones), the hall's board and host
(sensor sweeps, settle windows), one :class:`GameReport` per game played, and the summary:
games exact per pace and clock side, frozen games, how far the record lagged a still board,
alerts, corrections and the noise the hands made. :mod:`bench.accuracy` plays games over
pseudo-terminals in real time, :mod:`bench.fake_time` on one fake clock; both report here.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from boardsim.board import VirtualBoard
from boardsim.clock import Side
from boardsim.generated import steered_game
from boardsim.performance import PressLever, Step
from boardsim.scanner import ScanTiming
from relay.domain.game.events import (
    ArbiterAlert,
    FlagFell,
    GameEnded,
    GameEvent,
    IllegalMoveCompleted,
    MoveCorrected,
    MoveMade,
    ResultProposed,
    TakenBack,
    is_logged,
)
from relay.domain.game.record import GameRecord
from relay.domain.game.settling import Settling

#: The real games of the test data (tests/data/README.md), in this repository.
REAL_GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-games.pgn"
#: A real board sweeps its sensors every 200-250 ms.
HALL_SCAN = ScanTiming(0.2, 0.25)
#: The host's windows for a board that reports each sweep: twice the sweep to settle.
HALL_SETTLING = Settling(settle_seconds=0.25, link_seconds=0.25)
#: A board whose sensors reported no change for this long (seconds of the pace) is still.
STILL_SECONDS = 2.0
#: A record this many plies short of the game the board showed at the end is frozen.
FROZEN_PLIES = 3
#: A move's ``%clk`` is its mover's own time if it is within this of the clock's reading
#: at the mover's press (seconds of the clock).
CLOCK_TOLERANCE = 1.0


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
    pace: str = "hall"
    white_side: Side = Side.LEFT
    speed: float = 1.0
    #: Loop times: the last touch of each ply (time, ply), every change the board reported,
    #: the record's length after each decision (time, plies), and when watching stopped.
    hands: list[tuple[float, int]] = field(default_factory=list)
    changes: list[float] = field(default_factory=list)
    record: list[tuple[float, int]] = field(default_factory=list)
    end: float = 0.0
    #: Per ply, the mover's time as their clock showed it right after their press.
    presses: dict[int, float] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        return self.decided == [move.uci() for move in self.game.moves]

    @property
    def frozen(self) -> bool:
        """The record ends 3 or more plies short of the game the board showed."""
        return len(self.game.moves) - len(self.decided) >= FROZEN_PLIES

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

    def clock_marks(self) -> Counter[str]:
        """Each move the record got right, by the ``%clk`` it ends with (all the game's
        events folded, as every output folds them): ``own`` (the mover's time at their
        press, within :data:`CLOCK_TOLERANCE`), ``other`` (another time: the opponent's, an
        earlier reading), ``none`` (a press, but no time); and moves without a press of
        their own: ``unpressed-none`` as it should be, ``unpressed-timed`` if not."""
        record = GameRecord.from_events(event for event in self.events if is_logged(event))
        timings = record.clock.timings
        source = [move.uci() for move in self.game.moves]
        marks: Counter[str] = Counter()
        for index, move in enumerate(record.moves):
            if index >= len(source) or move.uci != source[index]:
                break
            timing = timings[index] if index < len(timings) else None
            clock = timing.clock if timing is not None else move.clock
            pressed = self.presses.get(index + 1)
            if pressed is None:
                marks["unpressed-none" if clock is None else "unpressed-timed"] += 1
            elif clock is None:
                marks["none"] += 1
            elif abs(clock - pressed) <= CLOCK_TOLERANCE:
                marks["own"] += 1
            else:
                marks["other"] += 1
        return marks

    @property
    def ended_by_law(self) -> bool:
        board = chess.Board()
        for move in self.game.moves:
            board.push(move)
        return board.outcome() is not None

    @property
    def proposals(self) -> list[str]:
        return [e.result for e in self.events if isinstance(e, ResultProposed)]

    def behind_still(self) -> tuple[int, float, bool]:
        """How far the record lagged a still board: the most plies, the longest time (in
        seconds of the pace, from the board's last change until the record caught up), and
        whether that longest stretch lasted until the bench stopped watching."""
        still = STILL_SECONDS / self.speed
        hand_times = [at for at, _ in self.hands]
        record_times = [at for at, _ in self.record]
        most, longest, unresolved = 0, 0.0, False
        bounds = [*self.changes, self.end]
        for changed, next_change in itertools.pairwise(bounds):
            calm = changed + still
            if next_change < calm:
                continue
            # The board shows the plies the hands had finished when it last changed.
            shown = _at(self.hands, hand_times, changed)
            first = bisect_right(record_times, calm)
            lengths = [(calm, _at(self.record, record_times, calm))] + [
                (at, plies) for at, plies in self.record[first:] if at < next_change
            ]
            most = max([most] + [shown - plies for _, plies in lengths])
            if lengths[0][1] >= shown:
                continue
            caught = next((at for at, plies in lengths if plies >= shown), None)
            stayed = (next_change if caught is None else caught) - changed
            if stayed > longest:
                longest, unresolved = stayed, caught is None and next_change == self.end
        return most, longest * self.speed, unresolved


def _at(timeline: list[tuple[float, int]], times: list[float], moment: float) -> int:
    """The value of a (time, value) step function at ``moment`` (0 before its start)."""
    index = bisect_right(times, moment)
    return timeline[index - 1][1] if index else 0


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


def summary(reports: Sequence[GameReport]) -> str:
    habits: Counter[str] = Counter()
    for report in reports:
        habits.update(report.habits)
    exact = sum(report.exact for report in reports)
    # After checkmate or a fivefold repetition the result is known: gestures are not read.
    gestures = [r for r in reports if r.gesture and not r.ended_by_law]
    lines = [
        *lag_table(reports),
        *clock_table(reports),
        f"games: {len(reports)}, plies: {sum(len(r.game.moves) for r in reports)}",
        f"reconstructed exactly: {exact}/{len(reports)}",
        f"frozen games: {sum(r.frozen for r in reports)}",
        f"flags fallen: {sum(r.count(FlagFell) for r in reports)}",
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


def lag_table(reports: Sequence[GameReport]) -> list[str]:
    """One row per pace and clock side (White's): games exact, frozen games, the most plies
    the record was behind a still board and the longest it stayed behind one ("+": until
    the bench stopped watching)."""
    rows = [
        f"{'pace':<10} {'White':<6} {'exact':>9} {'frozen':>6} {'behind':>6} {'longest':>9}",
    ]
    groups: dict[tuple[str, str], list[GameReport]] = {}
    for report in reports:
        groups.setdefault((report.pace, report.white_side.value), []).append(report)
    for (pace, side), group in sorted(groups.items()):
        lags = [report.behind_still() for report in group]
        most = max(plies for plies, _, _ in lags)
        longest, unresolved = max(((seconds, open_) for _, seconds, open_ in lags), default=(0, 0))
        exact = f"{sum(r.exact for r in group)}/{len(group)}"
        stayed = f"{longest:.1f} s{'+' if unresolved else ''}"
        frozen = sum(r.frozen for r in group)
        rows.append(f"{pace:<10} {side:<6} {exact:>9} {frozen:>6} {most:>6} {stayed:>9}")
    return rows


def press_reading(report: GameReport, board: VirtualBoard, step: Step, now: float) -> None:
    """After a step of the hands: if it was a move's press, the mover's time the clock shows
    now (increment included, where the clock adds it at the press) is that move's truth."""
    clock = board.clock
    pressed = step.ply and isinstance(step.action, PressLever)
    if pressed and clock is not None and step.ply not in report.presses:
        assert isinstance(step.action, PressLever)
        shown = clock.side_reading(step.action.side, now).total_seconds
        report.presses[step.ply] = float(shown)


def clock_table(reports: Sequence[GameReport]) -> list[str]:
    """One row per pace and clock side (White's): of the moves decided right that had a
    press, how many carry their mover's own time at it (within 1 s), another time, or none;
    of those without a press, how many carry a time all the same (there should be none)."""
    rows = [
        f"{'pace':<10} {'White':<6} {'%clk own':>9} {'other':>6} {'none':>6} "
        f"{'no press':>9} {'timed':>6}",
    ]
    groups: dict[tuple[str, str], Counter[str]] = {}
    for report in reports:
        groups.setdefault((report.pace, report.white_side.value), Counter()).update(
            report.clock_marks()
        )
    for (pace, side), marks in sorted(groups.items()):
        pressed = marks["own"] + marks["other"] + marks["none"]
        unpressed = marks["unpressed-none"] + marks["unpressed-timed"]
        own = f"{marks['own']}/{pressed}"
        rows.append(
            f"{pace:<10} {side:<6} {own:>9} {marks['other']:>6} {marks['none']:>6} "
            f"{unpressed:>9} {marks['unpressed-timed']:>6}"
        )
    return rows


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
        ending = isinstance(event, FlagFell | GameEnded)
        if ending or (event.kind != "claims" and ply is not None and at - 2 <= ply <= at + 5):
            lines.append(f"    {event}")
    return lines
