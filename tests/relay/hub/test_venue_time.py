"""A board read by a venue agent runs on the venue's time (docs/venue-agent.md): the same
events give the same game whether they arrive as they happen or all at once after an
outage, because the tracker's deadlines are met on the venue's stamps, not on arrival.

The events are a real game's, recorded from boardsim's board and the real DGT driver on one
fake clock (``bench.fake_time``), with the messy hands of the accuracy bench, at a hall's
pace and at lightning pace.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest

from bench.accuracy_report import HALL_SETTLING, SourceGame, real_games
from bench.fake_time import FakeTimeTable, play_game
from boardsim.noise import NoiseModel
from drivers.events import ClockReading, FieldChange, PositionSnapshot
from relay.domain.game.events import GameEvent, MoveMade, is_logged
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import BoardFeed, Stamped

#: The venue's Unix time at the fake clock's zero.
EPOCH = 1_790_000_000.0
#: How often the agent marks the venue's time when nothing happens.
MARK_SECONDS = 0.1


def recorded(
    game: SourceGame, pace: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Stamped], list[str]]:
    """The driver's events of ``game`` with the fake time each was read at, and the moves
    the fake-time table itself decided from them."""
    events: list[Stamped] = []
    original = FakeTimeTable._feed

    def record(table: FakeTimeTable, event: object) -> None:
        if isinstance(event, PositionSnapshot | FieldChange | ClockReading):
            events.append(Stamped(event, table.now, EPOCH + table.now))
        original(table, event)

    monkeypatch.setattr(FakeTimeTable, "_feed", record)
    report = play_game(game, seed=seed, noise=NoiseModel.messy(), pace=pace)
    return events, report.decided


def with_marks(events: Sequence[Stamped], until: float) -> list[Stamped]:
    """The events as a live link gives them: a mark of the venue's time every
    ``MARK_SECONDS`` in between, and on to ``until``."""
    out: list[Stamped] = []
    mark = 0.0
    for item in events:
        while mark < item.mono:
            out.append(Stamped(None, mark, EPOCH + mark))
            mark += MARK_SECONDS
        out.append(item)
    while mark <= until:
        out.append(Stamped(None, mark, EPOCH + mark))
        mark += MARK_SECONDS
    return out


def after_an_outage(items: Sequence[Stamped], start: float, end: float) -> list[Stamped]:
    """The link dropped from ``start`` to ``end``: no marks came meanwhile (the agent keeps
    only events), and what happened then arrives in one burst."""
    return [i for i in items if not (i.event is None and start <= i.mono < end)]


async def feed(items: Sequence[Stamped]) -> list[GameEvent]:
    """The events through a feed on the venue's time, as a board session gives them: the
    ones that come together are handled in one go, with no turn of the loop in between."""
    decided: list[GameEvent] = []
    tracker = PositionTracker(settling=HALL_SETTLING)
    board_feed = BoardFeed(
        tracker, decided.extend, clock_side="white-left", venue_time=True, name="venue"
    )

    async def arrivals() -> AsyncIterator[Stamped]:
        for item in items:
            yield item

    async for item in arrivals():
        if item.event is None:
            board_feed.advance(item.mono, item.wall)
        else:
            board_feed.handle(item.event, (item.mono, item.wall))
    board_feed.close()
    return [event for event in decided if is_logged(event)]


def moves(events: Sequence[GameEvent]) -> list[str]:
    return [event.uci for event in events if isinstance(event, MoveMade)]


@pytest.mark.parametrize(("pace", "seed"), [("hall", 3), ("lightning", 5)])
def test_a_backlog_after_an_outage_is_decided_as_it_was_live(
    pace: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = real_games()[seed]
    events, table_moves = recorded(game, pace, seed, monkeypatch)
    end = events[-1].mono + 10.0
    live = with_marks(events, end)
    middle = events[len(events) // 3].mono
    outage = after_an_outage(live, middle, events[2 * len(events) // 3].mono)
    assert len(outage) < len(live)

    as_live = asyncio.run(feed(live))
    as_burst = asyncio.run(feed(outage))

    assert moves(as_live) == table_moves  # the venue's time gives what the table decided
    assert as_burst == as_live  # every event, its ply, clock and time, as it was live


def test_a_feed_on_the_hubs_time_takes_no_marks() -> None:
    async def run() -> None:
        board_feed = BoardFeed(PositionTracker(settling=HALL_SETTLING), lambda events: None)
        with pytest.raises(RuntimeError, match="runs on the hub's time"):
            board_feed.advance(1.0, EPOCH)

    asyncio.run(run())
