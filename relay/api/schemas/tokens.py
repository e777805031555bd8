"""Who a token belongs to, and the service's own answers."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class WhoAmI(Schema):
    """The token's user and role; both null without a token."""

    user: str | None
    role: str | None = Field(description="operator, arbiter or admin")


class Health(Schema):
    status: str = Field(description='"ok"')
