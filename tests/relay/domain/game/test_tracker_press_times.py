"""Which time a move carries: its mover's, as the clock showed it at their own press.

The cases of docs/laws.md ("Which time a move carries"), each played on a table in fake
time, the game's log then folded as every output folds it and written as PGN: a press
before the board shows the move's last square, a press 1.5 s after the move was decided,
a press forgotten and then made, a press forgotten until the opponent had replied, a press
lost on the wire, a move with no clock at all.
"""

from __future__ import annotations

from dataclasses import replace

import chess
import pytest

from bench.accuracy_report import real_games
from relay.domain.clock.time_control import TimeControl
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.formats.pgn import GameHeaders, PgnMove, PlayerTags, render_game
from relay.domain.game.events import (
    ClocksStarted,
    GameEvent,
    MoveClocked,
    MoveMade,
    is_logged,
)
from relay.domain.game.record import GameRecord
from tests.relay.domain.game.scene import SETTLING, Scene

W, B = chess.WHITE, chess.BLACK
START = 100.0
LATER = SETTLING.settle_seconds * 3  # the board long since still: the move is decided


def started(scene: Scene) -> Scene:
    """Black has started White's clock, both at 5:00."""
    scene.press(B)
    return scene


def fold(
    events: list[GameEvent], control: TimeControl | None = None, seconds: float = 300
) -> GameRecord:
    """The log as the outputs fold it, after the clocks' central start at ``START``."""
    logged: list[GameEvent] = [ClocksStarted(white=seconds, black=seconds, by="arbiter", at=START)]
    logged += [event for event in events if is_logged(event)]
    return GameRecord.from_events(logged, control)


def pgn(record: GameRecord) -> str:
    """The game as the round PGN writes it (``%clk`` and ``%emt`` from the game's clock)."""
    headers = GameHeaders("Test", "Hall", "2026.12.03", 1, 1, PlayerTags("W"), PlayerTags("B"))
    moves = [
        PgnMove(move.san, timing.clock, spent=timing.spent)
        for move, timing in zip(record.moves, record.clock.timings, strict=True)
    ]
    return render_game(headers, moves)


def test_a_press_before_the_board_shows_the_last_square_gives_the_move_its_time():
    scene = started(Scene())
    scene.lift("e2")
    scene.times = [296, 300]
    scene.press(W, then=0.05)  # the pawn still in the hand
    scene.put("e4", "P")
    scene.wait(LATER)
    (e4,) = scene.of(MoveMade)
    assert (e4.san, e4.confirmed, e4.clock, e4.unclocked) == ("e4", True, 296, False)
    assert scene.of(MoveClocked) == []
    assert "e4 { [%clk 0:04:56]" in pgn(fold(scene.events))


def test_a_press_after_the_decision_amends_the_move_published_without_a_time():
    scene = started(Scene())
    scene.move("e2", "e4")
    scene.times = [298, 300]  # the clock as the move is decided: not the mover's press
    scene.wait(LATER)
    (e4,) = scene.of(MoveMade)
    assert (e4.clock, e4.unclocked) == (None, True)  # published at once, no time yet
    decided = scene.now
    scene.wait(1.5)  # the player looks, then presses
    scene.times = [296, 300]
    pressed = scene.now
    scene.press(W)
    assert scene.of(MoveClocked) == [MoveClocked(ply=1, clock=296, at=pressed)]
    record = fold(scene.events)
    assert record.moves[0].clock == 296
    (timing,) = record.clock.timings
    # The move ended on the clock at the press: %emt runs from the start to the press.
    assert timing.clock == 296
    assert timing.spent == pytest.approx(pressed - START)
    assert pressed - START > decided - START
    text = pgn(record)
    assert "e4 { [%clk 0:04:56]" in text
    assert f"[%emt 0:00:{int(pressed - START):02d}]" in text


def test_a_forgotten_press_made_before_the_opponent_touches_a_man_still_counts():
    scene = started(Scene())
    scene.move("e2", "e4")
    for second in range(6):  # forgotten, noticed six seconds later, the board untouched
        scene.times = [295 - second, 300]
        scene.clock()  # the running clock reports every second
        scene.wait(1.0)
    scene.times = [289, 300]
    scene.press(W)
    assert [(c.ply, c.clock) for c in scene.of(MoveClocked)] == [(1, 289)]


