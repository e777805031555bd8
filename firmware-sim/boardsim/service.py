"""``boardsim serve`` as a coroutine: boards, their lines, their players and the fault plan.

It builds the boards (each with a DGT 3000 unless the clock is off), puts them on
pseudo-terminals or TCP ports — one line per board, or one bus chain on one line — prints
one JSON line per board and ``{"event": "ready"}``, starts a player per board and runs the
fault plan, until ``stop`` is set. The JSON lines (one object per line on stdout):

* ``{"event": "board", "board": N, "port": ..., "white": ..., "black": ...}`` plus ``url``
  (what pyserial's ``serial_for_url`` opens: the pty path or ``socket://127.0.0.1:P``),
  ``serial``, ``address`` (the 14-bit bus address), ``bus`` and ``transport``. ``port`` is the
  same as ``url`` (the demo opens it as is);
* ``{"event": "ready"}`` once every line is open;
* ``{"event": "finished", "board": N, "plies": P, "result": R, "round": G}`` when board
  N's game of round G has been played: its number of plies and the result its PGN gives
  (``*`` if none);
* ``{"event": "round", "board": N, "round": G, "white": ..., "black": ...}`` when, with
  more than one round, board N is set up again for round G's game;
* ``{"event": "fault", "kind": ..., "board": N or null, "phase": "start" | "end"}``;
* ``{"event": "port", "board": N, "port": ...}`` when a vanished pty came back elsewhere;
* ``{"event": "moved", "board": N, "ply": P, "at": T}`` with ``--report-moves``: the wall
  time T of the last touch of ply P;
* with ``--report-clock``, what board N's clock did with the host's SETNRUN commands and
  its flags, T being the wall time (``time.time()``) it happened:

  * ``{"event": "clock-set", "board": N, "left": L, "right": R, "run": RUN, "at": T}`` for
    a SETNRUN the clock accepted: L and R the whole seconds set on the left and right side,
    RUN ``"left"``, ``"right"``, ``"both"``, ``"paused"`` or ``"stopped"`` from its mode byte
    (:class:`boardsim.clock.RunMode`);
  * ``{"event": "clock-refused", "board": N, "reason": ...}`` for a SETNRUN it answered with
    the error ack, the reason ``"not-in-mode-23"``, ``"bad-time"`` or ``"bad-length"``;
  * ``{"event": "flag", "board": N, "side": "left" | "right", "at": T}`` when a flag falls.

  A SETNRUN the clock never hears (no clock, the ``noclock`` or ``noack`` fault) gives no
  line.

With ``--wait-for-clock`` a board's player makes White's first move only once the host has
started the clock with a SETNRUN (:class:`boardsim.player.ClockStart`); with
``--black-starts`` too, Black first presses to start White's time, as players do before the
arbiter's central start.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import chess.pgn

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import (
    ClockListener,
    ClockReport,
    Dgt3000,
    SetnrunApplied,
    SetnrunRefused,
    TimeControl,
)
from boardsim.endpoint import Endpoint
from boardsim.faults import LINE_FAULTS, Fault, end_fault, start_fault
from boardsim.link import Link, Seat
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import ClockSide, Place, Step
from boardsim.pieces import START_POSITION
from boardsim.player import play_game
from boardsim.pty_link import PtyLink
from boardsim.tcp_link import TcpLink

Emit = Callable[[dict[str, object]], None]

#: Board N (from 1) has serial number FIRST_SERIAL + N - 1.
FIRST_SERIAL = 10000


def emit_json(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


@dataclass(frozen=True, slots=True)
class ServeOptions:
    pace: Pace = field(default_factory=Pace)
    seed: int | None = None
    noise: NoiseModel = field(default_factory=NoiseModel.clean)
    timing: BoardTiming = field(default_factory=lambda: BoardTiming.realistic(scan=None))
    #: None: no clock on the boards.
    time_control: TimeControl | None = field(default_factory=TimeControl)
    #: Where White's time is: left, right, or mixed (odd boards left, even boards right).
    clock_side: ClockSide = ClockSide.LEFT
    bus: bool = False
    #: None: pseudo-terminals; a number: TCP from that port up (0: free ports).
    tcp_port: int | None = None
    #: Seconds per byte on the line (10 / baud), None for an instant line.
    byte_seconds: float | None = None
    faults: tuple[Fault, ...] = ()
    #: Report ``{"event": "moved", "board", "ply", "at"}`` for every move: the wall time
    #: of the move's last touch, for measuring how long the host takes to show it.
    report_moves: bool = False
    #: Report what each clock did with the host's SETNRUNs, and its flags (see above).
    report_clock: bool = False
    #: Players wait for the host to start the clock before White's first move.
    wait_for_clock: bool = False
    #: Black presses to start White's time before that wait (with ``wait_for_clock``).
    black_starts: bool = False
    #: Games each board plays, one a round: after a game the players set the pieces up
    #: again and reset the clock, ``round_gap_seconds`` later, and the next game begins as
    #: the first did (with ``wait_for_clock``, at the host's start).
    rounds: int = 1
    round_gap_seconds: float = 5.0


def clock_record(number: int, report: ClockReport, at: float) -> dict[str, object]:
    """The JSON line for what board ``number``'s clock reported; ``at`` is its wall time."""
    if isinstance(report, SetnrunApplied):
        return {
            "event": "clock-set",
            "board": number,
            "left": report.left_seconds,
            "right": report.right_seconds,
            "run": report.run.value,
            "at": at,
        }
    if isinstance(report, SetnrunRefused):
        return {"event": "clock-refused", "board": number, "reason": report.reason.value}
    return {"event": "flag", "board": number, "side": report.side.value, "at": at}


