"""The outputs as the console shows them (docs/outputs.md)."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class OutputInfo(Schema):
    """One output's status line: where the games go and how that stands."""

    kind: str = Field(description="lichess, folder, ftp or livechess")
    target: str = Field(description="where it goes, in words")
    state: str = Field(description="waiting (nothing sent yet), ok, or retrying")
    line: str | None = Field(description="the output's words about its last success")
    last_ok_at: float | None = Field(description="the last success (Unix seconds)")
    error: str | None = Field(description="why the last try failed, while it fails")
    failures: int = Field(description="failures in a row")
    next_try_at: float | None = Field(description="the next try (Unix seconds), while it fails")
    delivered: int = Field(description="copies delivered (requests served, for livechess)")
    pending: int = Field(description="rounds whose newest copy is not delivered yet")
