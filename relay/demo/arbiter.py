"""The demo's arbiter: records and verifies each result as its game ends.

At a real event the players sign the scoresheet and the arbiter enters and verifies the
result (seed 004 ch. 17 items 12 and 14). The demo has nobody at the boards, so when the
simulator reports that a board's game is over (with the result its players agreed), this
arbiter waits until the hub has every move of it, enters that result unless the board
already showed one, as it does for a mate, and verifies it; the bulletin, standings and
crosstable then fill in as they would at a real event. Every action is audited under
:data:`DEMO_ARBITER`.
"""

from __future__ import annotations

import asyncio
import logging

from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.domain.vocabulary import UnknownWordError
from relay.hub.hub import Hub
from relay.store.access import Identity

log = logging.getLogger(__name__)

DEMO_ARBITER = Identity(user="demo arbiter", role="arbiter")

#: How long the hub may take to decide a game's last moves after the board played them.
CATCH_UP_SECONDS = 15.0
POLL_SECONDS = 0.1


class DemoArbiter:
    def __init__(self, hub: Hub, games: dict[int, int]) -> None:
        self._hub = hub
        self._games = games  # game ids by board number
        self._tasks: set[asyncio.Task[None]] = set()

    def board_finished(self, board: int, *, plies: int, result: str) -> None:
        """The simulator has played the board's game to its end: ``plies`` moves, ``result``
        (``*`` for a game its PGN leaves unfinished)."""
        game_id = self._games.get(board)
        try:
            shown = Result.parse(result)
        except UnknownWordError:
            return
        if game_id is None:
            return
        task = asyncio.create_task(
            self._close(game_id, plies, shown), name=f"demo arbiter, board {board}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("%s: %s", task.get_name(), error)

    async def _close(self, game_id: int, plies: int, result: Result) -> None:
        record = await self._caught_up(game_id, plies)
        if record is None:
            log.error("game %s: %d moves never arrived; its result is left open", game_id, plies)
            return
        shown = record.result if record.result.is_decided else result
        if not shown.is_decided:
            return  # an unfinished game in the PGN: nothing for an arbiter to sign
        if not record.result.is_decided:
            await self._hub.desk.set_result(
                game_id=game_id,
                result=shown,
                who=DEMO_ARBITER,
                reason="the result on the players' scoresheets (simulation)",
            )
        await self._hub.desk.verify(game_id=game_id, result=shown, who=DEMO_ARBITER)
        log.info("game %s: %s verified", game_id, shown)

    async def _caught_up(self, game_id: int, plies: int) -> GameRecord | None:
        """The game once the hub has its ``plies`` moves (or a result); None if they do not
        arrive in time: an arbiter would then compare the scoresheets with the board."""
        view = await self._hub.views.game(game_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CATCH_UP_SECONDS
        while loop.time() < deadline:
            record = view.record(view.version)
            if len(record.moves) >= plies or record.result.is_decided:
                return record
            await asyncio.sleep(POLL_SECONDS)
        return None

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
