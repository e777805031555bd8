"""A hub that stops after acknowledging an agent's inputs but before deciding on them (a
kill -9, a power cut) decides on them when it starts again: each game on an agent's board
is fed the board as it stood at the game's mark, then every input after it, so the game
comes out as it would have with no stop (docs/venue-agent.md, "A hub restart").

The inputs are a real game's, recorded from boardsim's board and the real DGT driver with
messy hands (see test_venue_time.py), fed through the hub's own agent links; the stop
leaves a dozen plies' worth of inputs acknowledged and undecided, more than the tracker
could ever infer from the board's last position alone.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from bench.accuracy_report import real_games
from drivers.event_codec import encode
from drivers.events import FieldChange, PositionSnapshot
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.game.events import MoveMade, event_from_data
from relay.hub import agent_links
from relay.hub.agent_links import AgentBoardLink, AgentLinks
from relay.hub.board_feed import Stamped
from relay.hub.hub import Hub
from relay.hub.recorder import GameRecorder
from relay.store.agent_inputs import InputIn, game_mark, keep_inputs, last_seen
from relay.store.event_log import read_events
from tests.pairings import paired_round
from tests.relay.api.test_agent_link_api import position as placement
from tests.relay.hub.test_venue_time import recorded, with_marks

pytestmark = [pytest.mark.anyio, pytest.mark.both_stores]

BOARDS = [{"board": "1", "port": "/dev/ttyACM0"}]


def numbered(items: Sequence[Stamped]) -> list[tuple[int | None, Stamped]]:
    """Each driver event with the number the agent gives it; time marks have none."""
    out: list[tuple[int | None, Stamped]] = []
    seq = 0
    for item in items:
        if item.event is None:
            out.append((None, item))
        else:
            seq += 1
            out.append((seq, item))
    return out


def messages(items: Sequence[tuple[int | None, Stamped]]) -> list[dict[str, Any]]:
    """What the agent sends for ``items``: inputs in batches, a time mark between them."""
    out: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    for seq, item in items:
        if seq is None:
            if batch:
                out.append({"type": "inputs", "items": batch})
                batch = []
            out.append({"type": "time", "mono": item.mono, "wall": item.wall})
        else:
            assert item.event is not None
            batch.append(
                {
                    "seq": seq,
                    "board": "1",
                    "mono": item.mono,
                    "wall": item.wall,
                    "event": encode(item.event),
                }
            )
    if batch:
        out.append({"type": "inputs", "items": batch})
    return out


class Venue:
    """A hub on ``engine`` following game ``game_id`` on board 1 of ``agent``."""

    def __init__(self, engine: Engine, game_id: int, agent: str) -> None:
        self.hub = Hub(Settings(), engine, MemoryBus())
        self.game_id = game_id
        self.agent = agent
        self.sent: list[dict[str, Any]] = []
        self.link = self.sent.append  # one callable: the hub knows a connection by it

    async def __aenter__(self) -> Venue:
        await self.hub.attach_dgt_board(game_id=self.game_id, url=f"agent://{self.agent}/1")
        hello = {"type": "hello", "agent": self.agent, "boards": BOARDS}
        self.state = await self.hub.agents.hello(hello, self.link)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.hub.close()
        self.hub.recorder.close()

    async def send(self, items: Sequence[tuple[int | None, Stamped]]) -> None:
        for message in messages(items):
            await self.hub.agents.received(self.state, message, self.link)
            await self.settled()

    async def settled(self) -> None:
        """Until the game's session has read and saved everything delivered."""
        session = self.hub.sessions[self.game_id]
        link = self.hub.agents.agents[self.agent].links["1"]
        assert isinstance(link, AgentBoardLink)
        deadline = time.monotonic() + 30
        while link.waiting or session.unsaved:
            assert time.monotonic() < deadline, "the session did not keep up"
            await asyncio.sleep(0.001)
        await asyncio.sleep(0)


def played(engine: Engine, game_id: int) -> list[tuple[str, float | None]]:
    with Session(engine) as session:
        events = [event_from_data(e.kind, e.data) for e in read_events(session, game_id=game_id)]
    return [(event.uci, event.clock) for event in events if isinstance(event, MoveMade)]


async def test_inputs_acknowledged_but_not_decided_are_decided_after_a_restart(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = real_games()[3]
    events, table_moves = await asyncio.to_thread(recorded, game, "hall", 3, monkeypatch)
    items = numbered(with_marks(events, events[-1].mono + 10.0))
    with Session(engine) as session:
        _, (straight, stopped) = paired_round(session, games=2)

    # The game as it comes out with no stop.
    async with Venue(engine, straight, "hall") as venue:
        await venue.send(items)
    expected = played(engine, straight)
    assert [uci for uci, _ in expected] == table_moves

    # The same inputs to a hub that stops a third of the way through: it has acknowledged
    # the second third (kept, as the agent sent them after an outage) but decided none of it.
    first, second = len(items) // 3, 2 * len(items) // 3
    async with Venue(engine, stopped, "annex") as venue:
        await venue.send(items[:first])
    before = played(engine, stopped)
    undecided = [
        InputIn(seq, "1", item.mono, item.wall, encode(item.event))
        for seq, item in items[first:second]
        if seq is not None and item.event is not None
    ]
    with Session(engine) as session:
        mark = game_mark(session, game_id=stopped)
        assert mark is not None
        assert mark.seq < undecided[0].seq
        keep_inputs(session, agent="annex", inputs=undecided, received_at=time.time())
        session.commit()
    assert len(table_moves) - len(before) > 12  # far more than a last position could tell

    # Started again: what was acknowledged is decided, then the rest comes live.
    async with Venue(engine, stopped, "annex") as venue:
        await venue.settled()
        await venue.send([(s, i) for s, i in items[second:] if s is None or s > undecided[-1].seq])
    assert played(engine, stopped) == expected


async def test_an_input_committed_while_the_start_is_read_is_fed_once(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board attached while its agent sends: input 2 is committed (and delivered) between
    the reads of the board's start. It is fed once: not in the start, which is read up to
    what was held first, and delivered after it."""
    recorder = GameRecorder(engine, MemoryBus())
    links = AgentLinks(recorder)
    sent: list[dict[str, Any]] = []
    link_send = sent.append
    hello = {"type": "hello", "agent": "hall", "boards": BOARDS}
    state = await links.hello(hello, link_send)
    board = chess.Board()
    start = PositionSnapshot(placement(board))
    board.push_san("e4")
    moved = FieldChange(chess.E4, "P", placement(board))

    def one(seq: int, event: object) -> dict[str, Any]:
        item = {"seq": seq, "board": "1", "mono": float(seq), "wall": 1e9 + seq}
        return {"type": "inputs", "items": [{**item, "event": encode(event)}]}

    await links.received(state, one(1, start), link_send)
    committed, reading = threading.Event(), threading.Event()

    def slow(session: Session, **options: Any) -> Any:
        found = last_seen(session, **options)
        reading.set()
        committed.wait(10)  # input 2 comes in between two of the start's reads
        return found

    monkeypatch.setattr(agent_links, "last_seen", slow)

    async def second() -> None:
        # Once the start is being read (not before: it would simply be in it).
        assert await asyncio.to_thread(reading.wait, 10)
        await links.received(state, one(2, moved), link_send)
        committed.set()

    sending = asyncio.create_task(second())
    link = await links.board("hall", "1", game_id=1)
    await sending
    link.close()
    fed = [item.event async for item in link.stamped_events()]
    recorder.close()
    assert fed[:-1] == [start, moved]  # then the hub's own "let go"
