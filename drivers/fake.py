"""A scripted board for tests of the hub: events pushed by the test, commands expected.

In the spirit of python-chess's ``MockTransport``: the test says which clock commands it
expects (and what the board answers to each), pushes board events, and finally calls
:meth:`ScriptedBoard.assert_done` to check that every expected command came.

    board = ScriptedBoard()
    board.expect(SetAndRun(5400, 5400, RunMode.LEFT),
                 then=[ClockCommandResult(SetAndRun(5400, 5400, RunMode.LEFT), ok=True)])
    board.push(PositionSnapshot(start))
    ... hand ``board`` to the hub ...
    board.assert_done()
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, Iterable

from drivers.events import BoardEvent, ClockCommand, Disconnected


class UnexpectedCommandError(AssertionError):
    """The hub sent a command the script did not expect (or in another order)."""


class ScriptedBoard:
    """A :class:`~drivers.link.BoardLink` driven by a test."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._expected: deque[tuple[ClockCommand, tuple[BoardEvent, ...]]] = deque()
        self.sent: list[ClockCommand] = []
        self.closed = False

    def push(self, *events: BoardEvent) -> None:
        """Events the board reports, in order."""
        for event in events:
            self._queue.put_nowait(event)

    def expect(self, command: ClockCommand, *, then: Iterable[BoardEvent] = ()) -> None:
        """The next command the hub must send, and the events the board answers with."""
        self._expected.append((command, tuple(then)))

    def assert_done(self) -> None:
        if self._expected:
            missing = [command for command, _ in self._expected]
            raise AssertionError(f"expected commands never sent: {missing}")

    async def handled(self) -> None:
        """Wait until the reader has handled every event pushed so far (it has asked for
        the next one after each)."""
        await self._queue.join()

    async def events(self) -> AsyncGenerator[BoardEvent, None]:
        while True:
            event = await self._queue.get()
            yield event
            self._queue.task_done()  # the reader is back for the next one
            if isinstance(event, Disconnected) and not event.reconnecting:
                return

    def send(self, command: ClockCommand) -> None:
        self.sent.append(command)
        if not self._expected or self._expected[0][0] != command:
            wanted = self._expected[0][0] if self._expected else "nothing"
            raise UnexpectedCommandError(f"sent {command}, expected {wanted}")
        _, answer = self._expected.popleft()
        self.push(*answer)

    def close(self, reason: str = "closed by the host") -> None:
        if not self.closed:
            self.closed = True
            self.push(Disconnected(reason))
