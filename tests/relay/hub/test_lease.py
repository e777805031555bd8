"""The hub's lease (relay.hub.lease) over a store on SQLite: taken, waited for, renewed
only when a third of its time has gone, given back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from sqlmodel import Session, select

from relay.bus.memory import MemoryBus
from relay.hub.lease import Lease
from relay.hub.recorder import GameRecorder
from relay.store.engine import open_store
from relay.store.models import HubLease
from tests.stores import migrated_sqlite

T = TypeVar("T")


def until(engine) -> float:
    with Session(engine) as session:
        return session.exec(select(HubLease.until)).one()


class Watched(GameRecorder):
    """A recorder that tells when a try to take a lease through it finds it held."""

    refused: asyncio.Event

    async def run(self, work: Callable[[Session], T]) -> T:
        done = await super().run(work)
        if done is False:
            self.refused.set()
        return done


def test_a_lease_is_taken_waited_for_renewed_and_given_back(tmp_path):
    engine = open_store(migrated_sqlite(tmp_path / "lease.db"))
    recorder = GameRecorder(engine, MemoryBus())
    watched = Watched(engine, MemoryBus())
    clock = [1000.0]
    ours = Lease(recorder, "sweep", seconds=60.0, clock=lambda: clock[0])
    theirs = Lease(watched, "sweep", seconds=60.0, clock=lambda: clock[0])
    assert ours.holder != theirs.holder
    refused = watched.refused = asyncio.Event()

    async def story() -> None:
        assert await ours.take()
        assert until(engine) == 1060.0
        assert not await theirs.take(wait=0.5)  # tried for half a second
        clock[0] = 1010.0
        assert await ours.renew()  # a sixth of its time gone: nothing written
        assert until(engine) == 1060.0
        clock[0] = 1021.0  # more than a third of its 60 s gone: renewed
        assert await ours.renew()
        assert until(engine) == 1081.0
        refused.clear()
        waiting = asyncio.create_task(theirs.take(wait=5.0))
        await asyncio.wait_for(refused.wait(), timeout=5.0)  # it tried, and waits on
        assert not waiting.done()
        await ours.give_back()
        assert await waiting  # taken as soon as it was given back
        assert not await ours.take()

    try:
        asyncio.run(story())
    finally:
        recorder.close()
        watched.close()
        engine.dispose()
