"""A player at a virtual board: plays a game in real time on a served board.

The steps come from :func:`boardsim.performance.perform_game` (sans I/O); this module only
waits out their delays on the event loop and applies them at ``loop.time()``, then lets the
link write what the board has to say.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import chess

from boardsim.board import VirtualBoard
from boardsim.clock import Side
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import Step, apply_step, perform_game

__all__ = ["Pace", "Table", "play_game"]


class Table(Protocol):
    """Where a player sits: a board, and the link that carries its news (a link or a seat)."""

    @property
    def board(self) -> VirtualBoard: ...

    def flush(self) -> None: ...

    async def wait_until_updating(self) -> None: ...


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
    rotated_board: bool | None = None,
    on_step: Callable[[Step, float], None] | None = None,
) -> None:
    """Play ``moves`` once a host is listening; see :func:`perform_game` for the options.

    ``on_step`` hears of every step once its bytes are on the line, with the wall time.
    """
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
        rotated_board=rotated_board,
    )
    for step in steps:
        await asyncio.sleep(step.delay)
        apply_step(table.board, step, loop.time())
        table.flush()
        if on_step is not None:
            on_step(step, time.time())
