"""A player at a virtual board: plays a game in real time on a served board.

The steps come from :func:`boardsim.performance.perform_game` (sans I/O); this module only
waits out their delays on the event loop and applies them at ``loop.time()``, then lets the
link write what the board has to say. With ``wait_for_clock`` the player also waits, before
White's first move, for the host to start the board's clock (:class:`ClockStart`).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import chess

from boardsim.board import VirtualBoard
from boardsim.clock import ClockReport, Dgt3000, SetnrunApplied, Side
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import Step, apply_step, perform_game

__all__ = ["ClockStart", "Pace", "Table", "play_game"]


class Table(Protocol):
    """Where a player sits: a board, and the link that carries its news (a link or a seat)."""

    @property
    def board(self) -> VirtualBoard: ...

    def flush(self) -> None: ...

    async def wait_until_updating(self) -> None: ...


class ClockStart:
    """Set once the clock runs after a SETNRUN from the host (the arbiter's central start).

    Event-driven rather than polled: the clock tells its listeners inside the very call that
    applies the SETNRUN (the link feeding it the host's bytes), so a waiting player wakes on
    that loop iteration. Polling the clock at the pace's tick would add up to a tick of delay
    to every start and wake idle players for nothing. A clock that already runs when this is
    made counts as started: before the game nobody but the host can have started it.
    """

    def __init__(self, clock: Dgt3000) -> None:
        self._clock = clock
        self._started = asyncio.Event()
        if clock.running is not None:
            self._started.set()
        clock.listeners.append(self._hear)

    @property
    def started(self) -> bool:
        return self._started.is_set()

    async def wait(self) -> None:
        await self._started.wait()

    def close(self) -> None:
        """Stop listening to the clock (idempotent)."""
        if self._hear in self._clock.listeners:
            self._clock.listeners.remove(self._hear)

    def _hear(self, report: ClockReport) -> None:
        if isinstance(report, SetnrunApplied) and report.run.counts_down:
            self._started.set()


async def play_game(
    table: Table,
    moves: Sequence[chess.Move],
    pace: Pace,
    rng: random.Random,
    *,
    noise: NoiseModel | None = None,
    result: str | None = None,
    white_side: Side = Side.LEFT,
    press_clock: bool = True,
    wait_for_clock: bool = False,
    black_starts: bool = False,
    rotated_board: bool | None = None,
    on_step: Callable[[Step, float], None] | None = None,
) -> None:
    """Play ``moves`` once a host is listening; see :func:`perform_game` for the options.

    With ``wait_for_clock`` the board must have a clock: nobody presses it to begin, and
    White's first move (its thinking time included) waits until a SETNRUN from the host has
    started it; the set-up before that is done at once. ``black_starts`` has Black press to
    start White's time all the same, as players do before the arbiter's start (a press is
    not the SETNRUN White waits for). ``on_step`` hears of every step once its bytes are on
    the line, with the wall time.
    """
    start: ClockStart | None = None
    if wait_for_clock:
        clock = table.board.clock
        if clock is None:
            raise ValueError("waiting for the clock needs a board with a clock")
        # Listen before waiting for the host, so a start sent at once is not missed.
        start = ClockStart(clock)
    try:
        await table.wait_until_updating()
        loop = asyncio.get_running_loop()
        steps = perform_game(
            moves,
            pace=pace,
            rng=rng,
            noise=noise,
            initial=table.board.squares,
            result=result,
            white_side=white_side,
            press_clock=press_clock,
            start_clock=black_starts or not wait_for_clock,
            rotated_board=rotated_board,
        )
        for step in steps:
            if start is not None and step.ply:
                await start.wait()
                start.close()
                start = None
            await asyncio.sleep(step.delay)
            apply_step(table.board, step, loop.time())
            table.flush()
            if on_step is not None:
                on_step(step, time.time())
    finally:
        if start is not None:
            start.close()
