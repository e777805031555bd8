"""The board events venue agents forward, kept before they are acknowledged
(docs/venue-agent.md). Like every data function of the store, these never commit."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from relay.domain.errors import InvalidInputError
from relay.store.models import AgentInput

__all__ = ["InputIn", "InputOrderError", "acked", "keep_inputs", "last_seen"]


class InputOrderError(ValueError, InvalidInputError):
    """An agent's input that would leave a gap in what the hub holds."""


@dataclass(frozen=True, slots=True)
class InputIn:
    """One input as the link delivered it."""

    seq: int
    board: str
    mono: float
    wall: float
    event: dict[str, Any]


def acked(session: Session, *, agent: str) -> int:
    """The highest input the hub holds from ``agent`` (0 for none): every one before it is
    held too, since inputs are kept only in order."""
    highest = session.exec(select(func.max(AgentInput.seq)).where(AgentInput.agent == agent))
    return int(highest.one() or 0)


def keep_inputs(
    session: Session, *, agent: str, inputs: Sequence[InputIn], received_at: float
) -> list[InputIn]:
    """Add the inputs that follow what the hub holds, in order; the ones added. An input
    already held (a resend) is left out; one that would leave a gap is refused."""
    held = acked(session, agent=agent)
    fresh: list[InputIn] = []
    for item in inputs:
        if item.seq <= held:
            continue
        if item.seq != held + 1:
            raise InputOrderError(
                f"agent {agent!r} sent input {item.seq} after {held}: inputs come in order"
            )
        session.add(
            AgentInput(
                agent=agent,
                seq=item.seq,
                board=item.board,
                mono=item.mono,
                wall=item.wall,
                event=json.dumps(item.event, separators=(",", ":")),
                received_at=received_at,
            )
        )
        fresh.append(item)
        held = item.seq
    session.flush()
    return fresh


def last_seen(
    session: Session, *, agent: str, board: str, kinds: Sequence[str], scan: int = 5000
) -> dict[str, AgentInput]:
    """The newest kept input of each of ``kinds`` (event kinds, e.g. ``ClockReading``) for
    ``board`` of ``agent``, looking back over its last ``scan`` inputs."""
    rows = session.exec(
        select(AgentInput)
        .where(AgentInput.agent == agent, AgentInput.board == board)
        .order_by(AgentInput.seq.desc())  # type: ignore[attr-defined]
        .limit(scan)
    )
    found: dict[str, AgentInput] = {}
    for row in rows:
        kind = json.loads(row.event).get("kind")
        if kind in kinds and kind not in found:
            found[kind] = row
            if len(found) == len(kinds):
                break
    return found