def clock_reporter(number: int, emit: Emit) -> ClockListener:
    """A listener for board ``number``'s clock that emits its reports as JSON lines."""
    loop = asyncio.get_running_loop()

    def hear(report: ClockReport) -> None:
        # The clock runs on the loop's clock; a flag may have fallen a moment before the
        # timer that reports it, so its wall time is worked back from the loop time.
        emit(clock_record(number, report, time.time() - (loop.time() - report.at)))

    return hear


def make_boards(count: int, options: ServeOptions) -> list[VirtualBoard]:
    boards = []
    for number in range(1, count + 1):
        seed = None if options.seed is None else options.seed + number
        clock = None
        if options.time_control is not None:
            clock = Dgt3000(options.time_control, rng=random.Random(seed))
        boards.append(
            VirtualBoard(
                serial_number=f"{FIRST_SERIAL + number - 1:05d}",
                clock=clock,
                timing=options.timing,
                seed=seed,
            )
        )
    return boards


async def open_links(
    boards: Sequence[VirtualBoard], options: ServeOptions
) -> list[tuple[Link, list[int]]]:
    """The lines carrying ``boards``, each with the numbers (from 1) of its boards."""
    endpoints: list[tuple[Endpoint, list[int]]]
    if options.bus:
        endpoints = [(BusChain(boards), list(range(1, len(boards) + 1)))]
    else:
        endpoints = [(board, [number]) for number, board in enumerate(boards, start=1)]
    links: list[tuple[Link, list[int]]] = []
    try:
        for offset, (endpoint, numbers) in enumerate(endpoints):
            link: Link
            if options.tcp_port is None:
                link = PtyLink(endpoint, byte_seconds=options.byte_seconds)
            else:
                port = options.tcp_port + offset if options.tcp_port else 0
                link = await TcpLink.open(endpoint, port=port, byte_seconds=options.byte_seconds)
            links.append((link, numbers))
    except BaseException:
        for link, _ in links:
            link.close()
        raise
    return links


