"""The board feed: driver events by side of the clock, to tracker inputs by colour."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import anyio
import chess
import pytest

from drivers.events import ClockReading, ClockSide, Lever, PositionSnapshot
from relay.domain.clock.orientation import ClockSide as ClockSetting
from relay.domain.game.events import (
    ClockSideDecided,
    FlagFell,
    GameEvent,
    MoveClocked,
    MoveMade,
    ResultProposed,
    is_logged,
)
from relay.domain.game.record import GameRecord
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.domain.results import Result
from relay.hub.board_feed import BoardFeed, clock_view


def reading(
    left: int,
    right: int,
    lever: Lever,
    *,
    left_flag: bool = False,
    right_flag: bool = False,
    running: bool = True,
) -> ClockReading:
    return ClockReading(
        left=ClockSide(left, flag_fallen=left_flag),
        right=ClockSide(right, flag_fallen=right_flag),
        running=running,
        left_to_move=lever == Lever.LEFT_UP,
        right_to_move=lever == Lever.RIGHT_UP,
        lever=lever,
        battery_low=False,
    )


@pytest.mark.parametrize(
    ("white_on", "lever", "white", "black", "to_move"),
    [
        ("left", Lever.LEFT_UP, 100, 200, chess.WHITE),
        ("left", Lever.RIGHT_UP, 100, 200, chess.BLACK),
        ("right", Lever.LEFT_UP, 200, 100, chess.BLACK),
        ("right", Lever.RIGHT_UP, 200, 100, chess.WHITE),
    ],
)
def test_clock_sides_become_colours(white_on, lever, white, black, to_move):
    view = clock_view(reading(100, 200, lever, left_flag=True), white_on=white_on)
    assert (view.white_seconds, view.black_seconds, view.to_move) == (white, black, to_move)
    assert view.flag(chess.WHITE) == (white_on == "left")


def squares(board: chess.BaseBoard, markers: dict[chess.Square, str] | None = None):
    shown = [None if (p := board.piece_at(s)) is None else p.symbol() for s in chess.SQUARES]
    for square, symbol in (markers or {}).items():
        shown[square] = symbol
    return tuple(shown)


@pytest.mark.anyio
async def test_feed_settles_on_its_own_timer_and_reads_markers():
    got: list[GameEvent] = []
    arrived = asyncio.Event()

    def on_events(events):
        got.extend(events)
        arrived.set()

    settling = Settling(settle_seconds=0.01, recover_seconds=0.02, alert_seconds=0.05)
    feed = BoardFeed(PositionTracker(settling=settling), on_events)
    board = chess.Board()
    feed.handle(PositionSnapshot(squares(board)))
    board.push_san("e4")
    feed.handle(PositionSnapshot(squares(board)))
    with anyio.fail_after(5):
        while not got:
            arrived.clear()
            await arrived.wait()
    assert [e.san for e in got if isinstance(e, MoveMade)] == ["e4"]
    feed.handle(PositionSnapshot(squares(board, {chess.D4: "0"})))  # black-wins marker
    with anyio.fail_after(5):
        while len(got) < 2:
            arrived.clear()
            await arrived.wait()
    assert got[-1] == ResultProposed(result=Result.BLACK_WINS, gesture="marker", at=got[-1].at)
    feed.close()


# Which side of the clock is White's

FAST = Settling(settle_seconds=0.01, recover_seconds=0.02, alert_seconds=0.05)
LEFT_UP, RIGHT_UP = Lever.LEFT_UP, Lever.RIGHT_UP


class Got:
    """The events a feed hands on, and a way to wait for them."""

    def __init__(self) -> None:
        self.events: list[GameEvent] = []
        self.changed = asyncio.Event()

    def __call__(self, events: Sequence[GameEvent]) -> None:
        self.events += events
        self.changed.set()

    async def until(self, done: Callable[[], bool]) -> None:
        with anyio.fail_after(5):
            while not done():
                self.changed.clear()
                await self.changed.wait()

    def moves(self) -> list[MoveMade]:
        return [event for event in self.events if isinstance(event, MoveMade)]

    def clocked(self) -> list[MoveClocked]:
        return [event for event in self.events if isinstance(event, MoveClocked)]

    def sides(self) -> list[ClockSideDecided]:
        return [event for event in self.events if isinstance(event, ClockSideDecided)]

    async def move(self, ply: int) -> MoveMade:
        await self.until(lambda: len(self.moves()) >= ply)
        return self.moves()[ply - 1]

    def record(self) -> GameRecord:
        return GameRecord.from_events(event for event in self.events if is_logged(event))


class Table:
    """A board and its feed: moves shown on the board, clock readings pushed."""

    def __init__(self, clock_side: ClockSetting = "auto") -> None:
        self.got = Got()
        self.feed = BoardFeed(PositionTracker(settling=FAST), self.got, clock_side=clock_side)
        self.board = chess.Board()
        self.feed.handle(PositionSnapshot(squares(self.board)))

    def play(self, san: str) -> None:
        self.board.push_san(san)
        self.feed.handle(PositionSnapshot(squares(self.board)))

    def clock(self, left: int, right: int, lever: Lever, **flags: bool) -> None:
        self.feed.handle(reading(left, right, lever, **flags))


@pytest.mark.anyio
async def test_white_on_the_right_pressing_first_decides_before_the_move():
    # The hub's central start ran the left side, Black's (nothing had told it otherwise);
    # White moves anyway and presses the right side, whose lever stood up.
    table = Table()
    table.feed.hub_ran("left")
    table.clock(5398, 5400, RIGHT_UP)
    table.play("e4")
    table.clock(5396, 5400, LEFT_UP)
    e4 = await table.got.move(1)
    (decided,) = table.got.sides()
    assert table.got.events.index(decided) < table.got.events.index(e4)
    assert (decided.white_on, decided.source, decided.clocks) == ("right", "auto", ())
    assert decided.reason == "White pressed the right side after move 1"
    # The press was White's, so it decided the move, with White's own time.
    assert (e4.confirmed, e4.clock) == (True, 5400)
    table.play("c5")
    table.clock(5422, 5400, RIGHT_UP)  # Black presses the left side: 5392 + 30
    c5 = await table.got.move(2)
    assert (c5.confirmed, c5.clock) == (True, 5422)
    assert len(table.got.sides()) == 1
    assert [t.clock for t in table.got.record().clock.timings] == [5400, 5422]


@pytest.mark.anyio
async def test_white_on_the_right_pressing_after_the_move_is_decided_gets_its_clock_then():
    table = Table()
    table.feed.hub_ran("left")
    table.clock(5398, 5400, RIGHT_UP)
    table.play("e4")
    e4 = await table.got.move(1)  # settled before any press: no time yet
    assert (e4.confirmed, e4.clock, e4.unclocked) == (False, None, True)
    await table.got.until(lambda: bool(table.got.sides()))
    (ran,) = table.got.sides()  # the move came while the left side ran: White's, it seems
    assert (ran.white_on, ran.clocks) == ("left", ())
    assert ran.reason == "White's move 1 was made while the left side ran"
    table.clock(5396, 5400, LEFT_UP)  # now White presses the right side
    await table.got.until(lambda: bool(table.got.clocked()))
    decided = table.got.sides()[1]
    (clocked,) = table.got.clocked()
    # The press turns the sides and gives move 1 White's time at it, on the right.
    assert (decided.white_on, decided.clocks) == ("right", ())
    assert (clocked.ply, clocked.clock) == (1, 5400)
    assert table.got.events.index(decided) < table.got.events.index(clocked)
    assert table.got.record().clock.timings[0].clock == 5400
    table.play("c5")
    table.clock(5420, 5400, RIGHT_UP)
    c5 = await table.got.move(2)
    assert (c5.confirmed, c5.clock) == (True, 5420)  # Black's press, Black's time


@pytest.mark.anyio
async def test_black_starting_whites_clock_on_the_right_puts_white_on_the_left():
    table = Table()
    table.clock(5400, 5400, RIGHT_UP, running=False)
    table.clock(5400, 5400, LEFT_UP)  # Black presses the right side: White's time runs
    await table.got.until(lambda: bool(table.got.sides()))
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.source, decided.clocks) == ("left", "auto", ())
    assert decided.reason == (
        "Black pressed the right side before the first move, starting White's clock"
    )
    table.play("d4")
    table.clock(5426, 5400, RIGHT_UP)
    d4 = await table.got.move(1)
    assert (d4.confirmed, d4.clock) == (True, 5426)
    assert len(table.got.sides()) == 1


@pytest.mark.anyio
async def test_a_fixed_setting_is_recorded_read_and_never_revised():
    table = Table(clock_side="white-right")
    table.feed.begin()
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.source) == ("right", "setting")
    table.clock(5400, 5390, LEFT_UP)
    table.play("e4")
    table.clock(5380, 5390, RIGHT_UP)  # a press that says White sits on the left
    e4 = await table.got.move(1)
    # By the setting, the left side is Black's: White never pressed, and e4 has no time
    # (not the right side's, whatever it showed).
    assert (e4.clock, e4.unclocked) == (None, True)
    assert table.got.record().clock.timings[0].clock is None
    assert table.got.sides() == [decided]
    assert table.feed.orientation.against == 1
    table.clock(5380, 0, RIGHT_UP, right_flag=True)
    await table.got.until(lambda: any(isinstance(e, FlagFell) for e in table.got.events))
    (flag,) = [e for e in table.got.events if isinstance(e, FlagFell)]
    assert flag.player == "white"


@pytest.mark.anyio
async def test_two_presses_against_a_misread_start_revise_it_and_read_the_moves_again():
    # White sits on the right and presses before the board reports 1. e4: the press looks
    # like Black starting White's clock, so White is taken to sit on the left.
    table = Table()
    table.clock(5400, 5400, RIGHT_UP, running=False)
    table.clock(5400, 5400, LEFT_UP)
    await table.got.until(lambda: bool(table.got.sides()))
    assert table.got.sides()[0].white_on == "left"
    table.play("e4")
    e4 = await table.got.move(1)
    assert e4.clock is None  # White's press came before the move, read as Black's
    table.play("c5")
    table.clock(5421, 5400, RIGHT_UP)  # Black presses the left side: one press against
    c5 = await table.got.move(2)
    # Read the wrong way round, Black's press looks like White's, made once Black's hand
    # was at work: it ends neither move.
    assert (c5.clock, table.got.clocked()) == (None, [])
    assert len(table.got.sides()) == 1
    table.play("Nf3")
    table.clock(5421, 5425, LEFT_UP)  # White presses the right side: two in a row
    nf3 = await table.got.move(3)
    _, revised = table.got.sides()
    assert (revised.white_on, revised.source) == ("right", "auto")
    assert revised.clocks == ()  # no time was read from the wrong side
    assert revised.reason == "White pressed the right side after move 2"
    assert table.got.events.index(revised) < table.got.events.index(nf3)
    assert (nf3.confirmed, nf3.clock) == (True, 5425)
    timings = table.got.record().clock.timings
    # Moves whose presses were read the wrong way round have no time, never another's.
    assert [t.clock for t in timings] == [None, None, 5425]


@pytest.mark.anyio
async def test_a_move_made_while_the_side_the_hub_started_ran_decides_until_a_press_tells():
    table = Table()
    table.clock(5400, 5400, RIGHT_UP, running=False)
    table.feed.hub_ran("left")  # the central start ran the left side
    table.clock(5398, 5400, RIGHT_UP)
    table.play("e4")
    await table.got.move(1)
    await table.got.until(lambda: bool(table.got.sides()))
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.reason) == (
        "left",
        "White's move 1 was made while the left side ran",
    )


@pytest.mark.anyio
async def test_the_operators_setting_turns_the_sides_and_the_next_press_is_read_by_it():
    table = Table()
    table.feed.hub_set()  # the clock as the hub set it: its running side is no evidence
    table.clock(5400, 5395, RIGHT_UP)
    table.play("e4")
    e4 = await table.got.move(1)
    assert e4.clock is None
    table.feed.set_clock_side("white-right")
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.source, decided.clocks) == ("right", "setting", ())
    table.clock(5400, 5425, LEFT_UP)  # White confirms on the right: e4's press
    await table.got.until(lambda: bool(table.got.clocked()))
    assert table.got.clocked()[0] == MoveClocked(ply=1, clock=5425, at=table.got.events[-1].at)
    table.play("e5")
    table.clock(5385, 5425, RIGHT_UP)  # Black presses the left side
    e5 = await table.got.move(2)
    # Black's time, the left side's by the new setting, whether the press or a settle
    # window (10 ms here, which a busy host may overrun between the two inputs) decided e5.
    assert e5.clock == 5385
    assert table.got.sides() == [decided]


@pytest.mark.anyio
async def test_after_the_operators_setting_the_times_are_read_the_new_way_at_once():
    table = Table()
    table.feed.hub_set()
    table.clock(5400, 5395, RIGHT_UP)
    table.play("e4")
    await table.got.move(1)
    table.feed.set_clock_side("white-right")
    table.play("e5")  # decided with no press: no time, not the left side's last reading
    e5 = await table.got.move(2)
    assert (e5.confirmed, e5.clock, e5.unclocked) == (False, None, True)
    # White forgot to press after e4 and Black replied all the same: White's press now
    # comes after the next move and ends neither; Black's after it is not the first press
    # since e5 (it might end a move the board has not shown yet). Neither move gets a time.
    table.clock(5400, 5395, LEFT_UP)
    table.clock(5390, 5395, RIGHT_UP)
    await table.got.until(lambda: table.feed.tracker.last_move_pressed)
    assert table.got.clocked() == []
    assert [t.clock for t in table.got.record().clock.timings] == [None, None]


@pytest.mark.anyio
async def test_a_clock_started_by_hand_before_the_first_move_runs_whites_side():
    table = Table()
    table.clock(5400, 5400, RIGHT_UP, running=False)
    table.clock(5400, 5399, RIGHT_UP)  # started, the right lever up: started for White
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.source) == ("right", "auto")
    assert (
        decided.reason == "the clock was started with the right side running before the first move"
    )
    table.play("e4")
    table.clock(5380, 5428, LEFT_UP)  # White presses the right side: the same story
    e4 = await table.got.move(1)
    assert (e4.confirmed, e4.clock) == (True, 5428)
    assert len(table.got.sides()) == 1


@pytest.mark.anyio
async def test_a_clock_started_while_a_man_is_lifted_or_whites_move_stands_unpressed():
    # Black starts White's clock on the right while White adjusts a knight (the board
    # shows the start less that knight), or once White's first move is on the board but
    # not yet pressed: either way nobody has pressed for a move, so the side that runs is
    # White's.
    adjusting = Table()
    adjusting.feed.handle(
        PositionSnapshot(squares(chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR")))
    )
    moved = Table()
    moved.play("d4")
    for table in (adjusting, moved):
        table.clock(60, 60, RIGHT_UP, running=False)
        table.clock(60, 60, RIGHT_UP)
        (decided,) = table.got.sides()
        assert decided.white_on == "right"


@pytest.mark.anyio
async def test_a_running_clock_says_nothing_once_the_hub_set_it_or_the_game_began():
    hub = Table()
    hub.feed.hub_set()
    hub.clock(5400, 5400, RIGHT_UP, running=False)
    hub.clock(5400, 5399, RIGHT_UP)
    later = Table()
    later.play("e4")
    await later.got.move(1)
    later.clock(5400, 5400, RIGHT_UP, running=False)
    later.clock(5400, 5399, RIGHT_UP)
    stopped = Table()
    stopped.clock(5400, 5400, RIGHT_UP, running=False)
    # Started while a knocked man lay on e3, then pressed: once the board shows e4, the
    # side up is the one the press set running, Black's, and it says nothing.
    pressed = Table()
    knocked = chess.Board()
    knocked.set_piece_at(chess.E3, chess.Piece(chess.KNIGHT, chess.WHITE))
    knocked.remove_piece_at(chess.G1)
    pressed.feed.handle(PositionSnapshot(squares(knocked)))
    pressed.clock(60, 60, LEFT_UP, running=False)
    pressed.clock(60, 60, LEFT_UP)
    pressed.clock(60, 60, RIGHT_UP)  # a press, the board showing nothing legal
    pressed.board = chess.Board()
    pressed.play("e4")
    for table in (hub, later, stopped, pressed):
        assert table.got.sides() == []
        assert not table.feed.orientation.decided


@pytest.mark.anyio
async def test_lightning_presses_before_the_boards_sweep_never_turn_the_sides():
    # White on the left, decided from White's first press. Then each player presses before
    # the board's next sweep shows their move, and the next press comes before the last
    # one was judged: the game is brought up to date before each press is read, and a press
    # on a board showing the game as decided, its last mover having pressed already, says
    # nothing about the sides (it is the next player's).
    table = Table()
    table.clock(60, 60, LEFT_UP, running=False)
    table.clock(60, 60, LEFT_UP)  # started by hand with the left side running
    table.play("e4")
    table.clock(59, 60, RIGHT_UP)
    table.play("e5")
    table.clock(59, 59, LEFT_UP)
    await table.got.move(2)
    for san, lever in (("Nf3", RIGHT_UP), ("Nc6", LEFT_UP), ("Bb5", RIGHT_UP), ("a6", LEFT_UP)):
        table.clock(58, 58, lever)
        table.play(san)
    table.clock(57, 58, RIGHT_UP)  # White's next press judges a6
    await table.got.move(6)
    assert [m.san for m in table.got.moves()] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert {side.white_on for side in table.got.sides()} == {"left"}


@pytest.mark.anyio
async def test_whites_first_press_before_the_board_shows_the_move_is_not_black_starting_the_clock():
    # White on the right: Black started White's clock by hand, the right side running. At
    # lightning pace White moves and presses before the board's next sweep shows e4: the
    # board still shows the start, but the clock was running, so this press is not Black
    # starting it and says nothing (read as Black's, it would put White on the left).
    table = Table()
    table.clock(60, 60, RIGHT_UP, running=False)
    table.clock(60, 60, RIGHT_UP)  # running, the right lever up: started for White
    table.clock(60, 59, LEFT_UP)  # White's press on the right, e4 not yet swept
    table.play("e4")
    table.play("c5")
    table.clock(59, 59, RIGHT_UP)  # Black's press on the left
    await table.got.move(2)
    assert {side.white_on for side in table.got.sides()} == {"right"}
    assert [m.san for m in table.got.moves()] == ["e4", "c5"]


@pytest.mark.anyio
async def test_a_record_behind_before_any_evidence_still_learns_the_sides():
    # White on the right. The clock's first reading comes after White's first press, the
    # board already showing e4 (a busy host at the start of a lightning round): nothing says
    # where White sits. Black's reply and press come before the record has e4: the board is
    # two plies on, and that press is the second mover's, Black's on the left.
    table = Table()
    table.play("e4")
    table.clock(60, 59, LEFT_UP)  # the first reading: White pressed the right side already
    assert table.got.sides() == []
    table.play("c5")
    table.clock(59, 59, RIGHT_UP)  # Black presses the left side
    (decided,) = table.got.sides()
    assert (decided.white_on, decided.reason) == (
        "right",
        "Black pressed the left side after move 1",
    )
    table.play("Nf3")
    table.clock(59, 58, LEFT_UP)  # White presses the right side
    await table.got.move(3)
    assert [m.san for m in table.got.moves()] == ["e4", "c5", "Nf3"]
    assert {side.white_on for side in table.got.sides()} == {"right"}
