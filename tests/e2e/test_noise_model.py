"""Any legal game, played by untidy hands with any seed, is reconstructed exactly.

The whole chain without a single mock and without waiting: boardsim's noise model plays the
game on a virtual board with a DGT 3000 clock and real sensor sweeps; the board's bytes go
to the real DGT driver core (sans I/O), whose events go to the tracker, all on one fake
clock. The pty and event-loop path is covered by ``bench/accuracy.py`` and
``test_accuracy.py``; this test lets hypothesis search seeds and games.
"""

from __future__ import annotations

import random

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.clock import Dgt3000, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import apply_step, perform_game
from boardsim.scanner import ScanTiming
from drivers.dgt.protocol import DgtBoardProtocol
from drivers.events import ClockReading, FieldChange, PositionSnapshot
from relay.domain.game.events import ArbiterAlert, GameEvent, IllegalMoveCompleted
from relay.domain.game.placement import read_squares
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import PositionTracker
from relay.hub.board_feed import clock_view
from tests.strategies import legal_games

PACE = Pace(ply_seconds=1.5, touch_seconds=0.12, jitter=0.5)
SCAN = ScanTiming(0.2, 0.25)
SETTLING = Settling(settle_seconds=0.25, link_seconds=0.25)


class FakeTimeTable:
    """A board, its driver and a tracker sharing one fake clock."""

    def __init__(self, seed: int) -> None:
        clock = Dgt3000(TimeControl.parse("90+30"), rng=random.Random(seed))
        self.board = VirtualBoard(clock=clock, timing=BoardTiming.realistic(scan=SCAN))
        self.driver = DgtBoardProtocol()
        self.tracker = PositionTracker(settling=SETTLING)
        self.events: list[GameEvent] = []
        self.now = 0.0
        self.driver.start(self.now)
        self._exchange()

    def run_until(self, until: float) -> None:
        while True:
            due = [
                t
                for t in (
                    self.board.next_deadline(),
                    self.driver.deadline,
                    self.tracker.deadline,
                )
                if t is not None and t <= until
            ]
            if not due:
                break
            self.now = max(self.now, min(due))
            self.board.advance(self.now)
            self.driver.advance(self.now)
            self._exchange()
            self.events += self.tracker.settle(self.now, self.now)
        self.now = until
        self.board.advance(until)
        self._exchange()

    def _exchange(self) -> None:
        while True:
            to_board = self.driver.data_to_send()
            self.board.receive_data(to_board, self.now)
            to_host = self.board.data_to_send()
            self.driver.receive_data(to_host, self.now)
            for event in self.driver.events_received():
                self._feed(event)
            if not to_board and not to_host:
                return

    def _feed(self, event: object) -> None:
        tracker, now = self.tracker, self.now
        if isinstance(event, PositionSnapshot | FieldChange):
            placement, markers = read_squares(event.position)
            self.events += tracker.observe(placement, now, now, markers)
        elif isinstance(event, ClockReading):
            self.events += tracker.clock(clock_view(event, white_on="left"), now, now)


def play(moves: list[chess.Move], seed: int, noise: NoiseModel, result: str) -> FakeTimeTable:
    table = FakeTimeTable(seed)
    steps = perform_game(
        moves,
        pace=PACE,
        rng=random.Random(seed),
        noise=noise,
        initial=table.board.squares,
        result=result,
    )
    for step in steps:
        table.run_until(table.now + step.delay)
        apply_step(table.board, step, table.now)
        table._exchange()
    table.run_until(table.now + 10.0)
    return table


@settings(max_examples=40, deadline=None)
@given(
    game=legal_games(80),
    seed=st.integers(min_value=0, max_value=2**32),
    noise=st.sampled_from(["clean", "human", "messy"]),
    result=st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
)
def test_any_game_with_any_noise_seed_is_reconstructed_exactly(game, seed, noise, result):
    table = play(game, seed, NoiseModel.preset(noise), result)
    assert table.tracker.board.move_stack == game
    alerts = [e.alert for e in table.events if isinstance(e, ArbiterAlert)]
    assert "illegal-position" not in alerts
    assert not [e for e in table.events if isinstance(e, IllegalMoveCompleted)]