def test_the_first_press_after_the_clocks_readings_went_missing_ends_no_move():
    """Silence from a running clock: the lever may have gone to and fro unseen, so the press
    seen next is not known to be the last mover's for the move decided."""
    scene = started(Scene())
    scene.move("e2", "e4", then=LATER)
    scene.wait(5.0)  # no reading for five seconds
    scene.times = [280, 300]
    scene.press(W)
    assert scene.of(MoveClocked) == []
    assert fold(scene.events).clock.timings[0].clock is None


def test_a_press_forgotten_until_the_opponent_replied_ends_neither_move():
    scene = started(Scene())
    scene.move("e2", "e4")
    scene.wait(LATER)
    scene.move("e7", "e5", then=LATER)  # Black replies on White's time, no press possible
    scene.times = [280, 300]
    scene.press(W)  # White notices: after the next move, it is nobody's press
    scene.wait(LATER)
    scene.times = [280, 297]
    scene.press(B)  # Black's press, the second since e5: it may end a move not shown yet
    scene.move("g1", "f3", then=LATER)
    scene.times = [277, 297]
    scene.press(W)
    assert scene.sans() == ["e4", "e5", "Nf3"]
    assert [(c.ply, c.clock) for c in scene.of(MoveClocked)] == [(3, 277)]
    record = fold(scene.events)
    assert [t.clock for t in record.clock.timings] == [None, None, 277]
    first, second = pgn(record).split("2. Nf3")
    assert "%clk" not in first  # no time for either
    assert second.split()[:3] == ["{", "[%clk", "0:04:37]"]


def test_presses_lost_on_the_wire_leave_their_moves_without_a_time():
    scene = started(Scene())
    scene.move("e2", "e4", then=LATER)
    scene.lever = B  # White's press, its reading lost on the wire
    scene.move("e7", "e5", then=LATER)
    scene.lever = W  # Black's too: the next reading shows the lever where it was
    scene.times = [290, 295]
    scene.clock()
    scene.move("g1", "f3", then=LATER)
    scene.times = [288, 295]
    scene.press(W)
    assert scene.sans() == ["e4", "e5", "Nf3"]
    record = fold(scene.events)
    assert [t.clock for t in record.clock.timings] == [None, None, 288]


def test_a_board_without_a_clock_gives_no_time_and_the_hubs_count_stays_its_own():
    scene = Scene()
    scene.move("e2", "e4", then=LATER)
    (e4,) = scene.of(MoveMade)
    assert (e4.clock, e4.unclocked) == (None, False)  # no clock read: nothing awaited
    # A hub that keeps the time itself (no e-clock) gives its own count: the clock the
    # players see; a move on an e-clock without its press never gets that count.
    control = parse_time_control("5+0")
    assert fold(scene.events, control).clock.timings[0].clock == pytest.approx(
        300 - (e4.at - START)
    )
    unclocked = [replace(e4, unclocked=True) if e is e4 else e for e in scene.events]
    assert fold(unclocked, control).clock.timings[0].clock is None


def test_the_time_added_after_move_40_is_in_the_reading_and_the_hubs_count_agrees():
    """90 min for 40 moves, 30 min more, 30 s a move: the clock adds the 30 minutes and the
    increment at White's 40th press, and its reading there is move 40's time; the hub's
    own count of the same control comes to the same time (no drift)."""
    game = next(game for game in real_games() if len(game.moves) >= 80)
    board = chess.Board()
    events: list[GameEvent] = []
    left = {W: 5400.0, B: 5400.0}
    at = START
    for ply, move in enumerate(game.moves[:80], start=1):
        san = board.san(move)
        mover = board.turn
        board.push(move)
        at += 5
        number = (ply + 1) // 2
        left[mover] += -5 + 30 + (1800 if number == 40 else 0)
        events.append(MoveMade(ply, move.uci(), san, board.fen(), at, clock=left[mover]))
    record = fold(events, parse_time_control("40/5400+30:1800+30"), seconds=5400)
    timings = record.clock.timings
    assert len(timings) == 80
    clocks = [timing.clock or 0.0 for timing in timings]
    assert clocks[78] == clocks[76] - 5 + 30 + 1800  # White's 40th move
    assert clocks[76] == clocks[74] - 5 + 30  # the 39th: the increment only
    assert [t.period for t in (timings[78], timings[80 - 1])] == [0, 0]
    assert all(t.drift == pytest.approx(0) for t in timings)
