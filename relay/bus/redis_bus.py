"""The bus across processes: every committed event goes through Redis to the other servers.

Each process still delivers its own events to its own subscribers at once (the in-process
bus underneath). It also appends them, in order, to a capped Redis stream per round (the
last ``stream_length`` events) and publishes them on one pub/sub channel. The other
processes deliver what they hear to their subscribers; one that finds a gap in a game's
versions (a message lost while its connection to Redis was down) refills it from the
round's stream first, and what is older than the stream is read from the database by the
views that notice the gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as redis
from redis.exceptions import RedisError

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published
from relay.domain.errors import UnavailableError


def shown_url(url: str) -> str:
    """A Redis URL as it may be printed: with its password, if any, masked."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{user}:***@{host}").geturl()


log = logging.getLogger(__name__)

NAMESPACE = "relay"
#: Waits between attempts while Redis is unreachable.
RETRY_SECONDS = 1.0


class BusError(RuntimeError, UnavailableError):
    """Redis cannot be reached at start."""


def encode(message: Published, origin: str) -> str:
    return json.dumps(
        {
            "o": origin,
            "r": message.round_id,
            "g": message.game_id,
            "s": message.seq,
            "k": message.kind,
            "d": message.data,
            "t": message.recorded_at,
        },
        separators=(",", ":"),
    )


def decode(raw: str | bytes) -> tuple[str, Published]:
    item: dict[str, Any] = json.loads(raw)
    message = Published(item["r"], item["g"], item["s"], item["k"], item["d"], item["t"])
    return item["o"], message


class RedisBus(MemoryBus):
    """The in-process bus plus Redis; :meth:`start` it inside the event loop, then
    :meth:`close` it."""

    def __init__(
        self, url: str, *, namespace: str = NAMESPACE, stream_length: int = 10_000
    ) -> None:
        super().__init__()
        self.url = url
        #: Keys and channels start with it: several relays can share one Redis.
        self.namespace = namespace
        self.channel = f"{namespace}:events"
        self.stream_length = stream_length
        self.origin = secrets.token_hex(8)
        self._client: redis.Redis | None = None
        self._outbox: asyncio.Queue[Published] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        #: Per game, the newest version delivered in this process.
        self._delivered: dict[int, int] = {}
        self._listening = asyncio.Event()

    async def start(self) -> None:
        self._client = redis.from_url(self.url, decode_responses=True)
        try:
            await self._client.ping()
        except (RedisError, OSError) as error:
            await self._client.aclose()
            raise BusError(f"cannot reach Redis at {shown_url(self.url)}: {error}") from None
        self._tasks = [
            asyncio.create_task(self._write(), name="redis-bus-writer"),
            asyncio.create_task(self._listen(), name="redis-bus-listener"),
        ]
        await self._listening.wait()

    async def close(self) -> None:
        # Events already committed still go out before the connection closes.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._outbox.join(), 5.0)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    def round_stream(self, round_id: int) -> str:
        """The capped stream of a round's events, for refilling gaps."""
        return f"{self.namespace}:round:{round_id}"

    def publish(self, message: Published) -> None:
        self._deliver(message)
        self._outbox.put_nowait(message)

    def _deliver(self, message: Published) -> None:
        if message.seq > self._delivered.get(message.game_id, 0):
            self._delivered[message.game_id] = message.seq
        super().publish(message)

    async def _write(self) -> None:
        assert self._client is not None
        while True:
            message = await self._outbox.get()
            payload = encode(message, self.origin)
            while True:
                try:
                    async with self._client.pipeline(transaction=False) as pipe:
                        pipe.xadd(
                            self.round_stream(message.round_id),
                            {"m": payload},
                            maxlen=self.stream_length,
                            approximate=True,
                        )
                        pipe.publish(self.channel, payload)
                        await pipe.execute()
                    break
                except (RedisError, OSError) as error:
                    log.error("redis bus: publishing failed, retrying: %s", error)
                    await asyncio.sleep(RETRY_SECONDS)
            self._outbox.task_done()

    async def _listen(self) -> None:
        assert self._client is not None
        while True:
            try:
                async with self._client.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._listening.set()
                    async for item in pubsub.listen():
                        if item["type"] == "message":
                            await self._receive(item["data"])
            except (RedisError, OSError) as error:
                log.error("redis bus: listening failed, reconnecting: %s", error)
                await asyncio.sleep(RETRY_SECONDS)

    async def _receive(self, raw: str) -> None:
        origin, message = decode(raw)
        if origin == self.origin:
            return
        last = self._delivered.get(message.game_id)
        if last is not None and message.seq <= last:
            return
        if last is not None and message.seq > last + 1:
            for missed in await self._refill(message, last):
                self._deliver(missed)
        self._deliver(message)

    async def _refill(self, message: Published, last: int) -> list[Published]:
        """The game's messages between ``last`` and ``message`` from the round's stream."""
        assert self._client is not None
        try:
            entries = await self._client.xrange(self.round_stream(message.round_id))
        except (RedisError, OSError) as error:
            log.error("redis bus: cannot refill game %s: %s", message.game_id, error)
            return []
        found = {}
        for _, fields in entries or []:
            if not fields or "m" not in fields:
                continue
            _, item = decode(fields["m"])
            if item.game_id == message.game_id and last < item.seq < message.seq:
                found[item.seq] = item
        return [found[seq] for seq in sorted(found)]


async def open_bus(redis_url: str | None, namespace: str = NAMESPACE) -> MemoryBus:
    """The in-process bus, or with a Redis URL the bus across processes, started."""
    if redis_url is None:
        return MemoryBus()
    bus = RedisBus(redis_url, namespace=namespace)
    await bus.start()
    return bus


async def close_bus(bus: MemoryBus) -> None:
    if isinstance(bus, RedisBus):
        await bus.close()
