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
    Disconnected,
    FieldChange,
    PositionSnapshot,
)
from relay.domain.errors import InvalidInputError
from relay.hub.board_feed import Stamped
from relay.hub.recorder import GameRecorder
from relay.store.agent_inputs import (
    InputIn,
    InputOrderError,
    acked,
    inputs_after,
    keep_inputs,
    last_seen,
    resumed_from,
)
from relay.store.models import AgentInput

__all__ = ["AgentBoardLink", "AgentLinks", "AgentMessageError", "parse_address"]

log = logging.getLogger(__name__)

SCHEME = "agent://"
#: The kinds of input a board link starts from: the board's placement and its clock.
POSITION_KINDS = ("PositionSnapshot", "FieldChange")
STARTING_KINDS = (*POSITION_KINDS, "ClockReading")
#: A connected agent not heard for this long is shown silent: it sends a time mark ten
#: times a second when it has nothing else to send, so its link is probably down (a
#: blackholed link stays open until its pings time out).
SILENT_SECONDS = 2.0
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


def _stamped(row: AgentInput, *, whole: bool = False, numbered: bool = True) -> Stamped:
    """A kept input as the link gives it; ``whole``: a field change as the whole placement
    it left (the board as it stood, to start from); not ``numbered``: without its number,
    so that what it leads to does not move the game's mark."""
    event = decode(json.loads(row.event))
    if whole and isinstance(event, FieldChange):
        event = PositionSnapshot(event.position)
    return Stamped(event, row.mono, row.wall, row.seq if numbered else None)


