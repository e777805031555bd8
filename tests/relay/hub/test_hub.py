"""The hub on its own, over a real store: boards attached to games (a DGT port is opened by
a fake that hands out fake links), one game per board at a time under any name of its
device, a board handed from a finished game to the next round's, rounds attached whole,
boards' clock settings, arbiters' corrections passed to the board that follows the game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from drivers.dgt.protocol import DgtOptions
from drivers.dgt.transport import PortError
from drivers.events import BoardStatus, Health
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.game.events import MoveMade, event_data
from relay.domain.results import Result
from relay.hub import hub as hub_module
from relay.hub.board_session import BoardSession
from relay.hub.hub import (
    BoardInUseError,
    BoardUnavailableError,
    Hub,
    HubClosingError,
    NoBoardAssignedError,
)
from relay.store.event_log import append_events
from relay.store.models import Game
from relay.store.tournaments import set_eboard_clock, set_eboard_url
from tests.pairings import paired_round
from tests.relay.hub.desk_fakes import (
    ARBITER,
    FakeLink,
    Heard,
    audit_trail,
    kinds,
    reading,
    stored,
)

pytestmark = pytest.mark.anyio


class FakePorts:
    """Stands in for the DGT serial connection: every port opens as a :class:`FakeLink`,
    but those in ``broken``; ``opened`` lists each port opened and whether the game was to
    be resumed from the board's log."""

    def __init__(self) -> None:
        self.opened: list[tuple[str, bool]] = []
        self.links: dict[str, FakeLink] = {}
        self.broken: set[str] = set()

    async def open(self, url: str, options: DgtOptions) -> FakeLink:
        if url in self.broken:
            raise PortError(f"cannot open board port {url}: no such device")
        self.opened.append((url, options.resume))
        link = self.links[url] = FakeLink()
        return link


@pytest.fixture
def ports(monkeypatch) -> FakePorts:
    fake = FakePorts()
    monkeypatch.setattr(hub_module, "DgtSerialConnection", fake)
    return fake


@contextlib.asynccontextmanager
async def hub_on(engine: Engine) -> AsyncIterator[Hub]:
    hub = Hub(Settings(settle_seconds=0.01, board_sweep_seconds=0.0), engine, MemoryBus())
    try:
        yield hub
    finally:
        await hub.close()


def device(tmp_path: Path, name: str = "ttyACM0") -> tuple[str, str]:
    """A device file and a second name for it (as ``/dev/serial/by-id/...`` names one)."""
    path = tmp_path / name
    path.touch()
    alias = tmp_path / f"by-id-{name}"
    alias.symlink_to(path)
    return str(path), str(alias)


def play(engine: Engine, game_id: int, *sans: str) -> chess.Board:
    """Moves already in the game's log (as before a restart)."""
    board = chess.Board()
    rows = []
    for san in sans:
        move = board.push_san(san)
        rows.append(("move", event_data(MoveMade(board.ply(), move.uci(), san, board.fen(), 1.0))))
    with Session(engine) as session:
        append_events(session, game_id=game_id, events=rows, recorded_at=1.0)
        session.commit()
    return board


def _round(
    engine: Engine, *, games: int = 1, ports: list[str] | None = None
) -> tuple[int, list[int]]:
    """A round of the tournament "Hub Open" (see :func:`tests.pairings.paired_round`)."""
    with Session(engine) as session:
        return paired_round(session, games=games, name="Hub Open", ports=ports)


