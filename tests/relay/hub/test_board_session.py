from __future__ import annotations

import asyncio
import random

import anyio
import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from boardsim.board import VirtualBoard
from boardsim.hands import touches_for_move
from boardsim.pty_link import PtyLink
from drivers.events import FieldChange, Position, PositionSnapshot
from drivers.fake import ScriptedBoard
from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic
from relay.config import Settings
from relay.domain.game.events import MoveMade, event_data
from relay.domain.game.tracker import PositionTracker
from relay.domain.results import Result
from relay.hub.board_session import BoardSession
from relay.hub.hub import BoardInUseError, BoardUnavailableError, Hub
from relay.hub.recorder import GameRecorder
from relay.store.access import Identity
from relay.store.event_log import append_events, read_events
from tests.pairings import paired_round

SETTLE = 0.01
ARBITER = Identity(user="Chief Arbiter", role="arbiter")


@pytest.fixture
def game_id(engine) -> int:
    with Session(engine) as session:
        _, (game,) = paired_round(session, name="Hub test")
        return game


def position_of(board: chess.BaseBoard) -> Position:
    return tuple(
        None if (piece := board.piece_at(square)) is None else piece.symbol()
        for square in chess.SQUARES
    )


def play(driver: ScriptedBoard, board: chess.Board, san: str) -> None:
    """Lift and place (and remove) pieces as a player does, then push the move."""
    move = board.parse_san(san)
    shown = board.copy()
    for touch in touches_for_move(board, move, random.Random(1)):
        if touch.piece is None:
            shown.remove_piece_at(touch.square)
        else:
            shown.set_piece_at(touch.square, touch.piece)
        driver.push(FieldChange(touch.square, None, position_of(shown)))
    board.push(move)


def follow(recorder: GameRecorder, game_id: int) -> tuple[ScriptedBoard, asyncio.Task[None]]:
    """A scripted board showing the start position, followed by a running session."""
    session = BoardSession(
        round_id=1,
        game_id=game_id,
        tracker=PositionTracker(settle_seconds=SETTLE),
        recorder=recorder,
    )
    driver = ScriptedBoard()
    running = asyncio.create_task(session.run(driver.events()))
    driver.push(PositionSnapshot(position_of(chess.Board())))
    return driver, running


async def play_through_a_session(
    recorder: GameRecorder,
    game_id: int,
    sans: tuple[str, ...],
    published: list[Published],
    progress: asyncio.Event,
) -> None:
    """Play ``sans`` on a scripted board followed by a session; wait for each to be published."""
    driver, running = follow(recorder, game_id)
    board = chess.Board()
    for san in sans:
        play(driver, board, san)
        with anyio.fail_after(10):
            while len(published) < len(board.move_stack):
                progress.clear()
                await progress.wait()
    driver.close()
    await running
    recorder.close()


@pytest.mark.anyio
async def test_moves_are_committed_before_they_are_published(engine, game_id):
    bus = MemoryBus()
    recorder = GameRecorder(engine, bus)
    published: list[Published] = []
    stored_when_published: list[list[int]] = []
    progress = asyncio.Event()

    def on_event(message: Published) -> None:
        with Session(engine) as session:
            stored_when_published.append([e.seq for e in read_events(session, game_id=game_id)])
        published.append(message)
        progress.set()

    bus.subscribe(game_topic(game_id), on_event)
    await play_through_a_session(recorder, game_id, ("e4", "d5", "exd5"), published, progress)
    assert [(m.seq, m.data["san"]) for m in published] == [(1, "e4"), (2, "d5"), (3, "exd5")]
    # Each event was already in the database when subscribers heard of it.
    assert [seq[-1] for seq in stored_when_published] == [1, 2, 3]


