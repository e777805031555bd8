"""The demo's arbiter: records and verifies each result as its game ends.

At a real event the players sign the scoresheet and the arbiter enters and verifies the
result (seed 004 ch. 17 items 12 and 14). The demo has nobody at the boards, so when the
simulator reports that a board's game is over, this arbiter waits until the hub has every
move of it, enters the result the game ended with (unless the board already showed it, as
it does for a mate), and verifies it; the bulletin, standings and crosstable then fill in
as they would at a real event. Every action is audited under :data:`DEMO_ARBITER`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from relay.domain.game.record import GameRecord
from relay.hub.hub import Hub
from relay.store.access import Identity

log = logging.getLogger(__name__)

DEMO_ARBITER = Identity(user="demo arbiter", role="arbiter")

#: How long the hub may take to decide a game's last moves after the board played them.
CATCH_UP_SECONDS = 15.0
POLL_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What the simulated players played on a board: its moves and the result."""

    game_id: int
    plies: int
    result: str


class DemoArbiter:
    def __init__(self, hub: Hub, games: dict[int, PlayedGame]) -> None:
        self._hub = hub
        self._games = games  # by board number
        self._tasks: set[asyncio.Task[None]] = set()

    def board_finished(self, board: int) -> None:
        """The simulator has played the board's game to its end."""
        played = self._games.get(board)
        if played is None:
            return
        task = asyncio.create_task(self._close(played), name=f"demo arbiter, board {board}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close(self, played: PlayedGame) -> None:
        record = await self._caught_up(played)
        result = record.result if record.result != "*" else played.result
        if result == "*":
            return  # an unfinished game in the PGN: nothing for an arbiter to sign
        if record.result == "*":
            await self._hub.desk.set_result(
                game_id=played.game_id,
                result=result,
                who=DEMO_ARBITER,
                reason="result on the players' scoresheets (simulation)",
            )
        await self._hub.desk.verify(game_id=played.game_id, result=result, who=DEMO_ARBITER)
        log.info("game %s: %s verified", played.game_id, result)

    async def _caught_up(self, played: PlayedGame) -> GameRecord:
        view = await self._hub.views.game(played.game_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CATCH_UP_SECONDS
        while True:
            record = view.record(view.version)
            if len(record.moves) >= played.plies or record.result != "*":
                return record
            if loop.time() > deadline:
                log.warning(
                    "game %s: %d of %d moves recorded; the result goes in anyway",
                    played.game_id,
                    len(record.moves),
                    played.plies,
                )
                return record
            await asyncio.sleep(POLL_SECONDS)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
