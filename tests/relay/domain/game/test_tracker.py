"""The tracker, event kind by event kind: hands on a board in, game events out."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given

from relay.domain.clock.time_control import GameClass
from relay.domain.game.events import (
    ArbiterAlert,
    BoardRotated,
    ClaimsChanged,
    FlagFell,
    GameEnded,
    IllegalMoveCompleted,
    MoveCorrected,
    MoveMade,
    NewGame,
    ResultProposed,
    TakenBack,
    Waiting,
)
from relay.domain.game.fen import fen
from relay.domain.game.laws import BothFlagsRule, Rules
from relay.domain.game.placement import START, Placement
from relay.domain.game.tracker import PositionTracker
from relay.domain.results import Result
from tests.relay.domain.game.scene import SETTLING, Scene
from tests.strategies import legal_games

SETTLE = SETTLING.settle_seconds
RECOVER = SETTLING.recover_seconds
ALERT = SETTLING.alert_seconds


def placement(board: chess.BaseBoard) -> Placement:
    return Placement.of_board(board)


def lifted(board: chess.Board, square: chess.Square) -> Placement:
    copy = board.copy()
    copy.remove_piece_at(square)
    return placement(copy)


# Move made


def test_move_decided_only_after_settle_time():
    tracker = PositionTracker(settling=SETTLING)
    board = chess.Board()
    assert tracker.observe(lifted(board, chess.E2), 1.0, 0.0) == []
    board.push_san("e4")
    assert tracker.observe(placement(board), 1.1, 0.0) == []
    assert tracker.deadline == 1.1 + SETTLE
    assert tracker.settle(1.2, 0.0) == []
    events = tracker.settle(1.1 + SETTLE, 1700000000.0)
    assert events == [MoveMade(ply=1, uci="e2e4", san="e4", fen=board.fen(), at=1700000000.0)]
    assert tracker.deadline is None


@pytest.mark.parametrize(
    ("sans", "hands", "expected"),
    [
        ((), [("e2", "e4")], "e4"),
        (("e4", "d5"), [("e4", "d5")], "exd5"),  # capture: the captured man goes first
        (("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"), [("e1", "g1"), ("h1", "f1")], "O-O"),
        (("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"), [("h1", "f1"), ("e1", "g1")], "O-O"),
        (
            ("d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7"),
            [("e1", "c1"), ("a1", "d1")],
            "O-O-O",
        ),
    ],
)
def test_moves_by_hand(sans, hands, expected):
    scene = Scene(*sans)
    for origin, target in hands:
        scene.move(origin, target)
    scene.wait(SETTLE)
    assert scene.sans() == [expected]


def test_en_passant_with_the_captured_pawn_taken_first():
    scene = Scene("e4", "a6", "e5", "d5")
    scene.lift("d5")
    scene.move("e5", "d6", then=SETTLE)
    assert scene.sans() == ["exd6"]
    assert scene.of(Waiting) == []  # the hands were quicker than the settle window


def test_dragged_rook_decided_where_it_stops():
    scene = Scene(fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    scene.lift("a1")
    for square in ("b1", "c1"):
        scene.put(square, "R")
        scene.lift(square)
    scene.put("d1", "R")
    scene.wait(SETTLE)
    assert scene.sans() == ["Rd1"]


@pytest.mark.parametrize("piece", ["Q", "R", "B", "N"])
def test_promotion_is_to_the_piece_placed(piece):
    scene = Scene(fen="8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    scene.lift("e7")
    scene.put("e8", piece)
    scene.wait(SETTLE)
    assert scene.sans() == [f"e8={piece}"]


def test_a_stable_position_is_decided_when_the_next_change_arrives_late():
    """A host that never got to its settle timer still decides what stood long enough."""
    tracker = PositionTracker(settling=SETTLING)
    board = chess.Board()
    board.push_san("e4")
    assert tracker.observe(placement(board), 0.0, 0.0) == []
    events = tracker.observe(lifted(board, chess.E7), SETTLE + 0.01, 5.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["e4"]
    board.push_san("e5")
    assert tracker.observe(placement(board), SETTLE + 0.02, 0.0) == []
    assert tracker.observe(lifted(board, chess.G1), SETTLE + 0.03, 0.0) == []
    assert tracker.board.fullmove_number == 1


def test_resumes_from_a_given_board():
    board = chess.Board()
    board.push_san("d4")
    tracker = PositionTracker(board, settle_seconds=0.0)
    board.push_san("Nf6")
    tracker.observe(placement(board), 0.0, 0.0)
    assert [e.ply for e in tracker.settle(0.0, 0.0) if isinstance(e, MoveMade)] == [2]


# Previous move corrected


def test_rook_put_down_on_the_wrong_square_first_is_corrected():
    scene = Scene(fen="4r1k1/8/8/8/8/8/8/4R1K1 w - - 0 1")
    scene.move("e1", "e3", then=SETTLE)  # stood still long enough to pass for Re3
    assert scene.sans() == ["Re3"]
    scene.move("e3", "e8", then=SETTLE)  # on to e8, taking the rook
    [correction] = scene.of(MoveCorrected)
    assert correction == MoveCorrected(
        ply=1, uci="e1e8", san="Rxe8+", fen=correction.fen, replaced="e1e3", at=correction.at
    )
    assert scene.tracker.board.move_stack == [chess.Move.from_uci("e1e8")]


def test_no_correction_once_the_mover_pressed_the_clock():
    scene = Scene(fen="4r1k1/8/8/8/8/8/8/4R1K1 w - - 0 1")
    scene.move("e1", "e3", then=SETTLE)
    scene.press(chess.WHITE)
    scene.move("e3", "e8", then=ALERT)
    assert scene.of(MoveCorrected) == []
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["illegal-position"]


# Moves recovered


def test_two_plies_ahead_are_recovered_after_the_recover_window():
    scene = Scene()
    scene.set_up("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
    scene.wait(SETTLE)
    assert scene.sans() == []  # a hand could still be passing
    scene.wait(RECOVER)
    moves = scene.of(MoveMade)
    assert [(m.san, m.ply, m.recovered) for m in moves] == [("e4", 1, True), ("e5", 2, True)]


def test_three_plies_ahead_are_recovered():
    scene = Scene("e4")
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
    scene.set_up(board.board_fen())
    scene.wait(RECOVER)
    # Missed moves may come out in any order that leads there (e5, Nf3, Nc6 or Nc6, Nf3, e5).
    assert sorted(scene.sans()) == ["Nc6", "Nf3", "e5"]
    assert scene.tracker.board.board_fen() == board.board_fen()
    assert all(e.recovered for e in scene.of(MoveMade))


def test_missed_moves_come_out_in_the_order_the_board_passed_through():
    scene = Scene("e4")
    board = chess.Board()
    board.push_san("e4")
    for san in ("e5", "Nf3", "Nc6"):  # Nc6, Nf3, e5 would end in the same position
        board.push_san(san)
        scene.set_up(board.board_fen())  # each seen too briefly to settle
        scene.wait(0.05)
    scene.wait(RECOVER)
    assert scene.sans() == ["e5", "Nf3", "Nc6"]


def test_plies_beyond_any_search_are_caught_up_from_the_positions_the_board_showed():
    """Six plies reported in one instant (a host starved for a moment, no clock to count
    presses), every position on the way shown whole: more than missed moves are searched
    for, but the board showed each of them in order, so the record catches up with all six
    once the board stands still, and nobody is alerted."""
    scene = Scene("e4")
    board = scene.tracker.board.copy()
    for san in ("e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"):
        move = board.parse_san(san)
        scene.shown.remove_piece_at(move.from_square)
        scene.show()
        board.push(move)
        scene.set_up(board.board_fen())
    scene.wait(RECOVER)
    assert scene.sans() == ["e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    assert all(m.recovered for m in scene.of(MoveMade))
    scene.wait(ALERT)
    assert scene.of(ArbiterAlert) == []


def ticking(scene: Scene, seconds: float) -> None:
    """Time passes with a running clock reporting every second, as a DGT clock does."""
    for _ in range(int(seconds)):
        scene.wait(1.0)
        scene.clock()
    scene.wait(seconds - int(seconds))


def test_a_knocked_piece_is_not_read_as_moves_the_clock_never_saw():
    # After 2.Nf3 (pressed), White's bishop is knocked from f1 to e2: the board now looks
    # like 2...Nc6 3.Be2 Nb8. The clock saw no press since Nf3, so no moves are recovered.
    scene = Scene("e4", "e5")
    scene.press(chess.BLACK)  # Black's press after 1...e5: the clock runs for White
    scene.move("g1", "f3")
    scene.press(chess.WHITE, then=SETTLE)
    assert scene.sans() == ["Nf3"]
    scene.lift("f1")
    scene.put("e2", "B")
    ticking(scene, RECOVER + 1)
    assert scene.sans() == ["Nf3"]
    scene.lift("e2")
    scene.put("f1", "B")
    ticking(scene, 1)
    scene.move("b8", "c6", then=SETTLE)
    assert scene.sans() == ["Nf3", "Nc6"]


def test_missed_moves_are_recovered_when_the_clock_saw_their_presses():
    scene = Scene("e4", "e5")
    scene.press(chess.BLACK)
    scene.move("g1", "f3")
    scene.press(chess.WHITE, then=SETTLE)
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"):
        board.push_san(san)
    scene.press(chess.BLACK)  # after a move the board never showed
    scene.press(chess.WHITE)  # and another
    scene.set_up(board.board_fen())
    ticking(scene, RECOVER + 1)
    assert sorted(scene.sans()[1:]) == ["Bc4", "Nc6", "Nf6"]
    assert scene.tracker.board.board_fen() == board.board_fen()
    assert all(e.recovered for e in scene.of(MoveMade)[1:])


# Takeback


def test_takeback_to_an_earlier_position():
    scene = Scene("e4", "e5", "Nf3", "Nc6")
    before = chess.Board()
    before.push_san("e4")
    scene.set_up(before.board_fen())
    scene.wait(RECOVER)
    assert scene.of(TakenBack) == [TakenBack(ply=1, fen=before.fen(), at=scene.now)]
    assert scene.tracker.ply == 1
    scene.move("d7", "d5", then=SETTLE)
    assert scene.sans() == ["d5"]


def test_a_repetition_is_a_move_not_a_takeback():
    scene = Scene("Nf3", "Nf6", "Ng1")
    scene.move("f6", "g8", then=RECOVER)  # the start position again, by a legal move
    assert scene.sans() == ["Ng8"]
    assert scene.of(TakenBack) == []
    assert scene.of(NewGame) == []


# New game and rotation


def test_start_position_on_a_board_with_a_game_is_a_new_game():
    scene = Scene("e4", "e5", "Nf3")
    scene.set_up(chess.STARTING_BOARD_FEN)
    scene.wait(SETTLE)
    assert scene.of(NewGame) == [NewGame(rotated=False, at=scene.now)]
    assert scene.tracker.ply == 0
    scene.move("d2", "d4", then=SETTLE)
    assert scene.sans() == ["d4"]


def test_start_position_turned_round_rotates_the_board():
    scene = Scene()
    scene.set_up(
        chess.BaseBoard(chess.STARTING_BOARD_FEN)
        .transform(chess.flip_vertical)
        .transform(chess.flip_horizontal)
        .board_fen()
    )
    scene.wait(SETTLE)
    assert scene.kinds() == ["rotated", "new-game"]
    assert scene.of(BoardRotated) == [BoardRotated(rotated=True, at=scene.now)]
    assert scene.tracker.rotated
    # e2-e4 as the turned board reports it: from square e7 mirrored (d7) to d5.
    scene.move("d7", "d5", then=SETTLE)
    assert scene.sans() == ["e4"]


# Waiting


@pytest.mark.parametrize(
    ("hands", "missing"),
    [
        (["g1"], ("g1",)),  # a piece held in the hand
        (["b7", "g1"], ("g1", "b7")),  # a knocked-over piece and a piece in hand
    ],
)
def test_part_of_the_position_is_waited_on(hands, missing):
    scene = Scene()
    for square in hands:
        scene.lift(square)
    scene.wait(ALERT * 3)
    assert scene.of(Waiting) == [Waiting(missing=missing, at=scene.events[0].at)]
    assert scene.of(ArbiterAlert) == []
    assert scene.sans() == []


def test_part_of_the_position_after_a_move_is_waited_on():
    scene = Scene("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6")
    scene.lift("e1")
    scene.lift("h1")
    scene.put("g1", "K")  # the king is down, the rook still in the hand
    scene.wait(ALERT * 2)
    assert [e.missing for e in scene.of(Waiting)] == [("f1",)]
    scene.put("f1", "R")
    scene.wait(SETTLE)
    assert scene.sans() == ["O-O"]


# Illegal position


def test_illegal_position_alerts_once_then_recovers_on_its_own():
    scene = Scene("e4")
    scene.move("e7", "e4")  # a pawn "captures" straight ahead: nothing legal explains it
    scene.wait(ALERT)
    [alert] = scene.of(ArbiterAlert)
    assert alert.alert == "illegal-position"
    assert "e4 e7" in alert.detail
    scene.wait(ALERT * 3)
    assert len(scene.of(ArbiterAlert)) == 1
    scene.take()
    scene.set_up("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")  # the arbiter restores
    scene.wait(0.0)
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["position-restored"]
    scene.move("e7", "e5", then=SETTLE)
    assert scene.sans() == ["e5"]


def test_a_game_not_begun_on_a_board_not_set_up_says_so_in_words():
    """Round 2 attached while the board still shows round 1's last position."""
    last_round = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6"):
        last_round.push_san(san)
    scene = Scene()
    scene.set_up(last_round.board_fen())
    scene.wait(ALERT)
    [alert] = scene.of(ArbiterAlert)
    assert alert.alert == "illegal-position"
    assert alert.detail == (
        "the board is not set up in the start position: 16 squares differ "
        "(e1 f1 g1 h1 e2 f3 e4 e5 …)"
    )


