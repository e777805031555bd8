"""Games as hand actions: set-up, untidy habits, clock presses and result gestures."""

from __future__ import annotations

import random
from dataclasses import replace

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.board_log import Tag
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from boardsim.performance import Place, PressLever, Step, perform_game, perform_on
from boardsim.pieces import ROTATED_START_POSITION, position_of, rotated
from boardsim.scanner import ScanTiming
from tests.strategies import legal_games

STEADY = Pace(ply_seconds=10.0, touch_seconds=1.0, jitter=0.0)
NO_GESTURES = replace(NoiseModel.messy(), result_gesture=0.0)


def moves_of(*uci: str) -> list[chess.Move]:
    return [chess.Move.from_uci(u) for u in uci]


def final_position(moves: list[chess.Move]) -> tuple[int, ...]:
    board = chess.Board()
    for move in moves:
        board.push(move)
    return position_of(board)


def play(
    moves: list[chess.Move], board: VirtualBoard | None = None, **options: object
) -> VirtualBoard:
    board = board or VirtualBoard(now=0.0)
    defaults: dict[str, object] = {"pace": STEADY, "rng": random.Random(1)}
    defaults.update(options)
    perform_on(board, perform_game(moves, initial=board.squares, **defaults), start=0.0)  # type: ignore[arg-type]
    return board


