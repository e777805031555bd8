"""Play too fast for the board ever to stand still: G/1 lightning, a blitz time scramble.

The guarantee (docs/laws.md, "When the tracker decides"): when legal moves from the recorded
game explain the board (up to four plies, each pressed), the record catches up at the first
press judged or the first settle window of stillness, not only after the recover window;
when nothing legal explains it, the arbiter is alerted after two presses without a
decision, without waiting for the alert window; and the alert clears itself, the record
catching up, once the board shows a position the game can reach. Fake time throughout:
every ply takes about 0.4 s, and the board is never still for a recover window.
"""

from __future__ import annotations

import chess

from relay.domain.game.events import ArbiterAlert, MoveMade
from tests.relay.domain.game.scene import SETTLING, Scene

W, B = chess.WHITE, chess.BLACK
RECOVER = SETTLING.recover_seconds
#: The Ruy Lopez at a lightning pace: (from, to, mover) per ply after 1. e4.
RUY_LOPEZ = [
    ("e7", "e5", B),
    ("g1", "f3", W),
    ("b8", "c6", B),
    ("f1", "b5", W),
    ("a7", "a6", B),
    ("b5", "a4", W),
    ("g8", "f6", B),
]
SANS = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]


def play(scene: Scene, plies: list[tuple[str, str, chess.Color]]) -> None:
    """Each ply: lift, put down (0.1 s a touch), press, 0.2 s to the next hand."""
    for origin, target, mover in plies:
        scene.move(origin, target)
        scene.press(mover, then=0.2)


def test_a_move_pressed_with_the_man_still_in_the_hand_is_caught_up_in_play():
    scene = Scene()
    scene.lift("e2")
    scene.press(W, then=0.15)  # the press is judged with the pawn in the air: no move
    scene.put("e4", "P")
    play(scene, RUY_LOPEZ)
    assert scene.sans() == SANS
    moves = scene.of(MoveMade)
    assert [m.recovered for m in moves[:2]] == [True, True]
    assert not any(m.recovered for m in moves[2:])
    assert scene.of(ArbiterAlert) == []


def test_the_record_is_never_more_than_one_press_behind():
    """The first two plies missed, the board showing each only between two touches: the
    record has them at the second press, long before the board stands still."""
    scene = Scene()
    scene.lift("e2")
    scene.press(W, then=0.15)
    scene.put("e4", "P")
    scene.lift("e7")
    scene.put("e5", "p")
    scene.press(B)
    caught_at = scene.now
    scene.wait(SETTLING.press_window())
    assert scene.sans() == ["e4", "e5"]
    assert scene.now - caught_at < RECOVER


def test_four_plies_missed_are_caught_up_when_four_presses_account_for_them():
    scene = Scene()
    scene.press(B)  # the clock's first reading: White to move
    board = chess.Board()
    for san, mover in (("e4", W), ("e5", B), ("Nf3", W), ("Nc6", B)):
        board.push_san(san)
        scene.press(mover)  # a reading for every press, the board's for none of the moves
    scene.set_up(board.board_fen())
    scene.wait(SETTLING.settle_seconds)
    # The board showed none of the positions between: any order that gets there will do.
    assert sorted(scene.sans()) == sorted(["e4", "e5", "Nf3", "Nc6"])
    assert scene.tracker.board.board_fen() == board.board_fen()
    assert all(m.recovered for m in scene.of(MoveMade))


def test_four_plies_are_not_guessed_without_the_presses():
    """A board four plies on with one press seen is a board the clock cannot account for:
    nothing is made up, and the alert comes with the stillness, as before."""
    scene = Scene()
    scene.press(B)
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
    scene.press(W)
    scene.set_up(board.board_fen())
    scene.wait(SETTLING.settle_seconds)
    assert scene.sans() == []


def test_nothing_legal_after_two_presses_alerts_without_stillness_and_clears():
    scene = Scene("e4", "e5")
    scene.press(B)  # Black's e5 pressed: White to move
    scene.move("d1", "d5")  # the queen jumps over her own pawn: nothing legal explains it
    scene.press(W, then=0.2)
    assert scene.of(ArbiterAlert) == []  # one press: the hands may still put it right
    scene.move("g8", "f6")
    scene.press(B, then=0.2)  # the second press: the arbiter is told, still in play
    [alert] = scene.of(ArbiterAlert)
    assert alert.alert == "illegal-position"
    assert scene.now - alert.at < SETTLING.alert_seconds
    scene.take()
    # The queen goes back and White plays a legal move: the record catches up with the
    # only legal way there, 2. Nf3 Nf6.
    scene.move("d5", "d1")
    scene.move("g1", "f3")
    scene.press(W, then=SETTLING.settle_seconds)
    assert scene.sans() == ["Nf3", "Nf6"]
    assert [a.alert for a in scene.of(ArbiterAlert)] == ["position-restored"]
