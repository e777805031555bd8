"""A hub resuming a game and starved just then: the board's bytes in, the game's decisions
out, in fake time.

This is what ``tests/e2e/test_kill_restart.py`` met on a loaded machine: the restarted hub
replays a board's log, then does not read the board for a second while it replays the
others; meanwhile the players make three plies and press for each, and the hub reads all of
it at once. A real board answers in milliseconds, so the log, the dump and the clock's
reading describe one moment; only the host is late.
"""

from __future__ import annotations

import random

import chess

from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.hands import touches_for_move
from drivers.dgt.protocol import DgtBoardProtocol, DgtOptions
from drivers.events import ClockReading, FieldChange, LogReplay, PositionSnapshot
from relay.domain.game.events import ArbiterAlert, GameEvent, IllegalMoveCompleted, MoveMade
from relay.domain.game.placement import read_squares
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import clock_view

#: The Ruy Lopez: four plies stored before the hub went down, four made while it was down,
#: three while the restarted hub is starved, one more at play's pace.
SANS = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5"]
STORED, BEFORE_RESTART, READ_LATE = 4, 8, 11


class Table:
    """A board with its clock (White on the left), played on in fake time."""

    def __init__(self) -> None:
        self.board = VirtualBoard(clock=Dgt3000(TimeControl(300, 0)))
        self.game = chess.Board()
        self.now = 0.0
        self.board.press_lever(Side.RIGHT, self.now)  # Black starts White's clock

    def play(self, san: str) -> None:
        """Think 0.2 s, then the move's touches 0.05 s apart, then the press."""
        move = self.game.parse_san(san)
        for touch in touches_for_move(self.game, move, random.Random(0)):
            self.now += 0.05
            self.board.set_square(touch.dgt_index, touch.dgt_code, self.now)
        side = Side.LEFT if self.game.turn == chess.WHITE else Side.RIGHT
        self.game.push(move)
        self.now += 0.05
        self.board.press_lever(side, self.now)
        self.now += 0.2


class Hub:
    """The driver and the tracker, as the hub joins them (the board feed's conversions)."""

    def __init__(self, stored: chess.Board) -> None:
        self.protocol = DgtBoardProtocol(DgtOptions(resume=True))
        self.tracker = PositionTracker(stored, settling=Settling.settling_in(0.06))
        self.events: list[GameEvent] = []

    def read(self, data: bytes, now: float) -> None:
        """Bytes read from the port at ``now``, and every event they bring, at ``now``."""
        self.protocol.receive_data(data, now)
        for event in self.protocol.events_received():
            if isinstance(event, PositionSnapshot | FieldChange):
                placement, markers = read_squares(event.position)
                self.events += self.tracker.observe(placement, now, now, markers)
            elif isinstance(event, LogReplay):
                placements = [read_squares(position)[0] for position in event.positions]
                self.events += self.tracker.replay(placements, now)
            elif isinstance(event, ClockReading):
                self.events += self.tracker.clock(clock_view(event, white_on="left"), now, now)

    def wait_until(self, now: float) -> None:
        self.events += self.tracker.settle(now, now)


def test_a_resumed_board_read_late_is_caught_up_move_by_move():
    table = Table()
    for san in SANS[:BEFORE_RESTART]:
        table.play(san)
    stored = chess.Board()
    for san in SANS[:STORED]:
        stored.push_san(san)
    hub = Hub(stored)

    # The restarted hub opens the port; the board answers at once and the hub reads it.
    hub.protocol.start(table.now)
    table.board.receive_data(hub.protocol.data_to_send(), table.now)
    hub.read(table.board.data_to_send(), table.now)
    assert [m.san for m in hub.events if isinstance(m, MoveMade)] == SANS[STORED:BEFORE_RESTART]

    # Starved: the board's reports of three plies wait in the port, then come in one read.
    waiting = b""
    for san in SANS[BEFORE_RESTART:READ_LATE]:
        table.play(san)
        waiting += table.board.data_to_send()
    hub.read(waiting, table.now)

    # The next ply is read as it comes.
    table.play(SANS[READ_LATE])
    hub.read(table.board.data_to_send(), table.now)
    hub.wait_until(table.now + 1.0)

    assert [m.san for m in hub.events if isinstance(m, MoveMade)] == SANS[STORED:]
    assert [a for a in hub.events if isinstance(a, ArbiterAlert | IllegalMoveCompleted)] == []
