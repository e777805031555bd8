"""``relay agent``: the venue's boards read here, every event kept in the queue first, and
sent to the hub over one websocket that comes back after every drop (docs/venue-agent.md).

Four kinds of task share one event loop: one per board reading its driver's events, one
keeping what they read in the queue (in a thread: everything read while the last batch was
being synced goes in the next, one sync for all), one writing to the hub (inputs once they
are kept, a time mark ten times a second when nothing waits), and one reading the hub's
answers. Every event is stamped with this machine's monotonic and Unix time when its
driver gives it; the hub's trackers run on those stamps, so the time marks go out only
when every input read before them has been kept and sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from drivers.dgt.protocol import DgtOptions
from drivers.dgt.transport import DgtSerialConnection, PortError
from drivers.event_codec import WireError, decode, encode
from drivers.link import BoardLink
from relay.agent.queue import AgentQueue, InputRead, QueueWriteError
from relay.agent.sender import AgentSender, ClockCommandIn, LinkProtocolError, LinkState
from relay.domain.errors import UnavailableError

__all__ = ["Agent", "AgentSettings", "BoardPortError", "link_url"]

log = logging.getLogger(__name__)

#: A time mark when nothing was sent for this long.
MARK_SECONDS = 0.1
#: Waits between attempts to reach the hub: doubling from the first to the last.
RECONNECT_SECONDS = (0.2, 5.0)
#: A hub that answers no ping for this long is gone (a link that went silent).
PING_SECONDS = 3.0


class BoardPortError(OSError, UnavailableError):
    """A board's port that cannot be opened when the agent starts."""


def link_url(hub: str) -> str:
    """The agents' websocket of the hub at ``hub`` (``http://``, ``https://``, ``ws://`` or
    ``wss://``; https and wss use TLS)."""
    for plain, socket in (("http://", "ws://"), ("https://", "wss://")):
        if hub.startswith(plain):
            hub = socket + hub[len(plain) :]
    if not hub.startswith(("ws://", "wss://")):
        raise ValueError(f"{hub!r}: the hub's address starts with http://, https://, ws://, wss://")
    return hub.rstrip("/") + "/api/agent"


@dataclass(frozen=True, slots=True)
class AgentSettings:
    hub: str
    token: str
    name: str
    #: Board name -> the port its board is read from.
    boards: dict[str, str]
    queue: Path