def _round_of(engine: Engine, game_id: int) -> int:
    with Session(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.round_id


# Attaching a board to a game


async def test_an_attached_board_follows_its_game_from_the_stored_log(engine):
    round_id, (game_id,) = _round(engine)
    board = play(engine, game_id, "e4", "c5")
    link = FakeLink()
    async with hub_on(engine) as hub:
        session = await hub.attach_link(game_id=game_id, link=link)
        assert hub.sessions == {game_id: session}
        assert (session.round_id, session.game_id) == (round_id, game_id)
        assert session.tracker.board.move_stack == board.move_stack
        assert (session.white_on, session.orientation.decided) == ("left", False)
        with pytest.raises(BoardInUseError, match=rf"^game {game_id} already has a board$"):
            await hub.attach_link(game_id=game_id, link=FakeLink())
        await hub.detach(game_id)
        assert session.ended.is_set()
        assert link.closed_with == "detached"
        assert hub.sessions == {}
        assert hub.board_health(game_id) == {"attached": False, "connected": False, "unsaved": 0}
        with pytest.raises(KeyError):
            await hub.detach(game_id)
        # Detached, the game takes a board again.
        again = await hub.attach_link(game_id=game_id, link=FakeLink())
        assert again is not session
        assert hub.sessions == {game_id: again}
    assert kinds(engine, game_id) == ["move", "move"]  # attaching records nothing of its own


async def test_board_health_shows_what_the_driver_reported(engine):
    _, (game_id,) = _round(engine)
    link = FakeLink()
    async with hub_on(engine) as hub:
        await hub.attach_link(game_id=game_id, link=link)
        link.push(
            BoardStatus(Health.ACTIVE, serial="12345", battery_percent=40, clock_connected=True),
            reading(5400, 5390),
        )
        await link.handled()
        health = hub.board_health(game_id)
    seen = health.pop("last_seen_seconds")
    assert isinstance(seen, float)
    assert seen >= 0
    assert health == {
        "attached": True,
        "connected": True,
        "unsaved": 0,
        "clock_connected": True,
        "health": "active",
        "serial": "12345",
        "battery_percent": 40,
        "rotated": False,
        "orientation": {
            "setting": "auto",
            "white_on": "left",
            "decided": False,
            "source": None,
            "reason": "not decided yet: White is taken to sit on the left until the clock tells",
            "against": 0,
        },
        "clock": {"left": 5400, "right": 5390, "running": True, "battery_low": False},
    }


async def test_a_game_opens_its_assigned_board_with_its_clock_setting(engine, ports, tmp_path):
    path, _ = device(tmp_path)
    _, (game_id, bare) = _round(engine, games=2, ports=[path])
    with Session(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert game.eboard_id is not None
        set_eboard_clock(session, eboard_id=game.eboard_id, clock="white-right")
        session.commit()
    async with hub_on(engine) as hub:
        heard = Heard(hub.bus, game_id)
        following = await hub.attach_game(game_id)
        assert await heard.until(1) == ["clock-side"]
        with pytest.raises(NoBoardAssignedError, match=rf"^game {bare} has no board assigned$"):
            await hub.attach_game(bare)
        assert set(hub.sessions) == {game_id}
    assert ports.opened == [(path, False)]
    assert following.white_on == "right"
    ((kind, data),) = stored(engine, game_id)
    assert (kind, data["white_on"], data["source"]) == ("clock-side", "right", "setting")


async def test_a_game_with_moves_asks_the_board_for_its_log(engine, ports, tmp_path):
    played, fresh = (device(tmp_path, name)[0] for name in ("ttyACM0", "ttyACM1"))
    _, (with_moves, without) = _round(engine, games=2)
    play(engine, with_moves, "d4")
    async with hub_on(engine) as hub:
        await hub.attach_dgt_board(game_id=with_moves, url=played)
        await hub.attach_dgt_board(game_id=without, url=fresh)
    assert ports.opened == [(played, True), (fresh, False)]


# One game per board


async def test_a_board_in_play_is_refused_under_any_of_its_names(engine, ports, tmp_path):
    path, alias = device(tmp_path)
    with Session(engine) as session:
        _, (first,) = paired_round(session, name="Hub Open", number=1)
        _, (second,) = paired_round(session, name="Hub Open", number=2)
    async with hub_on(engine) as hub:
        following = await hub.attach_dgt_board(game_id=first, url=path)
        for url in (path, alias):
            with pytest.raises(BoardInUseError) as refused:
                await hub.attach_dgt_board(game_id=second, url=url)
            assert str(refused.value) == f"the board at {url} follows game {first}, still in play"
        assert hub.sessions == {first: following}
        assert ports.links[path].closed_with is None
    assert ports.opened == [(path, False)]


async def test_a_finished_games_board_goes_to_the_next_game(engine, ports, tmp_path):
    path, alias = device(tmp_path)
    with Session(engine) as session:
        _, (first,) = paired_round(session, name="Hub Open", number=1)
        _, (second,) = paired_round(session, name="Hub Open", number=2)
    async with hub_on(engine) as hub:
        done = await hub.attach_dgt_board(game_id=first, url=path)
        await hub.desk.set_result(
            game_id=first, result=Result.WHITE_WINS, who=ARBITER, reason="resigned"
        )
        assert done.finished
        nxt = await hub.attach_dgt_board(game_id=second, url=alias)
        assert done.ended.is_set()
        assert ports.links[path].closed_with == "detached"
        assert hub.sessions == {second: nxt}
        # And the finished game cannot have it back while the next one plays.
        with pytest.raises(BoardInUseError, match=rf"follows game {second}, still in play$"):
            await hub.attach_dgt_board(game_id=first, url=path)
    assert ports.opened == [(path, False), (alias, False)]
    assert kinds(engine, second) == []


async def test_two_games_attached_to_one_board_at_once_get_it_once(engine, ports, tmp_path):
    path, alias = device(tmp_path)
    _, (one, two) = _round(engine, games=2)
    async with hub_on(engine) as hub:
        results = await asyncio.gather(
            hub.attach_dgt_board(game_id=one, url=path),
            hub.attach_dgt_board(game_id=two, url=alias),
            return_exceptions=True,
        )
        won = [game for game, r in zip((one, two), results, strict=True) if not _failed(r)]
        lost = [r for r in results if _failed(r)]
        assert len(won) == 1
        assert len(lost) == 1
        (winner,) = won
        (error,) = lost
        assert isinstance(error, BoardInUseError)
        assert f"is being attached to game {winner}" in str(error)
        assert set(hub.sessions) == {winner}
    assert len(ports.opened) == 1


def _failed(result: object) -> bool:
    return isinstance(result, BaseException)


async def test_a_port_that_cannot_be_opened_is_not_kept_claimed(engine, ports, tmp_path):
    path, _ = device(tmp_path)
    _, (one, two) = _round(engine, games=2)
    ports.broken.add(path)
    async with hub_on(engine) as hub:
        for game_id in (one, two):  # the second is not told the board is in use
            with pytest.raises(BoardUnavailableError, match=r"^cannot open board port"):
                await hub.attach_dgt_board(game_id=game_id, url=path)
        assert hub.sessions == {}
        ports.broken.clear()
        session = await hub.attach_dgt_board(game_id=two, url=path)
        assert hub.sessions == {two: session}
    assert ports.opened == [(path, False)]


async def test_a_board_that_goes_away_frees_its_port(engine, ports, tmp_path):
    path, _ = device(tmp_path)
    _, (one, two) = _round(engine, games=2)
    async with hub_on(engine) as hub:
        gone = await hub.attach_dgt_board(game_id=one, url=path)
        ports.links[path].close("unplugged for good")  # the driver gives up on the port
        with anyio.fail_after(5):
            await gone.ended.wait()
        assert hub.sessions == {}
        again = await hub.attach_dgt_board(game_id=two, url=path)
        assert hub.sessions == {two: again}
    assert ports.opened == [(path, False), (path, False)]


# Whole rounds


async def test_a_round_attaches_every_assigned_board_and_reports_the_others(
    engine, ports, tmp_path
):
    first, second = (device(tmp_path, name)[0] for name in ("ttyACM0", "ttyACM1"))
    _, (one, two, bare) = _round(engine, games=3, ports=[first, second])
    ports.broken.add(second)
    async with hub_on(engine) as hub:
        failed = await hub.attach_round(_round_of(engine, one))
        assert failed == {two: f"cannot open board port {second}: no such device"}
        assert set(hub.sessions) == {one}
        ports.broken.clear()
        assert await hub.attach_round(_round_of(engine, one)) == {}
        assert set(hub.sessions) == {one, two}  # a board that has no game stays out
    assert ports.opened == [(first, False), (second, False)]  # the first, once
    assert bare not in ports.links


async def test_the_next_round_takes_the_boards_once_this_rounds_games_are_over(
    engine, ports, tmp_path
):
    urls = [device(tmp_path, name)[0] for name in ("ttyACM0", "ttyACM1")]
    with Session(engine) as session:
        this, (a, b) = paired_round(session, games=2, name="Hub Open", number=1, ports=urls)
        nxt, (c, d) = paired_round(session, games=2, name="Hub Open", number=2, ports=urls)
    async with hub_on(engine) as hub:
        assert await hub.attach_round(this) == {}
        assert await hub.attach_round(nxt) == {
            c: f"the board at {urls[0]} follows game {a}, still in play",
            d: f"the board at {urls[1]} follows game {b}, still in play",
        }
        await hub.desk.set_result(game_id=a, result=Result.WHITE_WINS, who=ARBITER, reason="mate")
        assert await hub.attach_round(nxt) == {
            d: f"the board at {urls[1]} follows game {b}, still in play"
        }
        await hub.desk.set_result(game_id=b, result=Result.DRAW, who=ARBITER, reason="agreed")
        assert await hub.attach_round(nxt) == {}
        assert set(hub.sessions) == {c, d}
        assert [ports.links[url].closed_with for url in urls] == [None, None]  # round 2's
    assert [url for url, _ in ports.opened] == urls + urls


# The board's clock setting, and the arbiter's corrections


async def test_a_changed_clock_setting_reaches_the_board_that_follows_a_game(
    engine, ports, tmp_path
):
    path, _ = device(tmp_path)
    with Session(engine) as session:
        _, (followed,) = paired_round(session, name="Hub Open", number=1, ports=[path])
        _, (later,) = paired_round(session, name="Hub Open", number=2, ports=[path])
        game = session.get(Game, followed)
        assert game is not None
        eboard_id = game.eboard_id
    assert eboard_id is not None
    async with hub_on(engine) as hub:
        following = await hub.attach_game(followed)
        heard = Heard(hub.bus, followed)
        eboard = await hub.set_clock_side(eboard_id=eboard_id, clock="white-right", who=ARBITER)
        assert (eboard.id, eboard.clock) == (eboard_id, "white-right")
        assert await heard.until(1) == ["clock-side"]
        assert following.white_on == "right"
        with pytest.raises(ValueError, match="is not one of"):
            await hub.set_clock_side(
                eboard_id=eboard_id,
                clock="sideways",  # type: ignore[arg-type]
                who=ARBITER,
            )
    ((kind, data),) = stored(engine, followed)
    assert (kind, data["white_on"], data["source"]) == ("clock-side", "right", "setting")
    assert kinds(engine, later) == []  # no board follows it: nothing to record
    assert audit_trail(engine) == [
        (
            "Chief Arbiter",
            "set-clock-side",
            f"eboard {eboard_id}",
            "",
            {"before": "auto", "after": "white-right"},
        )
    ]


async def test_a_board_moved_to_another_port_is_followed_there(engine, ports, tmp_path):
    """A USB board replugged comes back as another device: the operator gives its new port
    and the game follows it there, from its stored log; a port that cannot be opened is
    said, and the game can be attached again later."""
    old, new, gone = (device(tmp_path, name)[0] for name in ("ttyACM0", "ttyACM1", "ttyACM2"))
    _, (game_id,) = _round(engine, ports=[old])
    play(engine, game_id, "e4")
    with Session(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert game.eboard_id is not None
        eboard_id = game.eboard_id
    async with hub_on(engine) as hub:
        before = await hub.attach_game(game_id)
        eboard, failed = await hub.set_eboard_url(eboard_id=eboard_id, url=new, who=ARBITER)
        assert (eboard.url, failed) == (new, {})
        assert before.ended.is_set()
        assert ports.links[old].closed_with == "detached"
        assert hub.sessions[game_id] is not before
        ports.broken.add(gone)
        _, failed = await hub.set_eboard_url(eboard_id=eboard_id, url=gone, who=ARBITER)
        assert failed == {game_id: f"cannot open board port {gone}: no such device"}
        assert game_id not in hub.sessions
        _, failed = await hub.set_eboard_url(eboard_id=eboard_id, url=new, who=ARBITER)
        assert failed == {}  # not followed: nothing to open
        await hub.attach_game(game_id)
    assert ports.opened == [(old, True), (new, True), (new, True)]
    assert [row[1:] for row in audit_trail(engine)] == [
        ("set-eboard-port", f"eboard {eboard_id}", "", {"before": old, "after": new}),
        ("set-eboard-port", f"eboard {eboard_id}", "", {"before": new, "after": gone}),
        ("set-eboard-port", f"eboard {eboard_id}", "", {"before": gone, "after": new}),
    ]


async def test_boards_changed_by_an_event_file_are_followed_as_stored(engine, ports, tmp_path):
    """An event file loaded again may change a followed board's port and clock setting."""
    old, new = (device(tmp_path, name)[0] for name in ("ttyACM0", "ttyACM1"))
    _, (game_id,) = _round(engine, ports=[old])
    async with hub_on(engine) as hub:
        following = await hub.attach_game(game_id)
        with Session(engine) as session:
            game = session.get(Game, game_id)
            assert game is not None
            assert game.eboard_id is not None
            set_eboard_clock(session, eboard_id=game.eboard_id, clock="white-right")
            session.commit()
            eboard_id = game.eboard_id
        assert await hub.follow_eboards_as_stored([eboard_id]) == {}
        assert hub.sessions[game_id] is following  # the same port: no need to open it again
        assert following.white_on == "right"
        with Session(engine) as session:
            set_eboard_url(session, eboard_id=eboard_id, url=new)
            session.commit()
        assert await hub.follow_eboards_as_stored([eboard_id]) == {}
        assert hub.sessions[game_id].white_on == "right"
    assert ports.opened == [(old, False), (new, False)]


async def test_the_board_goes_on_from_the_arbiters_correction(engine):
    _, (game_id,) = _round(engine)
    play(engine, game_id, "e4", "e5")
    async with hub_on(engine) as hub:
        session = await hub.attach_link(game_id=game_id, link=FakeLink())
        await hub.desk.replace_moves(
            game_id=game_id, ply=2, san=["c5", "Nf3"], who=ARBITER, reason="scoresheets"
        )
        corrected = [move.uci() for move in session.tracker.board.move_stack]
        await hub.desk.set_result(
            game_id=game_id, result=Result.BLACK_WINS, who=ARBITER, reason="resigned"
        )
        ended = session.finished
        await hub.desk.set_result(
            game_id=game_id, result=Result.ONGOING, who=ARBITER, reason="appeal"
        )
        reopened = session.finished
        assert hub.sessions == {game_id: session}  # the same board, following the change
    assert corrected == ["e2e4", "c7c5", "g1f3"]
    assert (ended, reopened) == (True, False)


async def test_closing_the_hub_lets_go_of_every_board(engine, ports, tmp_path):
    path, _ = device(tmp_path)
    _, (by_port, by_link) = _round(engine, games=2)
    link = FakeLink()
    hub = Hub(Settings(settle_seconds=0.01, board_sweep_seconds=0.0), engine, MemoryBus())
    sessions: list[BoardSession] = [
        await hub.attach_dgt_board(game_id=by_port, url=path),
        await hub.attach_link(game_id=by_link, link=link),
    ]
    await hub.close()
    assert [s.ended.is_set() for s in sessions] == [True, True]
    assert ports.links[path].closed_with is not None
    assert link.closed_with is not None
    assert hub.sessions == {}


async def test_a_board_attached_while_the_hub_closes_is_let_go(engine):
    _, (game_id,) = _round(engine)
    link = FakeLink()
    hub = Hub(Settings(settle_seconds=0.01, board_sweep_seconds=0.0), engine, MemoryBus())
    attaching = asyncio.create_task(hub.attach_link(game_id=game_id, link=link))
    await asyncio.sleep(0)  # the attach is reading the game's log on the store thread
    await hub.close()
    with pytest.raises(HubClosingError, match="the hub is stopping"):
        await attaching
    assert link.closed_with == "the hub is stopping"
    assert hub.sessions == {}
    with pytest.raises(HubClosingError):
        await hub.attach_link(game_id=game_id, link=FakeLink())
