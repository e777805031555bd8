"""The bus across processes, against the local Redis server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import anyio
import pytest
import redis.asyncio as aioredis

from relay.bus.messages import Published, game_topic, round_topic
from relay.bus.redis_bus import BusError, RedisBus, encode
from tests.services import redis_namespace


def message(seq: int, game_id: int = 5, round_id: int = 2) -> Published:
    return Published(round_id, game_id, seq, "move", {"ply": seq}, 1000.0 + seq)


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    with redis_namespace() as (url, namespace):
        a, b = RedisBus(url, namespace=namespace), RedisBus(url, namespace=namespace)
        await a.start()
        await b.start()
        try:
            yield a, b
        finally:
            await a.close()
            await b.close()


class Collector:
    """What one bus hands to the subscribers of a topic."""

    def __init__(self, bus: RedisBus, topic: str) -> None:
        self.got: list[Published] = []
        self._changed = asyncio.Event()
        self._subscription = bus.subscribe(topic, self._take)

    def _take(self, message: Published) -> None:
        self.got.append(message)
        self._changed.set()

    async def wait(self, count: int) -> list[Published]:
        with anyio.fail_after(5):
            while len(self.got) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.got

    def close(self) -> None:
        self._subscription.close()


@pytest.mark.anyio
@pytest.mark.services
async def test_events_reach_the_other_process_once_in_order(pair):
    a, b = pair
    mine = Collector(a, game_topic(5))
    theirs = Collector(b, round_topic(2))
    for seq in (1, 2, 3):
        a.publish(message(seq))
    got = await theirs.wait(3)
    assert [m.seq for m in got] == [1, 2, 3]
    assert got[0] == message(1)
    assert [m.seq for m in mine.got] == [1, 2, 3]  # delivered at home at once, not twice


@pytest.mark.anyio
@pytest.mark.services
async def test_a_lost_message_is_refilled_from_the_rounds_stream(pair):
    a, b = pair
    theirs = Collector(b, game_topic(5))
    a.publish(message(1))
    await theirs.wait(1)
    # Version 2 reaches the stream but its pub/sub message is lost on the way to b.
    client = aioredis.from_url(a.url, decode_responses=True)
    try:
        await client.xadd(a.round_stream(2), {"m": encode(message(2), a.origin)})
    finally:
        await client.aclose()
    a.publish(message(3))
    got = await theirs.wait(3)
    assert [m.seq for m in got] == [1, 2, 3]


@pytest.mark.anyio
async def test_an_unreachable_redis_is_a_clear_error_without_its_password():
    bus = RedisBus("redis://:s3cret@127.0.0.1:1/0")
    with pytest.raises(BusError, match="cannot reach Redis") as refused:
        await bus.start()
    assert "s3cret" not in str(refused.value)
    assert "redis://:***@127.0.0.1:1/0" in str(refused.value)
