"""The arbiter's actions: results, verification, move corrections, rounds and boards.

Every action is checked against the stored log on the store thread, appended with who and
why, audited in the same transaction, and only then published. A board following the game
is told, so its tracker continues from the corrected game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from relay.domain.formats.event_file import MAX_DELAY_SECONDS
from relay.domain.game.arbiter import ArbiterActionError, replace_moves, set_result, verify_result
from relay.domain.game.events import GameEvent, event_from_data
from relay.domain.game.record import GameRecord
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder
from relay.store.access import Identity, audit
from relay.store.event_log import StoredEvent, read_events
from relay.store.models import Game, Round
from relay.store.tournaments import (
    assign_eboard,
    get_game,
    get_round,
    publish_round,
    set_round_delay,
)


@dataclass(frozen=True, slots=True)
class GameChange:
    game_id: int
    record: GameRecord
    stored: list[StoredEvent]


class ArbiterDesk:
    """Arbiter actions on one hub's store; ``on_game_changed`` hears of every changed game."""

    def __init__(
        self,
        recorder: GameRecorder,
        views: GameViews,
        on_game_changed: Callable[[int, GameRecord], None],
    ) -> None:
        self._recorder = recorder
        self._views = views
        self._on_game_changed = on_game_changed

    async def set_result(
        self, *, game_id: int, result: str, who: Identity, reason: str
    ) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [
                set_result(record, result=result, by=who.user, reason=reason, at=at)
            ],
            who,
            "set-result",
            reason,
            {"result": result},
        )

    async def verify(self, *, game_id: int, result: str, who: Identity) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [verify_result(record, result=result, by=who.user, at=at)],
            who,
            "verify",
            "",
            {"result": result},
        )

    async def replace_moves(
        self, *, game_id: int, ply: int, san: list[str], who: Identity, reason: str
    ) -> GameChange:
        return await self._change(
            game_id,
            lambda record, at: [
                replace_moves(record, ply=ply, san=san, by=who.user, reason=reason, at=at)
            ],
            who,
            "replace-moves",
            reason,
            {"ply": ply, "san": san},
        )

    async def publish(self, *, round_id: int, published: bool, who: Identity) -> Round:
        def work(session: Session) -> Round:
            round_ = publish_round(session, round_id=round_id, published=published)
            audit(
                session,
                who=who,
                action="publish" if published else "unpublish",
                target=f"round {round_id}",
            )
            return round_

        return await self._recorder.run(work)

    async def set_delay(self, *, round_id: int, seconds: int, who: Identity, reason: str) -> Round:
        if not 0 <= seconds <= MAX_DELAY_SECONDS:
            raise ArbiterActionError(f"a delay is 0 to {MAX_DELAY_SECONDS} seconds")

        def work(session: Session) -> Round:
            before = get_round(session, round_id=round_id).delay_seconds
            round_ = set_round_delay(session, round_id=round_id, seconds=seconds)
            audit(
                session,
                who=who,
                action="set-delay",
                target=f"round {round_id}",
                reason=reason,
                detail={"from": before, "to": seconds},
            )
            return round_

        return await self._recorder.run(work)

    async def assign(self, *, game_id: int, eboard_id: int | None, who: Identity) -> Game:
        def work(session: Session) -> Game:
            game = assign_eboard(session, game_id=game_id, eboard_id=eboard_id)
            audit(
                session,
                who=who,
                action="assign-board",
                target=f"game {game_id}",
                detail={"eboard": eboard_id},
            )
            return game

        game: Game = await self._recorder.run(work)
        self._views.forget(game.round_id)
        return game

    async def _change(
        self,
        game_id: int,
        decide: Callable[[GameRecord, float], Sequence[GameEvent]],
        who: Identity,
        action: str,
        reason: str,
        detail: dict[str, Any],
    ) -> GameChange:
        round_id = await self._recorder.run(
            lambda session: get_game(session, game_id=game_id).round_id
        )
        after: list[GameRecord] = []

        def work(session: Session) -> tuple[Sequence[GameEvent], Callable[[Session], None]]:
            record = _record(session, game_id)
            events = decide(record, time.time())
            for event in events:
                record.apply(event)
            after.append(record)

            def also(session: Session) -> None:
                audit(
                    session,
                    who=who,
                    action=action,
                    target=f"game {game_id}",
                    reason=reason,
                    detail=detail,
                    commit=False,
                )

            return events, also

        stored = await self._recorder.decide(round_id=round_id, game_id=game_id, work=work)
        self._on_game_changed(game_id, after[0])
        return GameChange(game_id, after[0], stored)


def _record(session: Session, game_id: int) -> GameRecord:
    return GameRecord.from_events(
        event_from_data(item.kind, item.data) for item in read_events(session, game_id=game_id)
    )
