"""The output desk over a real store: the copies it makes (published rounds only, board
order, the transmission delay as a cut in time), the runners it starts, and the LiveChess
feed's status line."""

from __future__ import annotations

import asyncio
import io
import time

import chess
import chess.pgn
import pytest
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.domain.game.events import MoveMade
from relay.hub.game_views import GameViews
from relay.hub.outputs.desk import OutputDesk
from relay.hub.outputs.round_copy import RoundCopy
from relay.hub.recorder import GameRecorder
from relay.store.tournaments import get_round
from tests.pairings import paired_round

pytestmark = pytest.mark.anyio


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def play_e4(recorder: GameRecorder, round_id: int, game_id: int) -> None:
    board = chess.Board()
    move = chess.Move.from_uci("e2e4")
    san = board.san(move)
    board.push(move)
    event = MoveMade(1, "e2e4", san, board.fen(), time.time())
    await recorder.record(round_id=round_id, game_id=game_id, events=[event])


def moves_of(pgn: str) -> list[str]:
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    return [move.uci() for move in game.mainline_moves()]


async def test_copies_are_the_published_rounds_in_board_order_after_the_delay(engine):
    with Session(engine) as session:
        round_id, games = paired_round(session, games=3, delay=600)
        paired_round(session, games=1, name="Test Open", number=2, published=False)
        tournament_id = get_round(session, round_id=round_id).tournament_id
    bus = MemoryBus()
    recorder, views, clock = GameRecorder(engine, bus), GameViews(engine, bus), Clock()
    desk = OutputDesk(engine, views, clock=clock)
    await play_e4(recorder, round_id, games[1])

    (copy,) = await desk.copies(tournament_id)
    assert (copy.round_id, copy.number, copy.tournament) == (round_id, 1, "Test Open")
    assert copy.cut == pytest.approx(clock.now - 600)
    assert [game.board for game in copy.games] == [1, 2, 3]
    assert [game.game_id for game in copy.games] == games
    # Within the delay the public has not seen the move: neither does an output.
    assert moves_of(copy.games[1].pgn) == []
    clock.now += 601
    (later,) = await desk.copies(tournament_id)
    assert moves_of(later.games[1].pgn) == ["e2e4"]
    # The round's PGN is its games, one after another, in board order.
    read = io.StringIO(later.pgn)
    whites = []
    while (game := chess.pgn.read_game(read)) is not None:
        whites.append(game.headers["White"])
    assert whites == ["White1, Player", "White2, Player", "White3, Player"]
    views.close()


class Taker:
    kind = "test"
    target = "memory"

    def __init__(self) -> None:
        self.taken: list[RoundCopy] = []
        self.got = asyncio.Event()

    def wants(self, copy: RoundCopy) -> bool:
        return True

    async def deliver(self, copy: RoundCopy) -> str:
        self.taken.append(copy)
        self.got.set()
        return "kept"


async def test_a_started_output_is_fed_until_the_desk_closes(engine):
    with Session(engine) as session:
        round_id, games = paired_round(session, games=1)
        tournament_id = get_round(session, round_id=round_id).tournament_id
    bus = MemoryBus()
    recorder, views = GameRecorder(engine, bus), GameViews(engine, bus)
    desk = OutputDesk(engine, views, interval=0.01)
    taker = Taker()
    desk.start(tournament_id, [taker])
    await asyncio.wait_for(taker.got.wait(), 10)
    taker.got.clear()
    await play_e4(recorder, round_id, games[0])
    await asyncio.wait_for(taker.got.wait(), 10)
    assert moves_of(taker.taken[-1].pgn) == ["e2e4"]
    (status,) = desk.statuses()
    assert (status.kind, status.state, status.line) == ("test", "ok", "round 1: kept")
    await desk.close()
    count = len(taker.taken)
    await play_e4(recorder, round_id, games[0])
    await asyncio.sleep(0.05)
    assert len(taker.taken) == count
    views.close()


async def test_the_livechess_feed_is_served_only_when_asked_and_counted(engine):
    clock = Clock()
    desk = OutputDesk(engine, GameViews(engine, MemoryBus()), clock=clock)
    assert not desk.serves_livechess(7)
    assert desk.statuses() == []
    desk.enable_livechess(7)
    assert desk.serves_livechess(7)
    (waiting,) = desk.statuses()
    assert (waiting.kind, waiting.state, waiting.line) == ("livechess", "waiting", None)
    desk.note_served(7)
    desk.note_served(7)
    desk.note_served(8)  # not served: not counted
    (served,) = desk.statuses()
    assert (served.state, served.line, served.delivered) == ("ok", "served 2 requests", 2)
    assert served.target == "/livechess/7/tournament.json"
    assert served.last_ok_at == clock.now