@pytest.mark.anyio
async def test_hub_resumes_a_game_from_its_stored_log(engine, game_id):
    board = chess.Board()
    first = board.push_san("e4")
    with Session(engine) as session:
        append_events(
            session,
            game_id=game_id,
            events=[("move", event_data(MoveMade(1, first.uci(), "e4", board.fen(), 0.0)))],
            recorded_at=0.0,
        )
        session.commit()
    bus = MemoryBus()
    arrived = asyncio.Event()
    got: list[Published] = []

    def on_event(message: Published) -> None:
        got.append(message)
        arrived.set()

    bus.subscribe(game_topic(game_id), on_event)
    hub = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, bus)
    virtual = VirtualBoard()
    link = PtyLink(virtual)
    try:
        # The physical board already shows 1. e4 when the hub attaches.
        virtual.set_square(52, 0)  # e2 (DGT index 52) lifted
        virtual.set_square(36, 1)  # white pawn on e4 (DGT index 36)
        following = await hub.attach_dgt_board(game_id=game_id, url=link.path)
        with anyio.fail_after(5):
            await link.wait_until_updating()
        reply = board.parse_san("c5")
        for touch in touches_for_move(board, reply, random.Random(2)):
            virtual.set_square(touch.dgt_index, touch.dgt_code)
        link.flush()
        with anyio.fail_after(5):
            await arrived.wait()
    finally:
        await hub.close()
        link.close()
    assert [(m.seq, m.kind, m.data["san"], m.data["ply"]) for m in got] == [(2, "move", "c5", 2)]
    with Session(engine) as session:
        assert [e.data["san"] for e in read_events(session, game_id=game_id)] == ["e4", "c5"]
    assert following.tracker.board == board_after(board, "c5")


def board_after(board: chess.Board, san: str) -> chess.Board:
    after = board.copy()
    after.push_san(san)
    return after


class FlakyRecorder(GameRecorder):
    """Refuses the first ``failures`` saves, as a locked or unreachable database does."""

    def __init__(self, engine: Engine, bus: MemoryBus, failures: int) -> None:
        super().__init__(engine, bus)
        self.failures = failures

    async def record(self, *, round_id, game_id, events, mark=None):
        if self.failures:
            self.failures -= 1
            raise OSError("database is locked")
        return await super().record(round_id=round_id, game_id=game_id, events=events, mark=mark)


@pytest.mark.anyio
async def test_failed_saves_are_retried_in_order_and_nothing_is_lost(engine, game_id, caplog):
    bus = MemoryBus()
    recorder = FlakyRecorder(engine, bus, failures=2)
    published: list[Published] = []
    progress = asyncio.Event()

    def on_event(message: Published) -> None:
        published.append(message)
        progress.set()

    bus.subscribe(game_topic(game_id), on_event)
    await play_through_a_session(recorder, game_id, ("d4", "Nf6", "c4"), published, progress)
    with Session(engine) as db:
        stored = read_events(db, game_id=game_id)
    assert [(e.seq, e.data["san"]) for e in stored] == [(1, "d4"), (2, "Nf6"), (3, "c4")]
    assert [m.data["san"] for m in published] == ["d4", "Nf6", "c4"]
    assert "database is locked" in caplog.text


@pytest.mark.anyio
async def test_attach_errors_detach_and_reattach(engine, game_id):
    hub = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, MemoryBus())
    link = PtyLink(VirtualBoard())
    try:
        with pytest.raises(BoardUnavailableError, match="cannot open board port"):
            await hub.attach_dgt_board(game_id=game_id, url="/dev/no-such-board")
        session = await hub.attach_dgt_board(game_id=game_id, url=link.path)
        with pytest.raises(BoardInUseError):
            await hub.attach_dgt_board(game_id=game_id, url=link.path)
        with anyio.fail_after(5):
            await link.wait_until_updating()
        link.close()  # the cable is pulled: the session stays, waiting for the board
        with anyio.fail_after(5):
            await session.link_down.wait()
        assert not session.connected
        assert hub.sessions[game_id] is session
        await hub.detach(game_id)
        assert session.ended.is_set()
        assert game_id not in hub.sessions
        again = PtyLink(VirtualBoard())
        try:
            assert await hub.attach_dgt_board(game_id=game_id, url=again.path) is not session
        finally:
            await hub.close()
            again.close()
    finally:
        await hub.close()
        link.close()


