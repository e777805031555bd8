"""Adjudication after a correspondence event's global time limit (C.15, C.10-11;
docs/correspondence.md): each step appended to the game's steps and checked by replaying
them through the rules; the final result is the game's. A game that is over is never
adjudicated, and an adjudication never overturns a result the game already has."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any

from sqlmodel import Session

from relay.domain.correspondence.adjudication import Stage
from relay.domain.correspondence.adjudication_log import AdjudicationState
from relay.hub.correspondence_checks import CorrespondenceError, CorrespondenceInputError
from relay.hub.correspondence_games import RULES, DeskRoom, DeskTools, replayed, side_of
from relay.store.access import Identity, audit
from relay.store.correspondence import add_adjudication_step, adjudication_steps, event_of_game
from relay.store.models import CorrespondenceAdjudicationStep, CorrespondenceEvent
from relay.store.tournaments import Pairing

__all__ = ["Adjudications"]

log = logging.getLogger(__name__)

#: The steps a player of the game takes, and those the TS takes.
PLAYERS_STEPS = ("consent", "claim", "appeal")
TS_STEPS = ("ask", "decide", "rule")


class Adjudications(DeskRoom):
    """The adjudications of one hub's correspondence games; ``sweep_game`` applies what
    fell due in a game before the TS asks (a flag that fell before the limit stands)."""

    def __init__(
        self, tools: DeskTools, sweep_game: Callable[[CorrespondenceEvent, int], Awaitable[object]]
    ) -> None:
        super().__init__(tools)
        self._sweep_game = sweep_game

    async def state(self, game_id: int) -> AdjudicationState | None:
        """Where the game's adjudication stands; None before the TS asks."""
        event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
        return (await self._games.adjudications(event, [game_id]))[game_id]

    async def step(
        self, *, game_id: int, action: str, who: Identity, data: dict[str, Any] | None = None
    ) -> AdjudicationState:
        """One step, by the TS (``ask``, ``decide``, ``rule``) or by a player of the game
        (``consent``, ``claim``, ``appeal``: their side is their key's). Refused in words
        when the rules do not allow it where the process stands, or once the game is over;
        the final result is the game's."""
        view = await self._views.game(game_id)
        data = dict(data or {})
        if action in PLAYERS_STEPS:
            data["side"] = side_of(view.pairing, who)
        elif action not in TS_STEPS:
            raise CorrespondenceInputError(f"no adjudication step {action!r}")
        if action == "ask":
            event = await self._recorder.read(lambda s: event_of_game(s, game_id=game_id))
            await self._sweep_game(event, game_id)
        if view.record(view.version).result.is_decided:
            raise CorrespondenceError(f"game {game_id} is over: nothing to adjudicate")
        state = await self._add(game_id, action, data, who)
        await self._settle(view.pairing, state)
        return state

    async def lapse(self, pairing: Pairing, state: AdjudicationState, today: date) -> None:
        """A decision nobody appealed within the 14 days becomes final (C.11.A)."""
        deadline = state.process.appeal_deadline
        if state.process.stage is Stage.DECIDED and deadline is not None and today > deadline:
            await self._settle(pairing, await self._add(pairing.game_id, "lapse", {}, RULES))

    async def _add(
        self, game_id: int, action: str, data: dict[str, Any], who: Identity
    ) -> AdjudicationState:
        today = self._today()

        def work(session: Session) -> AdjudicationState:
            event = event_of_game(session, game_id=game_id)
            steps = adjudication_steps(session, game_ids=[game_id]).get(game_id, [])
            new = CorrespondenceAdjudicationStep(
                game_id=game_id, seq=len(steps) + 1, action=action, on=today,
                data=json.dumps(data), by=who.user,
            )  # fmt: skip
            state = replayed(event, [*steps, new])  # refuses a step out of place
            assert state is not None
            add_adjudication_step(
                session, game_id=game_id, action=action, on=today, data=new.data, by=who.user
            )
            audit(session, who=who, action=f"adjudication-{action}",
                  target=f"game {game_id}", detail=data)  # fmt: skip
            session.commit()
            return state

        return await self._recorder.run(work)

    async def _settle(self, pairing: Pairing, state: AdjudicationState) -> None:
        """A final adjudication is the game's result, unless the game ended otherwise
        meanwhile (a withdrawal): that result stands, and the log says why."""
        process = state.process
        if process.stage is not Stage.FINAL or process.result is None:
            return
        view = await self._views.game(pairing.game_id)
        now = view.record(view.version).result
        if now.is_decided:
            if now != process.result:
                log.warning("game %d ended %s before its adjudication (%s) was final",
                            pairing.game_id, now, process.result)  # fmt: skip
            return
        how = "on appeal (C.11.A)" if process.appellant is not None else "adjudicated (C.10)"
        await self._desk.set_result(
            game_id=pairing.game_id, result=process.result, who=RULES, reason=how
        )
