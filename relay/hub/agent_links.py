"""Venue agents as the hub sees them (docs/venue-agent.md): each agent's link, its inputs
kept before they are acknowledged, and its boards as board links a game can follow.

A game follows an agent's board like a wired one (``agent://AGENT/BOARD`` as the board's
address), but on the venue's time: the board link gives its session each event with the
venue's stamps, and the agent's time marks. A board attached while its agent is away, or
after its agent's first events, starts from the last position and clock reading the agent
sent for it, as a wired board starts from its dump.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from drivers.event_codec import WireError, decode, encode
from drivers.events import (
    BoardEvent,
    ClockCommand,
    ClockCommandFailed,
    ClockReading,
    Disconnected,
    FieldChange,
    PositionSnapshot,
)
from relay.domain.errors import InvalidInputError
from relay.hub.board_feed import Stamped
from relay.hub.recorder import GameRecorder
from relay.store.agent_inputs import InputIn, InputOrderError, acked, keep_inputs, last_seen

__all__ = ["AgentBoardLink", "AgentLinks", "AgentMessageError", "parse_address"]

log = logging.getLogger(__name__)

SCHEME = "agent://"
#: The kinds of input a board link starts from: the board's placement and its clock.
POSITION_KINDS = ("PositionSnapshot", "FieldChange")
STARTING_KINDS = (*POSITION_KINDS, "ClockReading")
#: Most inputs in one message, boards per agent, characters in a name.
MAX_ITEMS = 1000
MAX_BOARDS = 1024
MAX_NAME = 64


class AgentMessageError(ValueError, InvalidInputError):
    """A message from an agent that the link's protocol does not allow: the link is closed
    with the reason, and the agent starts again from what the hub holds."""


def parse_address(url: str) -> tuple[str, str] | None:
    """``agent://AGENT/BOARD`` as (agent, board); None for any other address."""
    if not url.startswith(SCHEME):
        return None
    agent, _, board = url[len(SCHEME) :].partition("/")
    if not _name(agent) or not _name(board):
        raise AgentMessageError(f"{url!r}: a board of an agent is agent://AGENT/BOARD")
    return agent, board


def _name(value: object) -> bool:
    return (
        isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()
    ) and "/" not in value


def _number(value: object, where: str) -> float:
    try:
        number = float(value) if isinstance(value, int | float) else math.nan
    except OverflowError:  # an integer too long for a float
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number):
        raise AgentMessageError(f"{where} is a finite number, not {str(value)[:40]}")
    return number


class AgentBoardLink:
    """One board of an agent, as a game's session reads it."""

    def __init__(self, agent: AgentState, board: str) -> None:
        self._agent = agent
        self.board = board
        self._items: asyncio.Queue[Stamped | None] = asyncio.Queue()
        self.followed = False

    def deliver(self, item: Stamped) -> None:
        if self.followed:
            self._items.put_nowait(item)

    def events(self) -> AsyncIterator[BoardEvent]:
        """As :class:`drivers.link.BoardLink`: the events without their venue's time."""
        return self._bare()

    async def _bare(self) -> AsyncIterator[BoardEvent]:
        async for item in self.stamped_events():
            if item.event is not None:
                yield item.event

    async def stamped_events(self) -> AsyncIterator[Stamped]:
        """The board's events with the venue's time, and the agent's time marks; first the
        last position and clock reading the agent sent for it, if any."""
        self.followed = True
        for start in self._agent.start_of(self.board):
            yield start
        while (item := await self._items.get()) is not None:
            yield item
        mono, wall = self._agent.venue_now
        yield Stamped(Disconnected("let go by the hub"), mono, wall)

    def send(self, command: ClockCommand) -> None:
        if not self._agent.send_command(self.board, command):
            mono, wall = self._agent.venue_now
            failed = ClockCommandFailed(command, f"agent {self._agent.name}'s link is down")
            self._items.put_nowait(Stamped(failed, mono, wall))

    def close(self, reason: str = "closed by the host") -> None:
        self.followed = False
        self._items.put_nowait(None)


