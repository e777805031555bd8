"""A host that reads the board late: the end of a game read in one batch, timers late.

A busy host reads the pseudo-terminal seconds late: the last ply's field changes, the
mover's press, the clock's stop and the next game's reset all come in one batch, stamped
with one arrival time, and the settle timer fires long after its deadline. The tracker must
still decide the last ply, pressed, and never take the stop or the reset for a move.
The batches are those of a real-time blitz run (``bench.accuracy``) stalled on purpose:
Kramnik - Anand, 11... Bf5 with White's time on the left.
"""

from __future__ import annotations

import chess

from relay.domain.game.events import GameEvent, MoveMade
from relay.domain.game.placement import Placement
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import ClockView, PositionTracker

#: The hall's windows, as the benches use them: settle and press windows of 0.5 s.
SETTLING = Settling(settle_seconds=0.25, link_seconds=0.25)
SANS = ["d4", "d5", "c4", "c6", "Nc3", "Nf6", "cxd5", "cxd5", "Bf4", "Nc6", "e3"]
BISHOP_LIFTED = "r2qkb1r/pp2pppp/2n2n2/3p4/3P1B2/2N1P3/PP3PPP/R2QKBNR"
BF5 = "r2qkb1r/pp2pppp/2n2n2/3p1b2/3P1B2/2N1P3/PP3PPP/R2QKBNR"

Input = str | ClockView


def view(to_move: chess.Color, *, running: bool = True, seconds: int = 170) -> ClockView:
    return ClockView(
        white_seconds=seconds,
        black_seconds=seconds,
        white_flag=False,
        black_flag=False,
        running=running,
        to_move=to_move,
    )


#: Black's press, the clock stopped at the end, the next game's reset (lever on Black's side).
PRESS = view(chess.WHITE)
STOP = view(chess.WHITE, running=False)
RESET = view(chess.BLACK, running=False, seconds=180)


class LateHost:
    """The game after 11. e3, Black's clock running; inputs delivered in batches."""

    def __init__(self) -> None:
        game = chess.Board()
        for san in SANS:
            game.push_san(san)
        self.tracker = PositionTracker(game, settling=SETTLING)
        self.events: list[GameEvent] = []
        self.now = 100.0
        self.batch(self.now, game.board_fen(), view(chess.BLACK))

    def batch(self, now: float, *inputs: Input) -> None:
        """Everything in ``inputs``, in order, all read at ``now``."""
        self.now = now
        for item in inputs:
            if isinstance(item, ClockView):
                self.events += self.tracker.clock(item, now, now)
            else:
                placement = Placement.of_board(chess.BaseBoard(item))
                self.events += self.tracker.observe(placement, now, now)

    def timer(self, now: float) -> None:
        """The settle timer, fired at ``now`` however late."""
        self.now = now
        self.events += self.tracker.settle(now, now)

    def moves(self) -> list[tuple[str, bool]]:
        return [(e.san, e.confirmed) for e in self.events if isinstance(e, MoveMade)]


def test_the_last_ply_its_press_and_the_stop_in_one_batch_are_decided_pressed():
    host = LateHost()
    host.batch(105.0, BISHOP_LIFTED, BF5, PRESS, STOP)
    assert host.tracker.deadline == 105.0 + SETTLING.press_window()
    host.timer(107.0)
    assert host.moves() == [("Bf5", True)]
    assert host.tracker.deadline is None


def test_the_next_games_reset_in_the_same_batch_decides_the_last_ply_first():
    """The reset moves the lever back: a press of White's side, judged after Black's."""
    host = LateHost()
    host.batch(105.0, BISHOP_LIFTED, BF5, PRESS, STOP, RESET)
    host.timer(107.0)
    assert host.moves() == [("Bf5", True)]
    assert host.tracker.ply == len(SANS) + 1


def test_a_press_read_before_the_sweep_that_shows_the_move_still_decides_it():
    """The sweep that shows the bishop came after the press and the stop, in one batch."""
    host = LateHost()
    host.batch(105.0, PRESS, STOP, BISHOP_LIFTED, BF5)
    host.timer(107.0)
    assert host.moves() == [("Bf5", True)]


def test_the_last_ply_read_after_a_stall_past_the_press_window_is_still_decided():
    """The host read the press and the stop, then stalled past the press window before it
    read the sweep that shows the move: the move stands still and is decided."""
    host = LateHost()
    host.batch(105.0, PRESS, STOP)
    host.batch(106.2, BISHOP_LIFTED, BF5)
    host.timer(110.0)
    assert [san for san, _ in host.moves()] == ["Bf5"]
    assert host.tracker.deadline is None
