"""Venue agents as the console shows them (docs/venue-agent.md)."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class AgentBoard(Schema):
    board: str = Field(description="the board's name at the agent")
    port: str = Field(description="where the agent reads it")
    followed: bool = Field(description="a game follows it (agent://AGENT/BOARD)")


class AgentStatus(Schema):
    """One venue agent: connected or since when not, and what the hub holds of it."""

    agent: str
    connected: bool
    silent: bool = Field(
        description="connected, but not heard for 2 s: the link is probably down (a link "
        "that holds everything stays open until its pings time out)"
    )
    since: float | None = Field(description="when it connected or went away (Unix seconds)")
    last_heard: float | None = Field(description="its last message (Unix seconds)")
    acked: int = Field(description="every input up to this one is kept at the hub")
    backlog: int = Field(
        description="inputs waiting at the venue beyond acked, as of when it was last heard"
    )
    boards: list[AgentBoard]
