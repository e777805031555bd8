"""The one interface the hub uses for every kind of board.

A board link is an async stream of :data:`~drivers.events.BoardEvent` plus clock commands
going the other way. The DGT serial connection, a board on a DGT bus line and the scripted
fake of :mod:`drivers.fake` all provide it; Millennium, Certabo or LiveChess input will too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from drivers.events import BoardEvent, ClockCommand


class BoardLink(Protocol):
    """A board, as the hub sees it."""

    def events(self) -> AsyncIterator[BoardEvent]:
        """Events in arrival order; the stream ends with a final ``Disconnected``."""
        ...

    def send(self, command: ClockCommand) -> None:
        """Send a clock command; its outcome comes back as an event."""
        ...

    def close(self, reason: str = "closed by the host") -> None:
        """Let go of the board; the event stream ends."""
        ...
