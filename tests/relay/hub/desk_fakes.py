"""What the desks' tests share: a board link that records the clock commands it is sent and
answers them as a test says, a listener for what the hub publishes, and readers of the
store (a game's log, the audit trail)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import anyio
from sqlalchemy import Engine
from sqlmodel import Session

from drivers.events import (
    BoardEvent,
    ClockCommand,
    ClockCommandFailed,
    ClockCommandResult,
    ClockReading,
    ClockSide,
    Disconnected,
    Lever,
)
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.store.access import Identity, read_audit
from relay.store.event_log import read_events

ARBITER = Identity(user="Chief Arbiter", role="arbiter")
DEPUTY = Identity(user="Deputy Arbiter", role="arbiter")

#: What a board answers to one clock command: the events it reports back.
Answer = Callable[[ClockCommand], Sequence[BoardEvent]]


def obey(command: ClockCommand) -> Sequence[BoardEvent]:
    return (ClockCommandResult(command, ok=True),)


def refuse(command: ClockCommand) -> Sequence[BoardEvent]:
    """The clock answers no (a DGT 3000 not in mode 23)."""
    return (ClockCommandResult(command, ok=False),)


GIVE_UP_REASON = "no acknowledgement after 3 tries"


def give_up(command: ClockCommand) -> Sequence[BoardEvent]:
    """The driver resent the command and gave up."""
    return (ClockCommandFailed(command, GIVE_UP_REASON),)


def ignore(command: ClockCommand) -> Sequence[BoardEvent]:
    """Nothing comes back (yet)."""
    return ()


class FakeLink:
    """A :class:`~drivers.link.BoardLink` whose clock answers each command as ``answer``
    says; it records every command sent (``sent``) and the reason it was closed with.

    :meth:`handled` waits until whoever reads :meth:`events` has taken everything pushed so
    far: the reader asks for the next event only once it has handled the one before.
    """

    def __init__(self, answer: Answer = obey) -> None:
        self.answer = answer
        self.sent: list[ClockCommand] = []
        self.closed_with: str | None = None
        #: Set once a command has been sent.
        self.commanded = asyncio.Event()
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._idle = asyncio.Event()

    def push(self, *events: BoardEvent) -> None:
        for event in events:
            self._idle.clear()
            self._queue.put_nowait(event)

    async def handled(self) -> None:
        with anyio.fail_after(5):
            await self._idle.wait()

    async def events(self) -> AsyncIterator[BoardEvent]:
        while True:
            if self._queue.empty():
                self._idle.set()
            event = await self._queue.get()
            yield event
            if isinstance(event, Disconnected) and not event.reconnecting:
                return

    def send(self, command: ClockCommand) -> None:
        self.sent.append(command)
        self.commanded.set()
        self.push(*self.answer(command))

    def close(self, reason: str = "closed by the host") -> None:
        if self.closed_with is None:
            self.closed_with = reason
            self.push(Disconnected(reason))


class Heard:
    """The kinds of event the bus publishes for one game, in order."""

    def __init__(self, bus: MemoryBus, game_id: int) -> None:
        self.kinds: list[str] = []
        self._changed = asyncio.Event()
        bus.subscribe(game_topic(game_id), self._hear)

    def _hear(self, message: Published) -> None:
        self.kinds.append(message.kind)
        self._changed.set()

    async def until(self, count: int) -> list[str]:
        """Wait until ``count`` events have been published; returns their kinds."""
        with anyio.fail_after(5):
            while len(self.kinds) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.kinds


def reading(
    left: int, right: int, *, left_to_move: bool = True, running: bool = True
) -> ClockReading:
    """A DGT clock showing ``left`` and ``right`` seconds; the lever up on the mover's side."""
    return ClockReading(
        left=ClockSide(left),
        right=ClockSide(right),
        running=running,
        left_to_move=left_to_move,
        right_to_move=not left_to_move,
        lever=Lever.LEFT_UP if left_to_move else Lever.RIGHT_UP,
        battery_low=False,
    )


def stored(engine: Engine, game_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The game's log as (kind, data), oldest first."""
    with Session(engine) as session:
        return [(item.kind, dict(item.data)) for item in read_events(session, game_id=game_id)]


def kinds(engine: Engine, game_id: int) -> list[str]:
    return [kind for kind, _ in stored(engine, game_id)]


def without_at(data: dict[str, Any]) -> dict[str, Any]:
    """An event's fields but its time (checked on its own, where it matters)."""
    return {key: value for key, value in data.items() if key != "at"}


def audit_trail(engine: Engine) -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """Every audit entry, oldest first: (user, action, target, reason, detail)."""
    with Session(engine) as session:
        entries = list(reversed(read_audit(session, limit=1000)))
    return [(e.user, e.action, e.target, e.reason, json.loads(e.detail)) for e in entries]