@pytest.mark.anyio
async def test_a_board_goes_to_the_next_round_once_its_game_is_over(engine, game_id, tmp_path):
    """Round 2 is played on round 1's boards: attaching a round-2 game to a board that a
    round-1 game still follows is refused while that game is in play (under any name of
    the device), and takes the board over once it is finished; two games attached to one
    board at once get it once."""
    with Session(engine) as session:
        _, (next_game,) = paired_round(session, name="Hub test", number=2)
        _, (third_game,) = paired_round(session, name="Hub test", number=3)
    hub = Hub(Settings(settle_seconds=SETTLE, board_sweep_seconds=0.0), engine, MemoryBus())
    link = PtyLink(VirtualBoard())
    alias = tmp_path / "board-1"  # as /dev/serial/by-id/... names a USB board
    alias.symlink_to(link.path)
    try:
        both = await asyncio.gather(
            hub.attach_dgt_board(game_id=game_id, url=link.path),
            hub.attach_dgt_board(game_id=third_game, url=str(alias)),
            return_exceptions=True,
        )
        # Either may win the race (each works out the device's real path off the loop);
        # exactly one gets the board and the other is told it is taken.
        won = [
            (g, r)
            for g, r in zip((game_id, third_game), both, strict=True)
            if isinstance(r, BoardSession)
        ]
        lost = [r for r in both if isinstance(r, BoardInUseError)]
        assert len(won) == 1, both
        assert len(lost) == 1, both
        ((holder, first),) = won
        with anyio.fail_after(5):
            await link.wait_until_updating()
        for url in (link.path, str(alias)):
            with pytest.raises(BoardInUseError, match=f"follows game {holder}, still in play"):
                await hub.attach_dgt_board(game_id=next_game, url=url)
        assert hub.sessions[holder] is first
        assert set(hub.sessions) == {holder}
        await hub.desk.set_result(
            game_id=holder, result=Result.WHITE_WINS, who=ARBITER, reason="resigned"
        )
        second = await hub.attach_dgt_board(game_id=next_game, url=link.path)
        assert first.ended.is_set()
        assert set(hub.sessions) == {next_game}
        assert hub.sessions[next_game] is second
    finally:
        await hub.close()
        link.close()


@pytest.mark.anyio
async def test_corrections_and_the_end_are_stored_and_the_next_game_is_not(engine, game_id):
    bus = MemoryBus()
    recorder = GameRecorder(engine, bus)
    published: list[Published] = []
    progress = asyncio.Event()

    def on_event(message: Published) -> None:
        published.append(message)
        progress.set()

    async def until(count: int) -> None:
        with anyio.fail_after(10):
            while len(published) < count:
                progress.clear()
                await progress.wait()

    bus.subscribe(game_topic(game_id), on_event)
    driver, running = follow(recorder, game_id)
    board = chess.Board()
    play(driver, board, "e3")
    await until(1)
    # The pawn stood on e3 long enough on its way to e4: the move is corrected.
    board.pop()
    shown = board.copy()
    shown.remove_piece_at(chess.E2)
    driver.push(FieldChange(chess.E3, None, position_of(shown)))
    board.push_san("e4")
    driver.push(FieldChange(chess.E4, "P", position_of(board)))
    await until(2)
    for count, san in enumerate(("e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"), start=3):
        play(driver, board, san)
        await until(count)
    await until(9)  # and the end
    # The board is set up for the next game: nothing of it goes into this game's log.
    driver.push(PositionSnapshot(position_of(chess.Board())))
    play(driver, chess.Board(), "d4")
    driver.close()
    await running
    recorder.close()
    assert [(m.kind, m.data.get("san")) for m in published] == [
        ("move", "e3"),
        ("correction", "e4"),
        ("move", "e5"),
        ("move", "Qh5"),
        ("move", "Nc6"),
        ("move", "Bc4"),
        ("move", "Nf6"),
        ("move", "Qxf7#"),
        ("end", None),
    ]
    with Session(engine) as database:
        stored = read_events(database, game_id=game_id)
    assert [e.kind for e in stored] == [m.kind for m in published]
