"""The arbiter's clock actions: per-board answers, scheduled starts, time changes."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Number, Schema
from relay.domain.clock.change_causes import ClockChangeCause


class BoardClockReport(Schema):
    """One board's answer to a central clock action."""

    game_id: int
    board: int
    outcome: str = Field(
        description="started, paused, resumed, changed, refused, no acknowledgement, "
        "no clock or no board"
    )
    detail: str


class ClockAction(Schema):
    """A central action done now, with each board's answer."""

    action: str = Field(description="start, pause or resume")
    reports: list[BoardClockReport]


class RoundClockState(Schema):
    """The last central clock action on the round and any start waiting for its time."""

    action: str | None = Field(description="start, pause or resume; null: none yet")
    at: Number | None = Field(description="when it was done, Unix seconds")
    reports: list[BoardClockReport]
    scheduled_at: Number | None = Field(description="a scheduled start, Unix seconds")


class TimeChangeInfo(Schema):
    """A time change waiting for (or given) the arbiter's confirmation."""

    token: str = Field(description="names the change to confirm")
    game_id: int
    player: str = Field(description="white or black")
    change: str = Field(description="add, subtract or set")
    seconds: Number
    cause: ClockChangeCause
    reason: str
    before: Number = Field(description="the player's time before, seconds")
    after: Number = Field(description="the player's time after, seconds")
    asked_by: str
    expires: Number = Field(description="Unix seconds")


class ProposedTimeChange(TimeChangeInfo):
    confirm_within: Number = Field(description="seconds to confirm it in")


class ProposedPenalty(Schema):
    changes: list[TimeChangeInfo]
    confirm_within: Number = Field(description="seconds to confirm each in")


class ConfirmedTimeChange(TimeChangeInfo):
    clock: BoardClockReport = Field(description="the board clock's answer")
