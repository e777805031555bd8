"""A player at a virtual board: plays a game move by move with human-like timing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from boardsim.hands import touches_for_move
from boardsim.pty_link import PtyLink


@dataclass(frozen=True, slots=True)
class Pace:
    """Timing of play: seconds of thought per ply and between two touches of one move.

    Each pause is drawn uniformly from ``[(1 - jitter) * mean, (1 + jitter) * mean]``.
    """

    ply_seconds: float = 1.5
    touch_seconds: float = 0.12
    jitter: float = 0.5

    def think(self, rng: random.Random) -> float:
        return self.ply_seconds * rng.uniform(1 - self.jitter, 1 + self.jitter)

    def between_touches(self, rng: random.Random) -> float:
        return self.touch_seconds * rng.uniform(1 - self.jitter, 1 + self.jitter)


async def play_game(
    link: PtyLink, moves: Sequence[chess.Move], pace: Pace, rng: random.Random
) -> None:
    """Play ``moves`` from the start position once the host is listening."""
    await link.wait_until_updating()
    board = chess.Board()
    for move in moves:
        await asyncio.sleep(pace.think(rng))
        touches = touches_for_move(board, move, rng)
        for number, touch in enumerate(touches):
            if number:
                await asyncio.sleep(pace.between_touches(rng))
            link.board.set_square(touch.dgt_index, touch.dgt_code)
            link.flush()
        board.push(move)
