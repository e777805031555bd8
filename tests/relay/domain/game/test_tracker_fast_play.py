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

from relay.domain.game.events import (
    ArbiterAlert,
    IllegalMoveCompleted,
    MoveCorrected,
    MoveMade,
)
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


def test_a_move_pressed_with_the_man_still_in_the_hand_is_decided_as_the_man_lands():
    scene = Scene()
    scene.lift("e2")
    scene.press(W, then=0.15)  # the press is judged with the pawn in the air: no move
    landed = scene.now
    scene.put("e4", "P")
    play(scene, RUY_LOPEZ)
    assert scene.sans() == SANS
    moves = scene.of(MoveMade)
    assert (moves[0].at, moves[0].confirmed, moves[0].recovered) == (landed, True, False)
    assert not any(m.recovered for m in moves)
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


def after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def lifted(fen: str, square: str) -> str:
    board = chess.BaseBoard(fen)
    board.remove_piece_at(chess.parse_square(square))
    return board.board_fen()


def test_a_press_still_waiting_is_judged_when_the_next_player_presses():
    """White presses with the pawn in the air and the board shows e4 on its next sweep; Black
    moves and presses before White's press was judged, the board showing e5 only after that
    press: each press is judged on what came before the next one, so both moves are in the
    record before White's next move has even landed."""
    scene = Scene()
    scene.press(B)
    scene.lift("e2")
    scene.press(W)
    scene.set_up(after("e4"))
    scene.set_up(lifted(after("e4"), "e7"))
    scene.wait(0.05)
    scene.press(B)  # White's press (0.05 s ago) is judged now: e4
    assert scene.sans() == ["e4"]
    scene.set_up(after("e4", "e5"))
    scene.wait(0.1)
    scene.lift("g1")  # White's hand, before the board has been still for a settle window
    scene.wait(SETTLING.press_window())
    assert scene.sans() == ["e4", "e5"]
    scene.put("f3", "N")
    scene.press(W, then=SETTLING.press_window())
    assert scene.sans() == ["e4", "e5", "Nf3"]
    assert not any(m.recovered for m in scene.of(MoveMade))


def test_a_press_judged_at_the_next_press_leaves_that_press_counted():
    """White presses before the board has seen the knight land, and Black's sleeve knocks
    it over at once: White's press is judged on no legal position. The knight is stood up
    again, Black presses, and White is moving again before Black's press is judged: the two
    presses account for Nf3 and Nc6, caught up from the position the board showed after
    Black's press, not from the one it shows now."""
    scene = Scene("e4", "e5")
    scene.press(B)
    scene.lift("g1")
    scene.press(W)
    scene.lift("b8")
    scene.put("c6", "n")
    scene.wait(SETTLING.press_window())  # White's press judged: nothing legal
    assert scene.sans() == []
    scene.put("f3", "N")  # the knight stood up again
    scene.press(B)
    scene.lift("f1")
    scene.put("c4", "B")  # White's next move lands before Black's press is judged
    scene.press(W)  # Black's press is judged now
    assert scene.sans() == ["Nf3", "Nc6"]
    scene.wait(SETTLING.press_window())
    assert scene.sans() == ["Nf3", "Nc6", "Bc4"]


def test_a_pressed_move_knocked_onto_a_legal_square_is_corrected_at_the_reply():
    """White's knight stands on f3 at White's press; Black's sleeve knocks it onto h3 (where
    it could have gone) before the press is judged, so Nh3 is decided. Black stands it up on
    f3 again, plays Nc6 and presses: nothing else explains the board, so Black's press
    corrects White's move and adds the reply."""
    scene = Scene("e4", "e5")
    scene.press(B)
    scene.move("g1", "f3")
    scene.press(W)
    scene.set_up(after("e4", "e5", "Nh3"))  # knocked, as the board's next sweep shows it
    scene.wait(SETTLING.press_window())
    assert scene.sans() == ["Nh3"]
    scene.set_up(after("e4", "e5", "Nf3"))  # stood up again
    scene.move("b8", "c6")
    scene.press(B, then=SETTLING.press_window())
    [corrected] = scene.of(MoveCorrected)
    assert (corrected.replaced, corrected.san) == ("g1h3", "Nf3")
    assert [m.uci() for m in scene.tracker.board.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6"]


# A host that reads the board late: the reports of several plies in one instant


def at_once(scene: Scene, game: chess.Board, san: str, *, reported: bool = True) -> None:
    """The board's reports of one ply of ``game`` (its touches, then its press) read in the
    same instant as the rest, by a host starved for a moment; the first press is the
    clock's first reading if it was not read before. ``reported=False``: the board's
    report of the ply is lost, only the press is read."""
    move = game.parse_san(san)
    piece = game.piece_at(move.from_square)
    assert piece is not None
    touches = [(move.from_square, None), (move.to_square, piece)]
    if scene.shown.piece_at(move.to_square) is not None:
        touches.insert(0, (move.to_square, None))  # a captured man first
    for square, put in touches:
        if put is None:
            scene.shown.remove_piece_at(square)
        else:
            scene.shown.set_piece_at(square, put)
        if reported:
            scene.show()
    game.push(move)
    scene.lever = game.turn
    scene.clock()


def test_a_burst_read_late_after_a_resume_is_caught_up_though_its_first_press_went_unseen():
    """A resumed game (no clock reading yet) and a host starved just then: three plies and
    their presses are read in one instant, the first press being the clock's first reading
    (so not seen as a press), and the fourth ply comes at play's pace. The board showed
    every position on the way, in order: the record catches up with all of them at the next
    press judged, and is not left behind with an alert it never leaves."""
    scene = Scene("e4", "e5", "Nf3", "Nc6")
    game = scene.tracker.board.copy()
    for san in ("Bb5", "a6", "Ba4"):
        at_once(scene, game, san)
    scene.wait(0.2)
    scene.move("g8", "f6")
    scene.press(B, then=SETTLING.press_window())
    assert scene.sans() == ["Bb5", "a6", "Ba4", "Nf6"]
    assert [a.alert for a in scene.of(ArbiterAlert)] == []
    scene.move("e1", "g1")
    scene.lift("h1")
    scene.put("f1", "R")
    scene.press(W, then=SETTLING.press_window())
    assert scene.sans()[-1] == "O-O"


def test_a_burst_with_a_report_lost_is_not_made_up_and_charges_nobody():
    """The same burst with the board's report of one ply lost (its press read, its position
    never shown), and the board then left as it stands: nothing explains it, so nothing is
    made up and the arbiter is told; but the board is more than a move away from the
    record, so nobody is charged with an illegal move for it."""
    scene = Scene("e4", "e5", "Nf3", "Nc6")
    game = scene.tracker.board.copy()
    at_once(scene, game, "Bb5")
    at_once(scene, game, "a6", reported=False)
    at_once(scene, game, "Ba4")
    scene.move("g8", "f6")
    scene.press(B, then=SETTLING.alert_seconds)
    assert scene.sans() == []
    assert [a.alert for a in scene.of(ArbiterAlert)] == ["illegal-position"]
    assert scene.of(IllegalMoveCompleted) == []
