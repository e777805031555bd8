"""No silent guess after a gap: plies caught up when the board was not seen making them.

A cable pulled, a venue agent restarted, a board without a usable log: the board is seen
again several plies on. If more than one order of legal moves explains the jump as well as
the evidence allows (1. e3 c6 2. h3 and 1. h3 c6 2. e3 end in the same position), the hub
records the order the evidence supports best and tells the arbiter which plies and which
other orders, to correct in one step; with the board's log the order is known, and a jump
that only one order explains, or that the evidence settles, is recorded without an alert.
"""

from __future__ import annotations

import chess

from relay.domain.game.events import ArbiterAlert, MoveMade, event_data, event_from_data
from relay.domain.game.placement import Placement
from tests.relay.domain.game.scene import SETTLING, Scene

RECOVER = SETTLING.recover_seconds * 1.5


def after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def uncertain(scene: Scene) -> list[ArbiterAlert]:
    return [a for a in scene.of(ArbiterAlert) if a.alert == "uncertain-order"]


def test_a_transposed_jump_is_recorded_and_the_other_order_is_put_to_the_arbiter():
    scene = Scene()
    scene.set_up(after("e3", "c6", "h3"))  # seen again three plies on, nothing in between
    scene.wait(RECOVER)
    recorded = scene.sans()
    assert recorded in (["e3", "c6", "h3"], ["h3", "c6", "e3"])
    assert all(move.recovered for move in scene.of(MoveMade))
    (alert,) = uncertain(scene)
    other = ["h3", "c6", "e3"] if recorded[0] == "e3" else ["e3", "c6", "h3"]
    assert (alert.ply, alert.orders) == (1, (tuple(other),))
    assert alert.detail == (
        f"plies 1-3 were not seen played and are recorded as 1. {recorded[0]} c6 "
        f"2. {recorded[2]}; the board fits 1. {other[0]} c6 2. {other[2]} as well"
    )
    # Stored and read back with its orders, as the console gets it.
    assert event_from_data(alert.kind, event_data(alert)) == alert


def test_with_the_boards_log_the_order_is_known_and_nobody_is_alerted():
    scene = Scene()
    logged = [after("h3"), after("h3", "c6"), after("h3", "c6", "e3")]
    placements = [Placement.of_board(chess.BaseBoard(fen)) for fen in logged]
    scene.events += scene.tracker.replay(placements, scene.now)
    assert scene.sans() == ["h3", "c6", "e3"]
    assert uncertain(scene) == []


def test_a_jump_only_one_order_explains_is_recorded_without_an_alert():
    scene = Scene()
    scene.set_up(after("e4", "e5", "Qh5"))  # the queen's way out needs the pawn's move
    scene.wait(RECOVER)
    assert scene.sans() == ["e4", "e5", "Qh5"]
    assert uncertain(scene) == []


def test_a_jump_the_evidence_settles_is_recorded_without_an_alert():
    """The board was seen with a white pawn on d4 before Black took it en passant: d2-d4,
    not d2-d3 (which ends in the same position after ...exd3)."""
    scene = Scene("a3", "e5", "a4", "e4")
    scene.lift("d2")
    scene.lift("e4")  # Black's hand already at work: the board never showed d4 with e4
    scene.put("d4", "P")
    scene.lift("d4")
    scene.put("d3", "p")
    scene.wait(RECOVER)
    assert scene.sans()[-2:] == ["d4", "exd3"]
    assert uncertain(scene) == []
