"""The agent's side of its link to the hub, sans I/O: messages from the hub in, messages to
send out (docs/venue-agent.md, "What crosses the link").

The queue is the truth: on every (re)connection the hub says what it holds (``welcome``),
and the sender resends from there, in order. At most ``window`` inputs are in flight
unacknowledged, so a link that stalls does not fill the socket's buffers with the whole
backlog; and at most ``messages`` messages of inputs, so that what is read while the hub
commits one message goes in the next (the hub commits each message once: one input per
message would cap the link at the hub's commits a second). The same object lives across
connections; :meth:`connected` starts each one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from relay.agent.queue import AgentQueue
from relay.domain.errors import InvalidInputError

__all__ = ["AgentSender", "ClockCommandIn", "LinkProtocolError", "LinkState"]

#: Inputs sent and not yet acknowledged, at most.
WINDOW = 256
#: Messages of inputs sent and not yet acknowledged, at most: one being committed at the
#: hub, one on its way.
MESSAGES = 2
#: The hub asks the agent's clocks for this at most in one message.
_MAX_ID = 2**53


class LinkProtocolError(ValueError, InvalidInputError):
    """A message from the hub that the link's protocol does not allow."""


class LinkState(enum.Enum):
    OFFLINE = "offline"
    #: Connected, ``hello`` sent, waiting for the hub's ``welcome``.
    GREETING = "greeting"
    ONLINE = "online"


@dataclass(frozen=True, slots=True)
class ClockCommandIn:
    """A clock command the hub sent for one of the agent's boards."""

    id: int
    board: str
    command: dict[str, Any]


@dataclass
class AgentSender:
    """The link's state for the agent ``name`` with ``boards`` (board name -> where it is
    read from), over ``queue``."""

    name: str
    boards: dict[str, str]
    queue: AgentQueue
    window: int = WINDOW
    messages: int = MESSAGES
    state: LinkState = LinkState.OFFLINE
    #: The next input to send on this connection.
    _next: int = field(default=1, init=False)
    #: The last input of each message sent on this connection and not yet acknowledged.
    _in_flight: list[int] = field(default_factory=list, init=False)
    #: Called with each clock command from the hub.
    on_command: Callable[[ClockCommandIn], None] = lambda command: None

    def connected(self) -> list[dict[str, Any]]:
        """A new connection: introduce the agent and wait for the hub's ``welcome``."""
        self.state = LinkState.GREETING
        boards = [{"board": board, "port": port} for board, port in sorted(self.boards.items())]
        hello = {"type": "hello", "agent": self.name, "boards": boards}
        return [{**hello, "queued": self.queue.last_seq}]

    def disconnected(self) -> None:
        self.state = LinkState.OFFLINE

    @property
    def unsent(self) -> int:
        """Inputs queued and not yet sent on this connection (all of them while offline)."""
        if self.state is not LinkState.ONLINE:
            return self.queue.backlog
        return self.queue.last_seq - (self._next - 1)

    def queued(self) -> list[dict[str, Any]]:
        """An input was put in the queue: what may be sent now."""
        return self._pump()

    def received(self, message: Any) -> list[dict[str, Any]]:
        """A message from the hub; what to send in answer."""
        if not isinstance(message, dict):
            raise LinkProtocolError(f"a message is an object, not {type(message).__name__}")
        kind = message.get("type")
        if kind == "welcome":
            acked = self._seq(message, "acked")
            if acked < self.queue.acked:
                raise LinkProtocolError(
                    f"the hub holds agent {self.name!r}'s inputs up to {acked}, but had "
                    f"acknowledged up to {self.queue.acked}: it lost what it had stored "
                    "(restored from an older backup?); those inputs are gone from this queue"
                )
            self._acknowledge(acked)
            self._next = acked + 1
            self._in_flight = []
            self.state = LinkState.ONLINE
            return self._pump()
        if self.state is not LinkState.ONLINE:
            raise LinkProtocolError(f"{kind!r} before the hub's welcome")
        if kind == "ack":
            self._acknowledge(self._seq(message, "seq"))
            return self._pump()
        if kind == "command":
            self.on_command(self._command(message))
            return []
        raise LinkProtocolError(f"unknown message type {kind!r}")

    def _seq(self, message: dict[str, Any], name: str) -> int:
        value = message.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise LinkProtocolError(f"{name} is a whole number from 0, not {value!r}")
        if value > self.queue.last_seq:
            raise LinkProtocolError(
                f"the hub holds input {value} of agent {self.name!r}, which numbered only "
                f"{self.queue.last_seq}: another agent uses this name, or the queue file "
                f"{self.queue.path} is not this agent's"
            )
        return value

    def _acknowledge(self, seq: int) -> None:
        self.queue.acknowledge(seq)
        self._next = max(self._next, seq + 1)
        self._in_flight = [last for last in self._in_flight if last > seq]

    def _command(self, message: dict[str, Any]) -> ClockCommandIn:
        number, board, command = message.get("id"), message.get("board"), message.get("command")
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < _MAX_ID:
            raise LinkProtocolError(f"a command's id is a whole number, not {number!r}")
        if board not in self.boards:
            raise LinkProtocolError(f"a command for board {board!r}, which this agent lacks")
        if not isinstance(command, dict):
            raise LinkProtocolError("a command's command is an object")
        return ClockCommandIn(number, str(board), command)

    def _pump(self) -> list[dict[str, Any]]:
        if self.state is not LinkState.ONLINE:
            return []
        room = self.window - (self._next - 1 - self.queue.acked)
        if room <= 0 or len(self._in_flight) >= self.messages:
            return []
        pending = self.queue.pending(after=self._next - 1, limit=room)
        if not pending:
            return []
        self._next = pending[-1].seq + 1
        self._in_flight.append(pending[-1].seq)
        items = [
            {
                "seq": queued.seq,
                "board": queued.board,
                "mono": queued.mono,
                "wall": queued.wall,
                "event": queued.event,
            }
            for queued in pending
        ]
        return [{"type": "inputs", "items": items, "queued": self.queue.last_seq}]