async def serve(
    games: Sequence[chess.pgn.Game],
    options: ServeOptions,
    stop: asyncio.Event,
    emit: Emit = emit_json,
) -> None:
    """Serve the boards until ``stop`` is set; a failing task stops them all.

    ``games`` are round 1's, one a board, then each later round's (``options.rounds``):
    board N plays ``games[(R - 1) * boards + N - 1]`` in round R."""
    rounds = options.rounds
    if rounds < 1 or not games or len(games) % rounds:
        raise ValueError(f"{len(games)} games do not make {rounds} rounds of the same boards")
    count = len(games) // rounds
    for fault in options.faults:
        if fault.board is not None and fault.board > count:
            raise ValueError(f"fault {fault.kind.value}: there is no board {fault.board}")
    if options.wait_for_clock and options.time_control is None:
        raise ValueError("waiting for the clock needs boards with a clock")
    boards = make_boards(count, options)
    if options.report_clock:
        for number, board in enumerate(boards, start=1):
            if board.clock is not None:
                board.clock.listeners.append(clock_reporter(number, emit))
    links = await open_links(boards, options)
    seats: dict[int, Seat] = {}
    line_of: dict[int, Link] = {}
    for link, numbers in links:
        for index, number in enumerate(numbers):
            seats[number] = Seat(link, index)
            line_of[number] = link
    tasks: list[asyncio.Task[None]] = []
    failures: list[BaseException] = []

    def watch(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            failures.append(error)
            stop.set()

    async def play(number: int, game: chess.pgn.Game, round_number: int) -> None:
        seed = options.seed
        rng = random.Random(
            None
            if seed is None
            else seed + number
            if round_number == 1
            else f"{seed}:{number}:{round_number}"
        )
        touched: dict[int, float] = {}

        def note(step: Step, now: float) -> None:
            # A move's last touch is known once the next ply starts (or the game ends).
            if step.ply and isinstance(step.action, Place):
                touched[step.ply] = now
            for ply in [p for p in touched if p < step.ply or not step.ply]:
                emit({"event": "moved", "board": number, "ply": ply, "at": touched.pop(ply)})

        moves = list(game.mainline_moves())
        await play_game(
            seats[number],
            moves,
            options.pace,
            rng,
            noise=options.noise,
            result=game.headers.get("Result"),
            white_side=options.clock_side.white_side(number),
            press_clock=options.time_control is not None,
            wait_for_clock=options.wait_for_clock,
            black_starts=options.black_starts,
            on_step=note if options.report_moves else None,
        )
        for ply, at in sorted(touched.items()):
            emit({"event": "moved", "board": number, "ply": ply, "at": at})
        emit(
            {
                "event": "finished",
                "board": number,
                "plies": len(moves),
                "result": game.headers.get("Result", "*"),
                "round": round_number,
            }
        )

    async def play_rounds(number: int) -> None:
        for round_number in range(1, rounds + 1):
            game = games[(round_number - 1) * count + number - 1]
            if round_number > 1:
                await asyncio.sleep(options.round_gap_seconds)
                set_up_again(seats[number])
                emit(
                    {
                        "event": "round",
                        "board": number,
                        "round": round_number,
                        "white": game.headers.get("White", "?"),
                        "black": game.headers.get("Black", "?"),
                    }
                )
            await play(number, game, round_number)

    try:
        transport = "pty" if options.tcp_port is None else "tcp"
        for number, (board, game) in enumerate(zip(boards, games[:count], strict=True), start=1):
            where = line_of[number].address
            emit(
                {
                    "event": "board",
                    "board": number,
                    "port": where,
                    "white": game.headers.get("White", "?"),
                    "black": game.headers.get("Black", "?"),
                    "url": where,
                    "serial": board.serial_number,
                    "address": board.address,
                    "bus": options.bus,
                    "transport": transport,
                }
            )
        emit({"event": "ready"})
        for number in range(1, count + 1):
            tasks.append(asyncio.create_task(play_rounds(number)))
        plan = FaultPlan(links, seats, emit, options.seed)
        tasks += [asyncio.create_task(plan.run(fault)) for fault in options.faults]
        for task in tasks:
            task.add_done_callback(watch)
        await stop.wait()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for link, _ in links:
            link.close()
    if failures:
        raise failures[0]


def set_up_again(seat: Seat) -> None:
    """Between rounds: the pieces back on their start squares, the clock reset for a new
    game (both sides at the base time, nothing running)."""
    board = seat.board
    now = asyncio.get_running_loop().time()
    board.set_position(START_POSITION, now)
    if board.clock is not None:
        board.clock.reset(now)
    seat.flush()


class FaultPlan:
    """Runs the faults of a spec at their times on the served lines."""

    def __init__(
        self,
        links: list[tuple[Link, list[int]]],
        seats: dict[int, Seat],
        emit: Emit,
        seed: int | None,
    ) -> None:
        self._links = links
        self._seats = seats
        self._emit = emit
        self._rng = random.Random(None if seed is None else f"{seed}:faults")
        self._loop = asyncio.get_running_loop()
        self._start = self._loop.time()

    def targets(self, fault: Fault) -> list[tuple[Link, list[VirtualBoard]]]:
        """The lines a fault acts on, each with the boards it touches there."""
        if fault.board is None:
            return [(link, list(link.boards)) for link, _ in self._links]
        if fault.board not in self._seats:
            raise ValueError(f"fault {fault.kind.value}: there is no board {fault.board}")
        seat = self._seats[fault.board]
        return [(seat.link, [seat.board])]

    async def run(self, fault: Fault) -> None:
        targets = self.targets(fault)
        begin = self._start + fault.at
        while True:
            await asyncio.sleep(max(0.0, begin - self._loop.time()))
            self._emit(
                {"event": "fault", "kind": fault.kind.value, "board": fault.board, "phase": "start"}
            )
            for link, boards in targets:
                start_fault(fault, link, boards, self._rng, self._loop.time())
            length = fault.length
            if length is not None:
                await asyncio.sleep(length)
                for link, boards in targets:
                    before = link.address
                    await end_fault(fault, link, boards, self._loop.time())
                    if fault.kind in LINE_FAULTS and link.address != before:
                        self._announce_port(link)
                self._emit(
                    {
                        "event": "fault",
                        "kind": fault.kind.value,
                        "board": fault.board,
                        "phase": "end",
                    }
                )
            if fault.every is None:
                return
            begin += fault.every

    def _announce_port(self, link: Link) -> None:
        for moved, numbers in self._links:
            if moved is link:
                for number in numbers:
                    self._emit({"event": "port", "board": number, "port": link.address})