@dataclass
class AgentState:
    """What the hub knows of one agent, across its connections."""

    name: str
    #: Board name -> where the agent reads it (its port), as the agent last said.
    boards: dict[str, str] = field(default_factory=dict)
    connected: bool = False
    #: When it last connected or went away (Unix seconds), and was last heard from.
    since: float | None = None
    last_heard: float | None = None
    acked: int = 0
    #: The venue's (monotonic, Unix) time as the agent last gave it.
    venue_now: tuple[float, float] = (0.0, 0.0)
    #: Sends a message down the current connection, if any.
    send: Callable[[dict[str, Any]], None] | None = None
    links: dict[str, AgentBoardLink] = field(default_factory=dict)
    #: Per board, the last whole position and clock reading, stamped.
    _last: dict[str, dict[str, Stamped]] = field(default_factory=dict)
    _commands: int = 0

    def start_of(self, board: str) -> list[Stamped]:
        last = self._last.get(board, {})
        return [last[kind] for kind in ("position", "clock") if kind in last]

    def recall(self, board: str, kept: Sequence[Stamped]) -> None:
        """What the hub kept of ``board`` before it restarted, unless it has heard newer."""
        last = self._last.setdefault(board, {})
        for item in kept:
            kind = "clock" if isinstance(item.event, ClockReading) else "position"
            if kind not in last:
                self.remember(board, item)

    def remember(self, board: str, item: Stamped) -> None:
        event = item.event
        if isinstance(event, FieldChange):
            kept = Stamped(PositionSnapshot(event.position), item.mono, item.wall)
            self._last.setdefault(board, {})["position"] = kept
        elif isinstance(event, PositionSnapshot):
            self._last.setdefault(board, {})["position"] = item
        elif isinstance(event, ClockReading):
            self._last.setdefault(board, {})["clock"] = item

    def send_command(self, board: str, command: ClockCommand) -> bool:
        """Send ``command`` to ``board``'s clock; False when it cannot go: the agent is away,
        or it has not said it reads that board (a command would break its link)."""
        if self.send is None or not self.connected or board not in self.boards:
            return False
        self._commands += 1
        self.send(
            {"type": "command", "id": self._commands, "board": board, "command": encode(command)}
        )
        return True


