"""Rounds."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class RoundInfo(Schema):
    id: int
    tournament_id: int
    number: int
    starts_at: str | None = Field(description="ISO 8601 with a UTC offset, if set")
    published: bool
    delay_seconds: int = Field(description="the public sees the round this long ago")