class Agent:
    """One venue agent; :meth:`run` until cancelled, or until its queue cannot be written."""

    def __init__(
        self,
        settings: AgentSettings,
        *,
        open_board: Callable[[str], Awaitable[BoardLink]] | None = None,
    ) -> None:
        self.settings = settings
        self.url = link_url(settings.hub)
        self.queue = AgentQueue(settings.queue)
        self.sender = AgentSender(settings.name, settings.boards, self.queue)
        self.sender.on_command = self._command
        # An agent started again on its queue (after a crash, a kill -9, a reboot) reads each
        # board's log first: the moves made while nothing read the board are there.
        self._open_board = open_board or (_open_resuming if self.queue.last_seq else _open_dgt)
        self._links: dict[str, BoardLink] = {}
        #: Inputs read and not yet kept, oldest first; set when one is added.
        self._read_inputs: list[InputRead] = []
        #: The batch being written to the queue now, and how many inputs it holds.
        self._writing: asyncio.Future[int] | None = None
        self._keeping = 0
        #: A batch could not be kept: nothing read after it may be kept either.
        self._failed = False
        #: The queue could not keep an acknowledgement: the agent stops on it.
        self._queue_error: QueueWriteError | None = None
        self._keep_now = asyncio.Event()
        #: Set when there may be something to send.
        self._wake = asyncio.Event()
        #: Added to this machine's monotonic clock, so stamps go on from the last queued.
        self._mono_offset = max(0.0, self.queue.last_mono - time.monotonic())
        #: Whether the hub is connected now, for whoever reports on the agent.
        self.online = asyncio.Event()

    async def run(self) -> None:
        for board, port in sorted(self.settings.boards.items()):
            try:
                self._links[board] = await self._open_board(port)
            except PortError as error:
                for link in self._links.values():
                    link.close("the agent stops")
                raise BoardPortError(f"board {board}: {error}") from None
            log.info("board %s: reading %s", board, port)
        try:
            await first_to_end(
                *(self._read(board, link) for board, link in self._links.items()),
                self._keep(),
                self._stay_linked(),
            )
        finally:
            for link in self._links.values():
                link.close("the agent stops")
            await self._keep_the_rest()
            self.queue.close()

    async def _read(self, board: str, link: BoardLink) -> None:
        async for event in link.events():
            self._read_inputs.append(InputRead(board, self._mono(), time.time(), encode(event)))
            self._keep_now.set()

    async def _keep(self) -> None:
        """Keep what the boards said, a batch at a time, each synced before it may be sent;
        a queue that cannot be written stops the agent."""
        while True:
            await self._keep_now.wait()
            self._keep_now.clear()
            batch, self._read_inputs = self._read_inputs, []
            if batch:
                self._keeping = len(batch)
                self._writing = asyncio.ensure_future(asyncio.to_thread(self.queue.put_many, batch))
                try:
                    # Shielded: a stop waits for the batch (_keep_the_rest), never drops it.
                    await asyncio.shield(self._writing)
                except Exception:
                    self._failed = True
                    raise
                finally:
                    self._keeping = 0
                self._wake.set()

    async def _keep_the_rest(self) -> None:
        """On the way out: the batch being written finishes, then what was read since is
        kept, in order, unless a batch could not be (its inputs are still in the boards'
        logs, and nothing read after them may be numbered before them)."""
        if self._writing is not None:
            try:
                await self._writing
            except Exception:  # raised by _keep already, if it saw it: the agent stops on it
                self._failed = True
        if self._read_inputs and not self._failed:
            try:
                self.queue.put_many(self._read_inputs)
            except QueueWriteError as error:
                log.error("%d inputs read last are left to the boards' logs: %s",
                          len(self._read_inputs), error)  # fmt: skip
            self._read_inputs = []

    @property
    def _all_sent(self) -> bool:
        """Whether every input read so far has been kept and sent: only then may a time mark
        go (the hub's trackers take it as the venue's time going on with no new input)."""
        return not self._read_inputs and not self._keeping and self.sender.unsent == 0

    def _mono(self) -> float:
        return time.monotonic() + self._mono_offset

    def _command(self, command: ClockCommandIn) -> None:
        try:
            decoded = decode(command.command)
        except WireError as error:
            log.warning("the hub sent board %s a command that is not one: %s", command.board, error)
            return
        self._links[command.board].send(decoded)

    async def _stay_linked(self) -> None:
        wait = RECONNECT_SECONDS[0]
        headers = {"Authorization": f"Bearer {self.settings.token}"}
        while True:
            try:
                async with connect(
                    self.url,
                    additional_headers=headers,
                    proxy=None,
                    ping_interval=PING_SECONDS,
                    ping_timeout=PING_SECONDS,
                    open_timeout=10,
                    close_timeout=2,
                ) as hub:
                    wait = RECONNECT_SECONDS[0]
                    await self._linked(hub)
            except QueueWriteError:
                raise  # an OSError, but the queue's, not the link's: the agent stops
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                if self._queue_error is not None:  # the queue failed; closing the link too
                    raise self._queue_error from error
                log.warning("the hub at %s: %s; again in %.1f s", self.url, error, wait)
            except InvalidURI as error:
                raise ValueError(str(error)) from None
            except LinkProtocolError as error:
                log.error("the hub at %s: %s; again in %.1f s", self.url, error, wait)
            finally:
                self.sender.disconnected()
                self.online.clear()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_SECONDS[1])

    async def _linked(self, hub: ClientConnection) -> None:
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for message in self.sender.connected():
            outbox.put_nowait(message)
        await first_to_end(self._write(hub, outbox), self._listen(hub, outbox))

    async def _listen(self, hub: ClientConnection, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        async for text in hub:
            try:
                message = json.loads(text)
            except ValueError:
                raise LinkProtocolError("the hub sent something that is not JSON") from None
            try:
                answers = self.sender.received(message)
            except QueueWriteError as error:
                # Kept: closing the link may raise on its way out and hide it.
                self._queue_error = error
                raise
            for out in answers:
                outbox.put_nowait(out)
            if self.sender.state is LinkState.ONLINE:
                self.online.set()
            self._wake.set()

    async def _write(self, hub: ClientConnection, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            while not outbox.empty():
                await hub.send(json.dumps(outbox.get_nowait(), separators=(",", ":")))
            self._wake.clear()
            for message in self.sender.queued():
                await hub.send(json.dumps(message, separators=(",", ":")))
            if self.sender.state is LinkState.ONLINE and self._all_sent:
                mark = {"type": "time", "mono": self._mono(), "wall": time.time()}
                await hub.send(json.dumps(mark))
            # asyncio.timeout, not wait_for: on Python 3.11 a wait_for whose wait ends as the
            # task is cancelled can swallow the cancellation, and this loop would never end.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(MARK_SECONDS):
                    await self._wake.wait()


async def first_to_end(*work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` together until one of them returns or raises; cancel the others, and
    raise what that one raised."""
    tasks = [asyncio.ensure_future(item) for item in work]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:  # in the order given, so that the same failure wins every time
        if task in done and not task.cancelled() and (error := task.exception()) is not None:
            raise error


async def _open_dgt(port: str) -> BoardLink:
    return await DgtSerialConnection.open(port, DgtOptions())


async def _open_resuming(port: str) -> BoardLink:
    """The board, replaying its log since power-up at the first read (the hub's tracker
    skips what it already knows)."""
    return await DgtSerialConnection.open(port, DgtOptions(resume=True))
