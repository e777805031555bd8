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
from relay.store.models import AgentInput, AgentMark

__all__ = [
    "InputIn",
    "InputMark",
    "InputOrderError",
    "acked",
    "game_mark",
    "inputs_after",
    "keep_inputs",
    "last_seen",
    "resumed_from",
]


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


@dataclass(frozen=True, slots=True)
class InputMark:
    """A game's mark: the last input of ``board`` of ``agent`` whose consequences are in the
    game's log (written with them, by :class:`relay.store.log_appender.LogAppender`)."""

    agent: str
    board: str
    seq: int


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
    session: Session,
    *,
    agent: str,
    board: str,
    kinds: Sequence[str],
    scan: int = 5000,
    upto: int | None = None,
) -> dict[str, AgentInput]:
    """The newest kept input of each of ``kinds`` (event kinds, e.g. ``ClockReading``) for
    ``board`` of ``agent``, looking back over its last ``scan`` inputs (up to input ``upto``
    when given)."""
    query = select(AgentInput).where(AgentInput.agent == agent, AgentInput.board == board)
    if upto is not None:
        query = query.where(AgentInput.seq <= upto)
    rows = session.exec(
        query.order_by(AgentInput.seq.desc()).limit(scan)  # type: ignore[attr-defined]
    )
    found: dict[str, AgentInput] = {}
    for row in rows:
        kind = json.loads(row.event).get("kind")
        if kind in kinds and kind not in found:
            found[kind] = row
            if len(found) == len(kinds):
                break
    return found


def game_mark(session: Session, *, game_id: int) -> InputMark | None:
    """The game's mark, if anything was recorded into it from an agent's board."""
    row = session.get(AgentMark, game_id)
    return None if row is None else InputMark(row.agent, row.board, row.seq)


def resumed_from(session: Session, *, game_id: int, agent: str, board: str) -> int | None:
    """The input after which game ``game_id`` resumes on ``board`` of ``agent``: its mark,
    when the mark is of that board and no other game has decided anything from the board
    since (the board went on to another game: its inputs are not this game's). None: the
    game starts from the board as it stands."""
    mark = game_mark(session, game_id=game_id)
    if mark is None or (mark.agent, mark.board) != (agent, board):
        return None
    later = session.exec(
        select(AgentMark.game_id).where(
            AgentMark.agent == agent,
            AgentMark.board == board,
            AgentMark.seq > mark.seq,
            AgentMark.game_id != game_id,
        )
    ).first()
    return None if later is not None else mark.seq


def inputs_after(
    session: Session, *, agent: str, board: str, seq: int, upto: int
) -> Sequence[AgentInput]:
    """``board``'s inputs after input ``seq`` of ``agent`` and up to input ``upto``, in
    order."""
    return session.exec(
        select(AgentInput)
        .where(
            AgentInput.agent == agent,
            AgentInput.board == board,
            AgentInput.seq > seq,
            AgentInput.seq <= upto,
        )
        .order_by(AgentInput.seq)  # type: ignore[arg-type]
    ).all()
