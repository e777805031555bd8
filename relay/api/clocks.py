"""The arbiter's clock routes: start a round's clocks (now or at a set time), pause and
resume them, and change a player's time in two steps.

Every route needs an arbiter (or admin) token. Central actions answer per board with the
clock's own answer: ``started``, ``paused``, ``resumed`` or ``changed`` when the clock
acknowledged, ``refused``, ``no acknowledgement``, ``no clock``, ``no board``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from relay.api.deps import ArbiterDep, HubDep
from relay.api.ids import BodyId, GameId, RoundId
from relay.api.refusals import refusals
from relay.api.schemas.clocks import (
    BoardClockReport,
    ClockAction,
    ConfirmedTimeChange,
    ProposedPenalty,
    ProposedTimeChange,
    RoundClockState,
    TimeChangeInfo,
)
from relay.domain.clock.change_causes import ClockChangeCause
from relay.hub.clock_desk import (
    CONFIRM_SECONDS,
    BoardReport,
    ClockControlError,
    RoundClocks,
    TimeChange,
)

router = APIRouter(prefix="/api", tags=["clocks"])


class StartIn(BaseModel):
    games: list[BodyId] | None = Field(
        default=None, description="the games whose clocks to start; all of the round's if absent"
    )
    at: datetime | None = Field(
        default=None,
        description="start at this time (ISO 8601 with a UTC offset) instead of now",
    )


class PauseIn(BaseModel):
    games: list[BodyId] | None = None
    reason: str = Field(default="", description="why, for the audit trail")


class ResumeIn(BaseModel):
    games: list[BodyId] | None = None


class TimeChangeIn(BaseModel):
    player: Literal["white", "black"]
    change: Literal["add", "subtract", "set"]
    seconds: float = Field(ge=0, le=9 * 3600 + 59 * 60 + 59)
    cause: ClockChangeCause = Field(
        default=ClockChangeCause.ARBITER,
        description="why in the Laws' terms (7.5.5, 9.5.3, 6.10)",
    )
    reason: str = Field(min_length=1, description="the arbiter's own words, kept with it")


def _reports(reports: list[BoardReport]) -> list[BoardClockReport]:
    return [
        BoardClockReport(
            game_id=report.game_id,
            board=report.board,
            outcome=report.outcome.value,
            detail=report.detail,
        )
        for report in reports
    ]


def _round_clocks(state: RoundClocks | None) -> RoundClockState:
    if state is None:
        return RoundClockState(action=None, at=None, reports=[], scheduled_at=None)
    return RoundClockState(
        action=state.action or None,
        at=state.at,
        reports=_reports(state.reports),
        scheduled_at=state.scheduled_at,
    )


def _change(change: TimeChange) -> TimeChangeInfo:
    return TimeChangeInfo(
        token=change.token,
        game_id=change.game_id,
        player=change.player,
        change=change.change,
        seconds=change.seconds,
        cause=change.cause,
        reason=change.reason,
        before=change.before,
        after=change.after,
        asked_by=change.asked_by,
        expires=change.expires,
    )


@router.post("/rounds/{round_id}/clocks/start")
async def start_clocks(
    hub: HubDep, who: ArbiterDep, round_id: RoundId, body: StartIn | None = None
) -> RoundClockState | ClockAction:
    """Set every clock of the round (or of the chosen games) to the time control's starting
    time and start White's: now, or at ``at`` (the answer then only confirms the schedule;
    ``GET .../clocks`` shows the countdown and, afterwards, the outcome per board)."""
    body = body or StartIn()
    with refusals(f"round {round_id}", ClockControlError):
        if body.at is not None:
            if body.at.tzinfo is None:
                raise HTTPException(422, "at needs a UTC offset, e.g. 2026-11-21T14:00:00+01:00")
            state = hub.clocks.schedule_start(
                round_id=round_id, at=body.at.timestamp(), game_ids=body.games, who=who
            )
            return _round_clocks(state)
        reports = await hub.clocks.start(round_id=round_id, game_ids=body.games, who=who)
    return ClockAction(action="start", reports=_reports(reports))


@router.delete("/rounds/{round_id}/clocks/schedule")
async def cancel_start(hub: HubDep, who: ArbiterDep, round_id: RoundId) -> RoundClockState:
    """Call off a scheduled start."""
    if not hub.clocks.cancel_schedule(round_id):
        raise HTTPException(404, f"round {round_id} has no scheduled start")
    return _round_clocks(hub.clocks.rounds.get(round_id))


@router.get("/rounds/{round_id}/clocks")
async def round_clocks(hub: HubDep, who: ArbiterDep, round_id: RoundId) -> RoundClockState:
    """The last central clock action on the round, per board, and any scheduled start."""
    return _round_clocks(hub.clocks.rounds.get(round_id))


@router.post("/rounds/{round_id}/clocks/pause")
async def pause_clocks(
    hub: HubDep, who: ArbiterDep, round_id: RoundId, body: PauseIn | None = None
) -> ClockAction:
    """Stop both clocks of every board of the round (or of the chosen games)."""
    body = body or PauseIn()
    with refusals(f"round {round_id}", ClockControlError):
        reports = await hub.clocks.pause(
            round_id=round_id, game_ids=body.games, who=who, reason=body.reason
        )
    return ClockAction(action="pause", reports=_reports(reports))


@router.post("/rounds/{round_id}/clocks/resume")
async def resume_clocks(
    hub: HubDep, who: ArbiterDep, round_id: RoundId, body: ResumeIn | None = None
) -> ClockAction:
    """Start the clock of the side to move on every board again."""
    body = body or ResumeIn()
    with refusals(f"round {round_id}", ClockControlError):
        reports = await hub.clocks.resume(round_id=round_id, game_ids=body.games, who=who)
    return ClockAction(action="resume", reports=_reports(reports))


@router.post("/games/{game_id}/clock/changes")
async def propose_time_change(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: TimeChangeIn
) -> ProposedTimeChange:
    """Step one of a time change: see the time before and after. Nothing changes until
    ``POST /api/clock-changes/{token}/confirm`` within the confirmation window."""
    with refusals(f"game {game_id}", ClockControlError):
        change = await hub.clocks.propose_change(
            game_id=game_id,
            player=body.player,
            change=body.change,
            seconds=body.seconds,
            cause=body.cause,
            reason=body.reason,
            who=who,
        )
    return ProposedTimeChange(**_change(change).model_dump(), confirm_within=CONFIRM_SECONDS)


class PenaltyIn(BaseModel):
    kind: Literal["illegal-move", "wrong-claim"]
    claimant: Literal["white", "black"] | None = Field(
        default=None, description="for a wrong claim: the player whose claim was wrong"
    )


@router.post("/games/{game_id}/clock/penalties")
async def propose_penalty(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: PenaltyIn
) -> ProposedPenalty:
    """Step one of the Laws' time penalty: for the game's last completed illegal move, time
    for the opponent (two minutes, one in rapid and blitz) and the offender's increment
    back; for a wrong draw claim, time for the claimant's opponent. Each change comes with
    its own token to confirm."""
    with refusals(f"game {game_id}", ClockControlError):
        changes = await hub.clocks.propose_penalty(
            game_id=game_id, kind=body.kind, claimant=body.claimant, who=who
        )
    return ProposedPenalty(
        changes=[_change(change) for change in changes], confirm_within=CONFIRM_SECONDS
    )


@router.post("/clock-changes/{token}/confirm")
async def confirm_time_change(hub: HubDep, who: ArbiterDep, token: str) -> ConfirmedTimeChange:
    """Step two: record the change (who, when, why) and send it to the board's clock."""
    with refusals("time change", ClockControlError):
        change, report = await hub.clocks.confirm_change(token=token, who=who)
    return ConfirmedTimeChange(**_change(change).model_dump(), clock=_reports([report])[0])
