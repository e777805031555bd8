"""The recorder's store thread: the boards' appends through its own connection, beside the
arbiter's decisions through sessions, in one gap-free log per game (SQLite and, as
``[postgresql]``, the local PostgreSQL)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.domain.game.events import GameEnded, MoveMade
from relay.domain.results import Result
from relay.hub.recorder import GameRecorder
from relay.store.event_log import read_events
from tests.pairings import paired_round

pytestmark = pytest.mark.both_stores


@pytest.fixture
def games(engine) -> tuple[int, list[int]]:
    with Session(engine) as session:
        return paired_round(session, games=2, name="Recorder test")


def move(ply: int, san: str) -> MoveMade:
    return MoveMade(ply, "e2e4", san, "8/8/8/8/8/8/8/8 w - - 0 1", float(ply))


def stored_sans(engine: Engine, game_id: int) -> list[tuple[int, str]]:
    with Session(engine) as session:
        return [(e.seq, e.data.get("san", e.kind)) for e in read_events(session, game_id=game_id)]


@pytest.mark.anyio
async def test_appends_and_decisions_share_one_numbering_per_game(engine, games):
    round_id, (first, second) = games
    bus = MemoryBus()
    heard: list[Published] = []
    bus.subscribe(game_topic(first), heard.append)
    recorder = GameRecorder(engine, bus)
    try:
        await recorder.record(round_id=round_id, game_id=first, events=[move(1, "e4")])
        await recorder.record(round_id=round_id, game_id=second, events=[move(1, "d4")])
        # An arbiter's decision reads the log in a session of its own, then appends.
        await recorder.decide(
            round_id=round_id,
            game_id=first,
            work=lambda session: (
                [move(len(read_events(session, game_id=first)) + 1, "e5")],
                lambda _: None,
            ),
        )
        await recorder.record(
            round_id=round_id,
            game_id=first,
            events=[move(3, "Nf3"), GameEnded(Result.WHITE_WINS, "resignation", 3.0)],
        )
    finally:
        recorder.close()
    assert stored_sans(engine, first) == [(1, "e4"), (2, "e5"), (3, "Nf3"), (4, "end")]
    assert stored_sans(engine, second) == [(1, "d4")]
    assert [(m.seq, m.kind) for m in heard] == [(1, "move"), (2, "move"), (3, "move"), (4, "end")]


@pytest.mark.anyio
async def test_a_failed_append_loses_nothing_and_the_next_one_goes_in(engine, games):
    round_id, (game, _) = games
    recorder = GameRecorder(engine, MemoryBus())
    try:
        await recorder.record(round_id=round_id, game_id=game, events=[move(1, "e4")])
        # A game that is not in the database: the foreign key refuses the row.
        with pytest.raises(engine.dialect.loaded_dbapi.IntegrityError):
            await recorder.record(round_id=round_id, game_id=10_000, events=[move(1, "c4")])
        await recorder.record(round_id=round_id, game_id=game, events=[move(2, "c5")])
    finally:
        recorder.close()
    assert stored_sans(engine, game) == [(1, "e4"), (2, "c5")]
    assert stored_sans(engine, 10_000) == []


@pytest.mark.anyio
async def test_closing_gives_the_store_threads_connection_back(engine, games):
    round_id, (game, _) = games
    recorder = GameRecorder(engine, MemoryBus())
    await recorder.record(round_id=round_id, game_id=game, events=[move(1, "e4")])
    assert engine.pool.checkedout() == 1
    recorder.close()
    assert engine.pool.checkedout() == 0
