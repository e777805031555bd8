"""The audit trail."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Number, Schema


class AuditRecord(Schema):
    at: Number = Field(description="Unix seconds")
    user: str
    role: str
    action: str
    target: str
    reason: str
    detail: str = Field(description="a JSON object, as text")