class AgentLinks:
    """Every venue agent of this hub."""

    def __init__(self, recorder: GameRecorder) -> None:
        self._recorder = recorder
        self.agents: dict[str, AgentState] = {}

    def _agent(self, name: str) -> AgentState:
        return self.agents.setdefault(name, AgentState(name))

    async def board(self, agent: str, board: str) -> AgentBoardLink:
        """The board link a game follows for ``board`` of ``agent`` (a new one each time a
        game attaches it: the last one is let go). It starts from the last position and
        clock reading kept of the board, also those a hub that restarted had kept."""

        def kept(session: Session) -> list[Stamped]:
            found = last_seen(session, agent=agent, board=board, kinds=STARTING_KINDS)
            positions = [found[kind] for kind in POSITION_KINDS if kind in found]
            newest = [max(positions, key=lambda row: row.seq)] if positions else []
            clock = [found["ClockReading"]] if "ClockReading" in found else []
            rows = sorted([*newest, *clock], key=lambda row: row.seq)
            return [Stamped(decode(json.loads(row.event)), row.mono, row.wall) for row in rows]

        stored = await self._recorder.read(kept)
        state = self._agent(agent)
        state.recall(board, stored)
        old = state.links.get(board)
        if old is not None:
            old.close("another game follows the board")
        link = state.links[board] = AgentBoardLink(state, board)
        return link

    async def hello(
        self, message: dict[str, Any], send: Callable[[dict[str, Any]], None]
    ) -> AgentState:
        """A connection's first message; the agent, now connected, and its ``welcome``
        sent. An older connection of the same agent is let go at its next message."""
        if not isinstance(message, dict) or message.get("type") != "hello":
            raise AgentMessageError("the first message is the agent's hello")
        name, boards = message.get("agent"), message.get("boards")
        if not _name(name):
            raise AgentMessageError(f"an agent's name is 1 to {MAX_NAME} characters, not {name!r}")
        assert isinstance(name, str)
        if not isinstance(boards, list) or len(boards) > MAX_BOARDS:
            raise AgentMessageError(f"boards is a list of at most {MAX_BOARDS}")
        said: dict[str, str] = {}
        for item in boards:
            board = item.get("board") if isinstance(item, dict) else None
            port = item.get("port") if isinstance(item, dict) else None
            if not _name(board) or not isinstance(port, str) or len(port) > 1024:
                raise AgentMessageError(f"a board is {{board, port}}, not {item!r}")
            assert isinstance(board, str)
            said[board] = port
        state = self._agent(name)
        if state.connected and state.send is not None:
            log.warning("agent %s connected again; the older connection is let go", name)
        state.boards, state.connected, state.send = said, True, send
        state.since = state.last_heard = time.time()
        state.acked = await self._recorder.read(lambda session: acked(session, agent=name))
        send({"type": "welcome", "acked": state.acked})
        log.info(
            "agent %s connected with %d boards; it resends after %d", name, len(said), state.acked
        )
        return state

    async def received(
        self, state: AgentState, message: Any, send: Callable[[dict[str, Any]], None]
    ) -> None:
        """A message after ``hello``, on the connection that ``send`` writes to."""
        if state.send is not send:
            raise AgentMessageError(f"agent {state.name} connected again: this link is let go")
        if not isinstance(message, dict):
            raise AgentMessageError("a message is an object")
        state.last_heard = time.time()
        kind = message.get("type")
        if kind == "time":
            state.venue_now = (
                _number(message.get("mono"), "mono"),
                _number(message.get("wall"), "wall"),
            )
            for link in state.links.values():
                link.deliver(Stamped(None, *state.venue_now))
        elif kind == "inputs":
            await self._inputs(state, message.get("items"))
        else:
            raise AgentMessageError(f"unknown message type {kind!r}")

    async def _inputs(self, state: AgentState, items: object) -> None:
        if not isinstance(items, list) or not 0 < len(items) <= MAX_ITEMS:
            raise AgentMessageError(f"items is a list of 1 to {MAX_ITEMS} inputs")
        inputs = [self._input(state, item) for item in items]
        name = state.name

        def keep(session: Session) -> list[InputIn]:
            fresh = keep_inputs(session, agent=name, inputs=inputs, received_at=time.time())
            session.commit()
            return fresh

        try:
            fresh = await self._recorder.run(keep)
        except InputOrderError as error:  # the agent starts again from the welcome
            raise AgentMessageError(str(error)) from None
        for item in fresh:
            stamped = Stamped(decode(item.event), item.mono, item.wall)
            state.remember(item.board, stamped)
            state.venue_now = (item.mono, item.wall)
            link = state.links.get(item.board)
            if link is not None:
                link.deliver(stamped)
        state.acked = max(state.acked, inputs[-1].seq)
        if state.send is not None:
            state.send({"type": "ack", "seq": state.acked})

    def _input(self, state: AgentState, item: object) -> InputIn:
        if not isinstance(item, dict):
            raise AgentMessageError("an input is an object")
        seq, board, event = item.get("seq"), item.get("board"), item.get("event")
        if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= 2**53:
            raise AgentMessageError(f"an input's seq is a whole number from 1, not {seq!r}")
        if not isinstance(board, str) or board not in state.boards:
            raise AgentMessageError(f"input {seq} is for board {board!r}, which the agent lacks")
        try:
            decode(event)
        except WireError as error:
            raise AgentMessageError(f"input {seq}: {error}") from None
        assert isinstance(event, dict)
        mono, wall = _number(item.get("mono"), "mono"), _number(item.get("wall"), "wall")
        return InputIn(seq, board, mono, wall, event)

    def gone(self, state: AgentState, send: Callable[[dict[str, Any]], None]) -> None:
        """The connection that ``send`` writes to ended."""
        if state.send is not send:
            return  # an older connection, replaced already
        state.connected, state.send, state.since = False, None, time.time()
        log.warning("agent %s went away; its boards wait for it", state.name)

    def status(self) -> list[dict[str, Any]]:
        """Each agent for the console: connected, since when, last acknowledgement, boards."""
        return [
            {
                "agent": state.name,
                "connected": state.connected,
                "since": state.since,
                "last_heard": state.last_heard,
                "acked": state.acked,
                "boards": [
                    {
                        "board": board,
                        "port": port,
                        "followed": board in state.links and state.links[board].followed,
                    }
                    for board, port in sorted(state.boards.items())
                ],
            }
            for state in sorted(self.agents.values(), key=lambda s: s.name)
        ]