def _queued(message: dict[str, Any]) -> int:
    """The newest input the agent says it has queued (0 when it does not say)."""
    value = message.get("queued", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**53:
        raise AgentMessageError(f"queued is a whole number from 0, not {str(value)[:40]}")
    return value


class AgentBoardLink:
    """One board of an agent, as a game's session reads it: first what the game must be
    fed to stand where the board does (see :meth:`AgentLinks.board`), then the board's
    inputs as they come, each once."""

    def __init__(self, agent: AgentState, board: str) -> None:
        self._agent = agent
        self.board = board
        self._items: asyncio.Queue[tuple[int | None, Stamped] | None] = asyncio.Queue()
        self._start: list[tuple[int, Stamped]] = []
        #: The newest input the start covers: inputs up to it are not fed again.
        self._covered = 0
        self.followed = True

    def begin(self, start: Sequence[tuple[int, Stamped]], covered: int) -> None:
        """What the link gives first, and the newest input it covers."""
        self._start, self._covered = list(start), covered

    @property
    def reachable(self) -> bool:
        """Whether the board's agent is connected to the hub now."""
        return self._agent.connected

    @property
    def waiting(self) -> int:
        """Inputs and marks delivered and not yet read by the game's session."""
        return len(self._start) + self._items.qsize()

    def deliver(self, item: Stamped, seq: int | None = None) -> None:
        """An input numbered ``seq`` (None: a time mark) for the board's game."""
        if self.followed:
            self._items.put_nowait((seq, item))

    def events(self) -> AsyncIterator[BoardEvent]:
        """As :class:`drivers.link.BoardLink`: the events without their venue's time."""
        return self._bare()

    async def _bare(self) -> AsyncIterator[BoardEvent]:
        async for item in self.stamped_events():
            if item.event is not None:
                yield item.event

    async def stamped_events(self) -> AsyncIterator[Stamped]:
        """The board's events with the venue's time, and the agent's time marks."""
        for _, start in self._start:
            yield start
        self._start = []
        while (queued := await self._items.get()) is not None:
            seq, item = queued
            if seq is not None and seq <= self._covered:
                continue  # committed before the start was read: fed already
            yield item
        mono, wall = self._agent.venue_now
        yield Stamped(Disconnected("let go by the hub"), mono, wall)

    def send(self, command: ClockCommand) -> None:
        if not self._agent.send_command(self.board, command):
            mono, wall = self._agent.venue_now
            failed = ClockCommandFailed(command, f"agent {self._agent.name}'s link is down")
            self._items.put_nowait((None, Stamped(failed, mono, wall)))

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
    #: The newest input the agent said it had queued: what it holds beyond ``acked`` is the
    #: backlog at the venue (as of when it was last heard).
    queued: int = 0
    #: The venue's (monotonic, Unix) time as the agent last gave it.
    venue_now: tuple[float, float] = (0.0, 0.0)
    #: Sends a message down the current connection, if any.
    send: Callable[[dict[str, Any]], None] | None = None
    links: dict[str, AgentBoardLink] = field(default_factory=dict)
    _commands: int = 0

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

    async def board(self, agent: str, board: str, *, game_id: int) -> AgentBoardLink:
        """The board link game ``game_id`` follows for ``board`` of ``agent`` (a new one each
        time a game attaches it: the last one is let go).

        A game whose log has events decided from this board (a hub restarted mid-round)
        is fed the board as it stood at the game's mark, then every input after the mark:
        what the hub had acknowledged but not yet decided on when it stopped is decided now,
        as it would have been. Any other game starts from the board's last position and
        clock reading the hub holds, as a wired board starts from its dump."""
        state = self._agent(agent)
        old = state.links.get(board)
        if old is not None:
            old.close("another game follows the board")
        # Registered before the store is read: an input committed meanwhile is either read
        # or delivered, and the link feeds each once.
        link = state.links[board] = AgentBoardLink(state, board)

        def starting(session: Session) -> tuple[list[AgentInput], Sequence[AgentInput], int]:
            # Everything is read up to what was held first: an input committed after that
            # has a higher number, and is delivered to the link.
            covered = acked(session, agent=agent)
            upto = resumed_from(session, game_id=game_id, agent=agent, board=board)
            limit = covered if upto is None else min(upto, covered)
            found = last_seen(session, agent=agent, board=board, kinds=STARTING_KINDS, upto=limit)
            positions = [found[kind] for kind in POSITION_KINDS if kind in found]
            newest = [max(positions, key=lambda row: row.seq)] if positions else []
            clock = [found["ClockReading"]] if "ClockReading" in found else []
            rows = sorted([*newest, *clock], key=lambda row: row.seq)
            after: Sequence[AgentInput] = []
            if upto is not None:
                after = inputs_after(session, agent=agent, board=board, seq=upto, upto=covered)
            return rows, after, covered

        try:
            rows, after, covered = await self._recorder.read(starting)
        except BaseException:
            link.close("the board's start could not be read")
            del state.links[board]
            raise
        # The start is the board as it stood: no input of its own (a game's mark never
        # moves back to it), only what comes after.
        start = [(row.seq, _stamped(row, whole=True, numbered=False)) for row in rows]
        link.begin([*start, *((row.seq, _stamped(row)) for row in after)], covered)
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
        queued = _queued(message)
        state = self._agent(name)
        if state.connected and state.send is not None:
            log.warning("agent %s connected again; the older connection is let go", name)
        state.boards, state.connected, state.send = said, True, send
        state.since = state.last_heard = time.time()
        state.acked = await self._recorder.read(lambda session: acked(session, agent=name))
        state.queued = max(state.acked, queued)
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
            queued = _queued(message)
            await self._inputs(state, message.get("items"))
            state.queued = max(state.acked, queued)
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
            stamped = Stamped(decode(item.event), item.mono, item.wall, item.seq)
            state.venue_now = (item.mono, item.wall)
            link = state.links.get(item.board)
            if link is not None:
                link.deliver(stamped, item.seq)
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
        """Each agent for the console: connected (and whether it went silent), since when,
        last acknowledgement, backlog, boards."""
        return [
            {
                "agent": state.name,
                "connected": state.connected,
                "silent": state.connected
                and state.last_heard is not None
                and time.time() - state.last_heard > SILENT_SECONDS,
                "since": state.since,
                "last_heard": state.last_heard,
                "acked": state.acked,
                "backlog": state.queued - state.acked,
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