def test_one_square_off_the_start_position_is_said_so_too():
    scene = Scene()
    scene.lift("a1")
    scene.put("a3", "R")
    scene.wait(ALERT)
    [alert] = scene.of(ArbiterAlert)
    assert alert.detail == (
        "the board is not set up in the start position: 2 squares differ (a1 a3)"
    )


def test_illegal_position_recovers_when_the_board_goes_on_legally():
    scene = Scene("e4")
    scene.move("d8", "d4", then=ALERT)  # the queen jumps over her pawn
    scene.take()
    scene.set_up(chess.Board().board_fen())
    board = chess.Board()
    for san in ("e4", "c5"):
        board.push_san(san)
    scene.set_up(board.board_fen())
    scene.wait(SETTLE)
    assert scene.kinds() == ["move", "alert"]
    assert scene.of(ArbiterAlert)[0].alert == "position-restored"


# Result gestures


@pytest.mark.parametrize(
    ("white_king", "black_king", "result"),
    [
        ("d5", "e4", "1-0"),
        ("e4", "d5", "1-0"),
        ("d4", "e5", "0-1"),
        ("e4", "e5", "1/2-1/2"),
        ("d4", "d5", "1/2-1/2"),
    ],
)
def test_kings_on_the_centre_propose_a_result_and_are_never_moves(white_king, black_king, result):
    scene = Scene(fen="6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
    scene.lift("g1")
    scene.lift("g8")
    scene.put(white_king, "K")
    scene.put(black_king, "k")
    scene.wait(ALERT * 2)
    assert scene.of(ResultProposed) == [
        ResultProposed(result=result, gesture="kings", at=scene.events[-1].at)
    ]
    assert scene.sans() == []
    assert scene.of(ArbiterAlert) == []


def test_a_king_that_went_to_the_centre_first_is_not_a_final_move():
    scene = Scene(fen="8/p7/4k3/8/8/2K5/P7/8 w - - 0 1")
    scene.move("c3", "d4", then=SETTLE)  # Kd4 is legal and stood long enough
    assert scene.sans() == ["Kd4"]
    scene.move("e6", "e5", then=SETTLE)  # now both kings are on the centre: a gesture
    assert scene.kinds()[-2:] == ["takeback", "result-proposed"]
    assert scene.of(ResultProposed)[0].result == "0-1"
    assert scene.tracker.ply == 0


@pytest.mark.parametrize("stopped", [False, True])
def test_a_king_move_to_the_centre_the_clock_handed_over_stays_when_the_kings_show_a_result(
    stopped,
):
    # Black's Ke5 is a real move: Black pressed (with a hand still on the king, so the
    # press came while the board showed no decided position). White's king then joins it
    # on the centre, perhaps after the clock was stopped: the kings show a draw, and Ke5 is
    # not part of the gesture.
    scene = Scene(fen="8/p7/4k3/8/8/8/P1K5/8 b - - 0 1")
    scene.press(chess.WHITE)
    scene.move("e6", "e5", then=SETTLE)
    assert scene.sans() == ["Ke5"]
    scene.lift("e5")
    scene.press(chess.BLACK)
    scene.put("e5", "k")
    scene.wait(SETTLE)
    if stopped:
        scene.clock(running=False)
    scene.lift("c2")
    scene.put("e4", "K")
    scene.wait(ALERT * 2)
    assert "takeback" not in scene.kinds()
    assert scene.of(ResultProposed)[-1].result == "1/2-1/2"
    assert scene.tracker.ply == 1


def test_a_king_that_went_to_the_centre_first_on_a_running_clock_is_not_a_final_move():
    # White's king steps to the centre and stands there, the clock not pressed; Black's
    # king joins it: White's step was the start of the gesture, not a move.
    scene = Scene(fen="8/p7/4k3/8/8/2K5/P7/8 w - - 0 1")
    scene.press(chess.BLACK)
    scene.move("c3", "d4", then=SETTLE)
    assert scene.sans() == ["Kd4"]
    scene.move("e6", "e5", then=SETTLE)
    assert scene.kinds()[-2:] == ["takeback", "result-proposed"]
    assert scene.of(ResultProposed)[0].result == "0-1"


def test_a_late_report_of_the_mating_move_and_the_kings_gesture_keeps_the_move():
    # Seen in a CI run: a board that reports late shows White's mate c4# and the kings on
    # the centre in one report. Before the gesture can be read, the move is the game's.
    scene = Scene(fen="8/2Q5/8/3k1n2/8/2PK4/8/4R3 w - - 7 57")
    scene.set_up("8/2Q5/8/3K1n2/2P1k3/8/8/4R3")  # c3-c4, then Kd3-d5 and Kd5-e4
    scene.wait(ALERT * 2)
    assert scene.sans() == ["c4#"]
    assert scene.of(GameEnded)[0].result == "1-0"
    assert scene.of(ArbiterAlert) == []


def test_a_late_report_of_a_last_move_and_the_kings_gesture_proposes_the_result_after_it():
    scene = Scene(fen="6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
    scene.set_up("8/5ppp/8/3kK3/8/5P2/6PP/8")  # f2-f3, then the kings on d5 and e5
    scene.wait(ALERT * 2)
    assert scene.sans() == ["f3"]
    assert scene.kinds() == ["move", "result-proposed"]
    assert scene.of(ResultProposed)[0].result == "1/2-1/2"
    assert scene.of(ArbiterAlert) == []


def test_a_late_move_with_the_kings_gesture_waits_for_a_press_where_moves_need_one():
    scene = Scene(fen="6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", rules=Rules(moves_need_press=True))
    scene.set_up("8/5ppp/8/3kK3/8/5P2/6PP/8")
    scene.wait(ALERT * 2)
    assert scene.sans() == []
    assert scene.of(ResultProposed) == []


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2"])
def test_a_marker_piece_proposes_a_result(result):
    scene = Scene("e4", "e5")
    scene.mark(result)
    scene.wait(SETTLE)
    assert scene.of(ResultProposed) == [
        ResultProposed(result=result, gesture="marker", at=scene.now)
    ]


# Clock presses


def test_a_press_by_the_mover_decides_sooner_than_the_settle_window():
    scene = Scene()
    scene.lift("e2")
    scene.put("e4", "P")
    assert scene.sans() == []
    scene.press(chess.WHITE, then=SETTLING.press_window())
    [move] = scene.of(MoveMade)
    assert move.san == "e4"
    assert move.confirmed


def test_a_press_before_the_board_shows_the_move_waits_for_it():
    scene = Scene()
    scene.lift("e2")
    scene.press(chess.WHITE)  # the board's next sweep has not reported e4 yet
    assert scene.events == []
    scene.put("e4", "P")
    scene.wait(SETTLING.press_window())
    [move] = scene.of(MoveMade)
    assert move.san == "e4"
    assert move.confirmed
    assert scene.of(IllegalMoveCompleted) == []


def test_a_knocked_piece_put_back_after_the_press_is_no_illegal_move():
    scene = Scene("e4", "e5")
    scene.lift("g1")
    scene.lift("b2")  # knocked over on the way
    scene.put("b3", "P")
    scene.put("f3", "N")
    scene.press(chess.WHITE, then=SETTLE)  # the board still shows the pawn on b3
    assert scene.of(IllegalMoveCompleted) == []
    scene.lift("b3")
    scene.put("b2", "P")
    scene.wait(ALERT)
    assert scene.sans() == ["Nf3"]
    assert scene.of(IllegalMoveCompleted) == []
    assert scene.of(ArbiterAlert) == []


def test_a_knocked_piece_on_a_square_it_could_move_to_is_not_a_second_ply():
    scene = Scene("e4", "e5")
    scene.lift("g1")
    scene.lift("g8")  # Black's knight knocked over: it lands on h6, where Nh6 is legal
    scene.put("h6", "n")
    scene.put("f3", "N")
    scene.press(chess.WHITE, then=SETTLE)
    scene.lift("h6")
    scene.put("g8", "n")
    scene.wait(ALERT)
    assert scene.sans() == ["Nf3"]
    assert scene.of(IllegalMoveCompleted) == []


def test_a_press_takes_the_move_even_when_the_opponent_is_already_reaching_out():
    scene = Scene(fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    scene.lift("a1")
    scene.put("b1", "R")  # mid-slide when the clock is pressed: the board lags a sweep
    scene.lift("b1")
    scene.press(chess.WHITE)
    scene.put("c1", "R")
    scene.lift("e8")  # Black picks up the king before the press window ends
    [move] = scene.of(MoveMade)
    assert move.san == "Rc1"
    assert move.confirmed
    scene.wait(SETTLE)
    assert [e.missing for e in scene.of(Waiting)] == [("e8",)]


CASTLING = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"


def test_a_castling_the_board_reports_after_the_press_window_corrects_the_rook_move():
    scene = Scene(fen=CASTLING)
    scene.move("a8", "d8")  # rook first
    scene.press(chess.BLACK, then=SETTLING.press_window())  # the king's sweep comes late
    assert scene.sans() == ["Rd8"]
    scene.move("e8", "c8", then=SETTLE)
    [correction] = scene.of(MoveCorrected)
    assert (correction.san, correction.replaced) == ("O-O-O", "a8d8")
    assert scene.tracker.board.move_stack == [chess.Move.from_uci("e8c8")]
    assert scene.of(ArbiterAlert) == []


def test_a_castling_whose_king_comes_a_busy_hosts_lag_later_is_still_corrected():
    scene = Scene(fen=CASTLING)
    scene.move("a8", "d8")
    scene.press(chess.BLACK, then=SETTLING.press_window())
    scene.wait(2 * SETTLING.press_window())  # the sweep comes late, but within a recover window
    scene.move("e8", "c8", then=SETTLE)
    assert [e.san for e in scene.of(MoveCorrected)] == ["O-O-O"]
    assert scene.of(ArbiterAlert) == []


def test_a_move_changed_well_after_the_press_decided_it_is_not_corrected():
    scene = Scene(fen=CASTLING)
    scene.move("a8", "d8")
    scene.press(chess.BLACK, then=SETTLING.press_window())
    scene.wait(RECOVER + SETTLE)  # then the player moves again, on White's time
    scene.move("e8", "c8", then=ALERT)
    assert scene.of(MoveCorrected) == []
    assert scene.tracker.board.move_stack == [chess.Move.from_uci("a8d8")]
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["illegal-position"]


def test_a_late_sweep_is_no_correction_once_the_opponent_pressed():
    scene = Scene(fen=CASTLING)
    scene.move("a8", "d8")
    scene.press(chess.BLACK, then=SETTLING.press_window())
    scene.press(chess.WHITE)
    scene.move("e8", "c8", then=ALERT)
    assert scene.of(MoveCorrected) == []


# Seen in CI (generated game 0:410): a bishop slid b4-c3-d2 and the board showed it at c3
# long enough to be decided; White answered the check before the board showed d2.
SLIDE = "5k1r/N7/4B1Qn/p7/Pb3Pp1/4p2p/2N1P3/2K2BR1 b - - 0 54"


def slide_then_reply(scene: Scene) -> None:
    scene.lift("b4")
    scene.put("c3", "b")
    scene.wait(SETTLE)  # decided: Bc3
    scene.lift("c3")
    scene.put("d2", "b")  # Bd2+, and White's king steps out at once
    scene.move("c1", "b2", then=ALERT)


def test_a_man_decided_at_a_stop_on_its_way_and_answered_at_once_is_moved_on():
    scene = Scene(fen=SLIDE)
    slide_then_reply(scene)
    assert [m.uci() for m in scene.tracker.board.move_stack] == ["b4d2", "c1b2"]
    [correction] = scene.of(MoveCorrected)
    assert (correction.san, correction.replaced) == ("Bd2+", "b4c3")
    assert [e.recovered for e in scene.of(MoveMade)][-1] is True
    assert scene.of(ArbiterAlert) == []


def test_a_confirmed_move_is_not_moved_on_by_a_later_sibling_and_reply():
    scene = Scene(fen=SLIDE)
    scene.lift("b4")
    scene.put("c3", "b")
    scene.press(chess.BLACK, then=SETTLE)  # Black pressed with the bishop on c3
    scene.wait(RECOVER + SETTLE)  # and moves it on well after, on White's time
    scene.clock()  # the running clock reports every second: White has not pressed
    scene.lift("c3")
    scene.put("d2", "b")
    scene.move("c1", "b2")
    for _ in range(int(ALERT) + 1):
        scene.wait(1.0)
        scene.clock()
    assert [m.uci() for m in scene.tracker.board.move_stack] == ["b4c3"]
    assert scene.of(MoveCorrected) == []
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["illegal-position"]


def test_another_man_moved_instead_is_no_sibling_of_the_decided_move():
    scene = Scene(fen=SLIDE)
    scene.lift("b4")
    scene.put("c3", "b")
    scene.wait(SETTLE)  # decided: Bc3
    scene.lift("c3")
    scene.put("b4", "b")
    scene.move("h6", "g8")  # a knight instead, and White answers
    scene.move("c1", "b1", then=ALERT)
    assert scene.of(MoveCorrected) == []
    assert "b8" not in str(scene.of(MoveMade))


def test_with_the_clock_move_rule_only_a_press_makes_a_move():
    scene = Scene(rules=Rules(moves_need_press=True))
    scene.move("e2", "e4", then=ALERT)
    assert scene.sans() == []
    scene.press(chess.WHITE, then=SETTLING.press_window())
    assert scene.sans() == ["e4"]


@pytest.mark.parametrize(
    ("time_class", "seconds"),
    [(GameClass.STANDARD, 120), (GameClass.RAPID, 60), (GameClass.BLITZ, 60)],
)
def test_completed_illegal_moves_are_counted_with_the_proposed_penalty(time_class, seconds):
    scene = Scene("e4", "e5", rules=Rules(time_class=time_class))
    scene.move("f1", "f3")  # a bishop moving straight
    scene.press(chess.WHITE, then=ALERT)
    first = scene.of(IllegalMoveCompleted)
    assert first == [
        IllegalMoveCompleted(
            player="white",
            count=1,
            penalty="add-time",
            seconds=seconds,
            reason="no legal move explains the board",
            at=scene.now,
        )
    ]
    assert scene.tracker.ply == 2  # the last good game is kept
    scene.take()
    scene.set_up(
        chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").board_fen()
    )
    scene.press(chess.BLACK)  # the arbiter puts the lever back
    scene.move("d1", "h5")
    scene.press(chess.WHITE, then=SETTLING.press_window())
    assert scene.sans() == ["Qh5"]
    scene.move("e8", "e6")  # the king jumps two squares
    scene.press(chess.BLACK, then=ALERT)
    [second] = scene.of(IllegalMoveCompleted)
    assert (second.player, second.count, second.penalty) == ("black", 1, "add-time")


def test_a_second_illegal_move_proposes_a_loss():
    scene = Scene("e4", "e5")
    for _ in range(2):
        scene.move("f1", "f3")
        scene.press(chess.WHITE, then=ALERT)
        scene.set_up(
            chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").board_fen()
        )
        scene.press(chess.BLACK)
    assert [(e.count, e.penalty) for e in scene.of(IllegalMoveCompleted)] == [
        (1, "add-time"),
        (2, "loss"),
    ]


# Promotion


def test_pawn_left_on_the_last_rank_is_flagged_and_read_as_a_queen_on_the_press():
    scene = Scene(fen="8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    scene.move("e7", "e8", then=ALERT)
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["pawn-on-last-rank"]
    assert scene.sans() == []
    scene.take()
    scene.press(chess.WHITE, then=SETTLE)
    assert scene.kinds() == ["illegal-move", "alert", "move"]
    assert scene.of(IllegalMoveCompleted)[0].reason == "pawn not replaced (7.5.2)"
    assert scene.sans() == ["e8=Q"]


def test_a_promotion_square_left_empty_defaults_to_a_queen_on_the_press():
    scene = Scene(fen="8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    scene.lift("e7")  # an upside-down rook goes on e8: the board sees nothing
    scene.wait(ALERT)
    scene.press(chess.WHITE, then=SETTLE)
    assert scene.sans() == ["e8=Q"]
    alert = scene.of(ArbiterAlert)[0]
    scene.put("e8", "N")  # the piece shows up after all: a knight
    scene.wait(SETTLE)
    assert scene.of(MoveCorrected)[0].san == "e8=N"
    assert alert.alert == "promotion-assumed"
    assert "nothing seen on e8" in alert.detail


def test_a_promotion_to_a_piece_of_the_wrong_colour_defaults_to_a_queen():
    scene = Scene(fen="8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    scene.lift("e7")
    scene.put("e8", "q")  # Black's queen borrowed
    scene.wait(SETTLE)
    assert scene.sans() == ["e8=Q"]
    assert "black queen (q) on e8" in scene.of(ArbiterAlert)[0].detail


# Laws


def test_checkmate_ends_the_game_and_stops_tracking():
    scene = Scene("f3", "e5", "g4")
    scene.move("d8", "h4", then=SETTLE)
    assert scene.events[-1] == GameEnded(
        result=Result.BLACK_WINS, termination="checkmate", at=scene.now
    )
    assert scene.tracker.finished
    scene.take()
    scene.move("e1", "f2", then=ALERT)
    assert scene.events == []
    assert scene.tracker.deadline is None


@pytest.mark.parametrize(
    ("fen", "origin", "target", "result", "termination"),
    [
        ("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "f1", "f7", "1/2-1/2", "stalemate"),
        ("7k/8/6K1/8/8/8/8/1r6 w - - 0 1", "g6", "g5", None, None),
        ("7k/8/6K1/8/8/8/8/1n5B w - - 0 1", "h1", "b7", None, None),
        ("7k/8/6K1/8/8/8/1n6/7B w - - 0 1", "g6", "h6", None, None),
        ("7k/8/6K1/8/8/8/8/n6B w - - 0 1", "h1", "a8", None, None),
        ("7k/8/6K1/8/8/8/8/n6B b - - 0 1", "a1", "b3", None, None),
        ("7k/8/6K1/8/8/8/8/1r5B w - - 0 1", "h1", "b7", None, None),
        ("7k/8/6K1/8/8/8/8/1n5B w - - 0 1", "h1", "e4", None, None),
        ("k7/8/1K6/8/8/8/8/1r5B w - - 0 1", "h1", "e4", None, None),
        ("k7/8/1K6/8/8/8/8/1b5N w - - 0 1", "h1", "g3", None, None),
        ("k7/8/1K6/8/8/8/8/7N w - - 0 1", "b6", "c6", "1/2-1/2", None),
        ("k7/8/1K6/8/8/8/8/1b5N w - - 0 1", "b6", "b7", None, None),
    ],
)
def test_the_laws_end_the_game(fen, origin, target, result, termination):
    scene = Scene(fen=fen)
    scene.move(origin, target, then=SETTLE)
    ended = scene.of(GameEnded)
    board = chess.Board(fen)
    board.push(chess.Move(chess.parse_square(origin), chess.parse_square(target)))
    outcome = board.outcome()
    assert [e.result for e in ended] == ([outcome.result()] if outcome else [])
    if result is not None:
        assert ended[0].result == result
    if termination is not None:
        assert ended[0].termination == termination


def test_fivefold_repetition_ends_the_game_and_threefold_is_only_claimable():
    scene = Scene()
    shuffle = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")]
    claims = []
    for _ in range(4):
        for origin, target in shuffle:
            scene.move(origin, target, then=SETTLE)
            claims += scene.of(ClaimsChanged)
            scene.events = [e for e in scene.events if not isinstance(e, ClaimsChanged)]
    assert [e.termination for e in scene.of(GameEnded)] == ["fivefold repetition"]
    assert scene.tracker.ply == 16
    first = claims[0]
    # After 2. Ng1 the start position can occur a third time... only after 4. Ng1: with 4...Ng8.
    assert first.claims[0].rule == "threefold"
    assert not first.claims[0].now
    assert first.claims[0].moves == ("Ng8",)
    assert first.ply == 7
    assert claims[1].ply == 8
    assert claims[1].claims[0].now


def test_seventy_five_moves_end_the_game_and_fifty_are_only_claimable():
    scene = Scene(fen="4k3/8/8/8/8/8/8/R3K3 w - - 98 80")
    scene.move("a1", "a2", then=SETTLE)
    [claims] = scene.of(ClaimsChanged)
    assert claims.claims[0].rule == "fifty-moves"
    assert not claims.claims[0].now
    assert "Kd7" in claims.claims[0].moves
    scene.move("e8", "d8", then=SETTLE)
    assert scene.of(ClaimsChanged)[-1].claims[0].now
    assert scene.of(GameEnded) == []
    late = Scene(fen="4k3/8/8/8/8/8/8/R3K3 w - - 149 120")
    late.move("a1", "a2", then=SETTLE)
    assert [e.termination for e in late.of(GameEnded)] == ["seventy-five moves"]


def test_a_locked_pawn_position_is_flagged_not_ended():
    scene = Scene(fen="8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1")
    scene.move("e2", "d2", then=SETTLE)
    assert [e.alert for e in scene.of(ArbiterAlert)] == ["dead-position"]
    assert scene.of(GameEnded) == []
    open_file = Scene(fen="8/4k3/1p1p3p/pPpP3P/P1P1P1P1/8/4K3/8 w - - 0 1")
    open_file.move("e2", "d2", then=SETTLE)
    assert open_file.of(ArbiterAlert) == []


# Flag fall


def test_flag_fall_loses():
    scene = Scene("e4", "e5")
    scene.press(chess.BLACK)
    scene.clock(flag=chess.WHITE)
    assert scene.of(FlagFell) == [FlagFell(player="white", at=scene.now)]
    assert scene.of(GameEnded) == [
        GameEnded(result=Result.BLACK_WINS, termination="flag fall (white)", at=scene.now)
    ]
    assert scene.kinds()[-2:] == ["flag", "end"]


def test_flag_fall_against_a_bare_king_draws():
    scene = Scene(fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    scene.clock(flag=chess.WHITE)
    [ended] = scene.of(GameEnded)
    assert ended.result == "1/2-1/2"
    assert ended.termination.startswith("flag fall, opponent cannot")


@pytest.mark.parametrize(
    ("rule", "kinds"), [(BothFlagsRule.ARBITER, ["alert"]), (BothFlagsRule.DRAW, ["end"])]
)
def test_both_flags_follow_the_announced_rule(rule, kinds):
    scene = Scene("e4", rules=Rules(both_flags=rule))
    scene.clock(flags=(True, True))
    assert scene.kinds() == kinds


# Adaptive settling


def test_time_trouble_waits_longer():
    scene = Scene()
    scene.times = [20, 20]
    scene.clock()
    scene.move("e2", "e4", then=SETTLE)
    assert scene.sans() == []
    scene.wait(SETTLE)
    assert scene.sans() == ["e4"]


# Replay after a reconnection


def test_replayed_log_decides_each_legal_continuation_and_skips_the_past():
    tracker = PositionTracker(settling=SETTLING)
    board = chess.Board()
    board.push_san("e4")
    tracker.observe(placement(board), 0.0, 0.0)
    tracker.settle(SETTLE, 0.0)
    history = [lifted(chess.Board(), chess.E2), placement(board)]
    for san in ("c5", "Nf3", "d6"):
        history.append(lifted(board, board.parse_san(san).from_square))
        board.push_san(san)
        history.append(placement(board))
    events = tracker.replay(history, 9.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["c5", "Nf3", "d6"]
    assert all(e.at == 9.0 for e in events)
    assert tracker.deadline is None


def test_replayed_slide_is_one_move_to_where_the_piece_stopped():
    board = chess.Board()
    for san in ("e4", "e5"):
        board.push_san(san)
    tracker = PositionTracker(board, settling=SETTLING)
    trail = [lifted(board, chess.F1)]
    for square in (chess.E2, chess.D3, chess.C4):
        step = board.copy()
        step.remove_piece_at(chess.F1)
        step.set_piece_at(square, chess.Piece(chess.BISHOP, chess.WHITE))
        trail.append(placement(step))
    board.push_san("Bc4")
    reply = board.copy()
    reply.push_san("Nc6")
    trail.append(placement(reply))
    events = tracker.replay(trail, 1.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["Bc4", "Nc6"]


def test_replayed_capture_with_the_captured_man_lifted_first_is_one_move():
    # 5.Nxe5 Nxe5 with the white knight lifted off e5 first: the board in between can be
    # read as 5...Nb8 6.Nc6 Nxc6 (three plies), which the log says never happened.
    board = chess.Board()
    for san in ("c4", "e5", "b3", "Nc6", "Bb2", "Nf6", "Nf3", "Bc5", "Nxe5"):
        board.push_san(san)
    tracker = PositionTracker(board, settling=SETTLING)
    history = [lifted(board, chess.E5)]
    without_both = board.copy()
    without_both.remove_piece_at(chess.E5)
    without_both.remove_piece_at(chess.C6)
    history.append(placement(without_both))
    board.push_san("Nxe5")
    history.append(placement(board))
    events = tracker.replay(history, 1.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["Nxe5"]


def test_replay_starts_after_the_last_showing_of_the_current_position():
    board = chess.Board()
    history = []
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        board.push_san(san)
        history.append(placement(board))
    tracker = PositionTracker(board, settling=SETTLING)
    board.push_san("e4")
    history.append(placement(board))
    events = tracker.replay(history, 1.0)
    assert [e.san for e in events if isinstance(e, MoveMade)] == ["e4"]


# Properties


@given(legal_games(60))
def test_random_games_played_square_by_square_are_reconstructed(game):
    tracker = PositionTracker(settling=SETTLING)
    board = chess.Board()
    now = 0.0
    decided: list[str] = []
    for move in game:
        shown = board.copy()
        shown.remove_piece_at(move.from_square)
        tracker.observe(placement(shown), now, now)
        now += 0.1
        board.push(move)
        tracker.observe(placement(board), now, now)
        now += SETTLE
        events = tracker.settle(now, now)
        decided += [e.uci for e in events if isinstance(e, MoveMade)]
        assert all(e.fen == fen(board) for e in events if isinstance(e, MoveMade))
    assert decided == [move.uci() for move in game]
    assert tracker.finished == (board.outcome() is not None)


def test_start_placement_constant_is_the_start_position():
    assert placement(chess.Board()) == START
