from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published
from relay.hub import game_views
from relay.hub.game_views import GameViews
from relay.store.engine import open_store
from relay.store.event_log import append_events, read_round_events
from tests.pairings import paired_round
from tests.stores import migrated_sqlite


def move(ply: int, uci: str, san: str) -> dict[str, object]:
    return {"ply": ply, "uci": uci, "san": san, "fen": "?", "at": 1.0, "clock": 60.0}


@pytest.fixture
def store(tmp_path):
    engine = open_store(migrated_sqlite(tmp_path / "views.db"))
    with Session(engine) as session:
        round_id, games = paired_round(session, games=2)
    yield engine, round_id, games
    engine.dispose()


@pytest.mark.anyio
async def test_a_round_is_read_once_then_kept_current_by_the_bus(store, monkeypatch):
    engine, round_id, (a, _) = store
    bus = MemoryBus()
    views = GameViews(engine, bus)
    reads = 0
    real = read_round_events

    def counting(session, *, round_id):
        nonlocal reads
        reads += 1
        return real(session, round_id=round_id)

    monkeypatch.setattr(game_views, "read_round_events", counting)
    first = await views.round(round_id)
    assert [v.version for v in first] == [0, 0]
    bus.publish(Published(round_id, a, 1, "move", move(1, "e2e4", "e4"), time.time()))
    again = await views.round(round_id)
    assert again[0].version == 1
    assert again[0].record(1).moves[0].san == "e4"
    assert "1. e4 { [%clk 0:01:00] } *" in again[0].pgn(1)
    assert reads == 1
    views.close()


@pytest.mark.anyio
async def test_an_event_published_while_the_round_is_read_is_kept_once(store, monkeypatch):
    engine, round_id, (a, _) = store
    bus = MemoryBus()
    views = GameViews(engine, bus)
    loop = asyncio.get_running_loop()
    real = read_round_events

    def commit_meanwhile(session, *, round_id):
        # Ply 1 is committed and published just after the round was read, before the read
        # result is installed: it must come from the bus, and only once.
        logs = real(session, round_id=round_id)
        with Session(engine) as other:
            stored = append_events(
                other, game_id=a, events=[("move", move(1, "e2e4", "e4"))], recorded_at=1.0
            )
            other.commit()
        published = threading.Event()

        def publish() -> None:
            for item in stored:
                bus.publish(Published(round_id, a, item.seq, item.kind, item.data, 1.0))
            published.set()

        loop.call_soon_threadsafe(publish)
        assert published.wait(5)  # the bus has delivered it before the read returns
        return logs

    monkeypatch.setattr(game_views, "read_round_events", commit_meanwhile)
    (view, _) = await views.round(round_id)
    assert [e.seq for e in view.events] == [1]
    bus.publish(Published(round_id, a, 2, "move", move(2, "e7e5", "e5"), 2.0))
    assert [e.seq for e in view.events] == [1, 2]
    views.close()


@pytest.mark.anyio
async def test_a_gap_makes_the_round_read_again(store):
    engine, round_id, (a, _) = store
    bus = MemoryBus()
    views = GameViews(engine, bus)
    await views.round(round_id)
    with Session(engine) as session:
        append_events(
            session,
            game_id=a,
            events=[("move", move(1, "d2d4", "d4")), ("move", move(2, "d7d5", "d5"))],
            recorded_at=1.0,
        )
        session.commit()
    bus.publish(Published(round_id, a, 2, "move", move(2, "d7d5", "d5"), 1.0))  # 1 was lost
    (view, _) = await views.round(round_id)
    assert [e.seq for e in view.events] == [1, 2]
    views.close()


@pytest.mark.anyio
async def test_versions_at_a_cut_in_time(store):
    engine, round_id, (a, _) = store
    with Session(engine) as session:
        append_events(
            session, game_id=a, events=[("move", move(1, "e2e4", "e4"))], recorded_at=10.0
        )
        append_events(
            session, game_id=a, events=[("move", move(2, "e7e5", "e5"))], recorded_at=20.0
        )
        session.commit()
    views = GameViews(engine, MemoryBus())
    (view, _) = await views.round(round_id)
    assert [view.version_at(t) for t in (5.0, 10.0, 15.0, 20.0, None)] == [0, 1, 1, 2, 2]
    assert view.summary(1)["last_san"] == "e4"
    assert view.summary(2)["last_san"] == "e5"
    views.close()