@given(legal_games(80), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_untidy_play_always_ends_in_the_final_position(
    moves: list[chess.Move], seed: int, turned: bool
) -> None:
    board = play(moves, noise=NO_GESTURES, rng=random.Random(seed), rotated_board=turned)

    expected = final_position(moves)
    assert tuple(board.squares) == (rotated(expected) if turned else expected)


@given(legal_games(40), st.integers(min_value=0, max_value=10**6))
def test_what_a_host_hears_with_real_scans_adds_up_to_the_final_position(
    moves: list[chess.Move], seed: int
) -> None:
    board = VirtualBoard(timing=BoardTiming(scan=ScanTiming()), seed=seed, now=0.0)
    board.receive_data(bytes((0x42, 0x4B)), now=0.0)
    heard = bytearray(board.data_to_send())
    fast = Pace(ply_seconds=0.3, touch_seconds=0.05)
    steps = perform_game(moves, pace=fast, rng=random.Random(seed), noise=NO_GESTURES)

    end = perform_on(board, steps, start=0.0)
    board.advance(end + 1.0)
    heard += board.data_to_send()

    assert heard[:3] == bytes((0x86, 0, 67))
    seen = list(heard[3:67])
    updates = heard[67:]
    assert len(updates) % 5 == 0
    for i in range(0, len(updates), 5):
        assert updates[i : i + 3] == bytes((0x8E, 0, 5))
        seen[updates[i + 3]] = updates[i + 4]
    assert tuple(seen) == tuple(board.squares)
    assert tuple(board.squares) in (final_position(moves), rotated(final_position(moves)))


def test_clean_play_is_lift_then_place_and_a_clock_press() -> None:
    steps = list(perform_game(moves_of("e2e4"), pace=STEADY, rng=random.Random(1)))

    assert [step.action for step in steps] == [
        PressLever(Side.RIGHT),  # Black starts White's clock
        Place(52, 0),
        Place(36, 1),
        PressLever(Side.LEFT),
    ]
    assert [step.delay for step in steps] == [1.0, 10.0, 1.0, 1.0]
    assert steps[1].note == "e4"


def test_white_on_the_right_presses_the_right_side() -> None:
    steps = list(
        perform_game(moves_of("e2e4"), pace=STEADY, rng=random.Random(1), white_side=Side.RIGHT)
    )

    assert [s.action for s in steps if isinstance(s.action, PressLever)] == [
        PressLever(Side.LEFT),
        PressLever(Side.RIGHT),
    ]


def test_the_clock_keeps_the_right_times_with_increments() -> None:
    clock = Dgt3000(TimeControl(5400, 30), ack_delay=(0, 0))
    board = VirtualBoard(clock=clock, now=0.0)

    play(moves_of("e2e4", "e7e5", "g1f3"), board)

    # Each ply: 10 s thinking + 1 s between touches + 1 s to the clock = 12 s, then +30 s.
    assert clock.remaining_ms(Side.LEFT) == (5400 - 12 + 30 - 12 + 30) * 1000
    assert clock.remaining_ms(Side.RIGHT) == (5400 - 12 + 30) * 1000
    assert clock.running is Side.RIGHT
    log = board.log.contents()
    # Clock records of the halted side: Black's start (1:30:00), then each press.
    assert log.index(bytes((0x61, 0x30, 0x00))) < log.index(bytes((0x71, 0x30, 0x18)))
    assert log.index(bytes((0x71, 0x30, 0x18))) < log.index(bytes((0x61, 0x30, 0x18)))
    assert log.endswith(bytes((0x71, 0x30, 0x36)))


def test_a_clock_started_by_the_host_is_not_pressed_to_begin() -> None:
    steps = list(
        perform_game(moves_of("e2e4"), pace=STEADY, rng=random.Random(1), start_clock=False)
    )

    assert [step.action for step in steps] == [
        Place(52, 0),  # White's first move comes first
        Place(36, 1),
        PressLever(Side.LEFT),
    ]
    assert steps[0].ply == 1


def test_no_presses_without_the_clock() -> None:
    steps = perform_game(moves_of("e2e4"), pace=STEADY, rng=random.Random(1), press_clock=False)

    assert not any(isinstance(step.action, PressLever) for step in steps)


def test_a_rotated_set_up_is_built_square_by_square() -> None:
    board = play([], rotated_board=True)

    assert tuple(board.squares) == ROTATED_START_POSITION
    assert Tag.BEGINPOS_ROT in board.log.contents()


def test_moves_on_a_rotated_board_use_mirrored_indices() -> None:
    steps = list(
        perform_game(
            moves_of("e2e4"),
            pace=STEADY,
            rng=random.Random(1),
            rotated_board=True,
            press_clock=False,
        )
    )

    assert [s.action for s in steps if s.note == "e4"] == [Place(63 - 52, 0), Place(63 - 36, 1)]


def test_a_knocked_piece_falls_next_door_and_is_put_back() -> None:
    noise = NoiseModel(knock=1.0, knock_lands_nearby=1.0)
    steps = list(
        perform_game(
            moves_of("e2e4"), pace=STEADY, rng=random.Random(3), noise=noise, press_clock=False
        )
    )
    places = [s.action for s in steps if isinstance(s.action, Place)]

    assert places[0] == Place(52, 0)
    victim, landing = places[1], places[2]
    assert victim.piece == 0
    assert landing.piece != 0
    assert places[-2:] == [Place(landing.index, 0), Place(victim.index, landing.piece)]
    assert abs(victim.index % 8 - landing.index % 8) <= 1
    assert abs(victim.index // 8 - landing.index // 8) <= 1


def test_an_adjusted_piece_goes_back_to_its_square() -> None:
    noise = NoiseModel(adjust=1.0)
    for seed in range(6):
        steps = list(
            perform_game(
                moves_of("e2e4"),
                pace=STEADY,
                rng=random.Random(seed),
                noise=noise,
                press_clock=False,
            )
        )
        places = [s.action for s in steps if isinstance(s.action, Place)]
        assert len(places) == 4
        lifted, put_back = (places[0], places[1]) if places[0].index != 52 else places[2:]
        assert lifted.piece == 0
        assert put_back.index == lifted.index
        assert put_back.piece != 0


SCHOLARS_MATE = moves_of("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7")


@pytest.mark.parametrize(
    ("result", "white_king", "black_king"),
    [("1-0", "d5", "e4"), ("0-1", "d4", "e5"), ("1/2-1/2", "e4", "e5")],
)
def test_result_gesture_with_the_kings(result: str, white_king: str, black_king: str) -> None:
    noise = NoiseModel(result_gesture=1.0, result_markers=0.0)

    board = play(SCHOLARS_MATE, noise=noise, result=result, press_clock=False)

    squares = board.squares
    index = {
        name: (7 - int(name[1]) + 1) * 8 + "abcdefgh".index(name[0])
        for name in (white_king, black_king)
    }
    assert squares[index[white_king]] == 5
    assert squares[index[black_king]] == 11
    assert squares.count(5) == squares.count(11) == 1


@pytest.mark.parametrize(("result", "marker"), [("1-0", 14), ("0-1", 15), ("1/2-1/2", 13)])
def test_result_gesture_with_a_marker(result: str, marker: int) -> None:
    noise = NoiseModel(result_gesture=1.0, result_markers=1.0)

    board = play(SCHOLARS_MATE, noise=noise, result=result, press_clock=False)

    assert board.squares[35] == marker  # d4, the first empty centre square


def test_no_gesture_for_an_unfinished_game() -> None:
    noise = NoiseModel(result_gesture=1.0)
    steps = list(
        perform_game(SCHOLARS_MATE, pace=STEADY, rng=random.Random(1), noise=noise, result="*")
    )

    assert not any(step.note.startswith("result") for step in steps)


def test_pace_faster_divides_human_timings() -> None:
    pace = Pace(ply_seconds=1.5, touch_seconds=0.12).faster(10)

    assert pace.ply_seconds == pytest.approx(0.15)
    assert pace.touch_seconds == pytest.approx(0.012)
    with pytest.raises(ValueError, match="speed"):
        Pace().faster(0)


def test_noise_presets_and_validation() -> None:
    assert NoiseModel.preset("clean") == NoiseModel()
    assert NoiseModel.preset("messy").knock > 0
    with pytest.raises(ValueError, match="noise"):
        NoiseModel.preset("tidy")
    with pytest.raises(ValueError, match="probability"):
        NoiseModel(slide=1.5)


def test_step_is_a_value() -> None:
    assert Step(1.0, Place(0, 0)) == Step(1.0, Place(0, 0))
