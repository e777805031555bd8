"""Sensor scans: instant mode, and the partial states a 200-250 ms sweep produces."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.pieces import START_POSITION
from boardsim.scanner import Scanner, ScanTiming

E2, E4, E7, E5, B8, C6 = 52, 36, 12, 28, 1, 18
SEND_UPDATE_NICE = 0x4B

#: Fixed 256 ms sweeps from t=0: square i is read at 4 ms * i into each scan.
EVEN = ScanTiming(0.256, 0.256)


def scanner(timing: ScanTiming | None = EVEN) -> Scanner:
    return Scanner(START_POSITION, timing, random.Random(1), now=0.0)


def test_instant_scanner_reports_every_change_at_once() -> None:
    sensors = scanner(None)

    (scan,) = sensors.place(E2, 0, 1.0)

    assert (scan.at, scan.changes) == (1.0, ((E2, 0),))
    assert sensors.scanned[E2] == 0
    assert sensors.next_deadline() is None


def test_a_change_is_reported_when_its_sweep_ends() -> None:
    sensors = scanner()
    assert sensors.place(E2, 0, 0.1) == []  # e2 is read at 0.208: this sweep sees it
    assert sensors.next_deadline() == 0.256

    assert sensors.advance(0.25) == []
    (scan,) = sensors.advance(0.3)

    assert scan.at == 0.256
    assert scan.changes == ((E2, 0),)


def test_a_fast_move_inside_one_sweep_shows_only_the_end_state() -> None:
    sensors = scanner()
    sensors.place(E2, 0, 0.01)
    sensors.place(E4, 1, 0.02)

    (scan,) = sensors.advance(0.3)

    assert scan.changes == ((E4, 1), (E2, 0))


def test_a_piece_can_be_seen_on_both_squares() -> None:
    sensors = scanner()
    # e7 (index 12) is read at 0.048, e5 (index 28) at 0.112.
    sensors.place(E7, 0, 0.06)  # lifted after e7 was read
    sensors.place(E5, 7, 0.08)  # placed before e5 is read

    first, second = sensors.advance(0.6)

    assert first.changes == ((E5, 7),)
    assert first.squares[E7] == first.squares[E5] == 7  # the pawn twice
    assert second.changes == ((E7, 0),)


def test_a_lift_after_its_square_was_read_waits_for_the_next_sweep() -> None:
    sensors = scanner()
    sensors.place(E4, 1, 0.05)  # e4 (36) is read at 0.144: seen
    sensors.place(E2, 0, 0.22)  # e2 (52) was read at 0.208: not seen

    first, second = sensors.advance(0.6)

    assert first.changes == ((E4, 1),)
    assert second.changes == ((E2, 0),)


def test_a_slide_leaves_a_trail_of_partial_states() -> None:
    sensors = scanner()
    # The a2 pawn has gone; the a1 rook slides up the file, one square per sweep.
    scans = sensors.place(48, 0, 0.0)
    scans += sensors.place(56, 0, 0.27)
    for step, square in enumerate((48, 40, 32)):
        t = 0.27 + step * 0.256
        if step:
            scans += sensors.place(square + 8, 0, t)
        scans += sensors.place(square, 2, t)

    scans += sensors.advance(2.0)

    assert [scan.changes for scan in scans] == [
        ((48, 0),),
        ((48, 2), (56, 0)),
        ((40, 2), (48, 0)),
        ((32, 2), (40, 0)),
    ]


def test_idle_scanner_sleeps_and_jumps_ahead() -> None:
    sensors = scanner()

    assert sensors.next_deadline() is None
    assert sensors.advance(3600.0) == []
    sensors.place(E2, 0, 3600.0)

    deadline = sensors.next_deadline()
    assert deadline is not None
    assert 3600.0 < deadline <= 3600.0 + 0.256 * 2
    (scan,) = sensors.advance(deadline + 0.256)
    assert scan.changes == ((E2, 0),)


def test_scan_timing_parse() -> None:
    assert ScanTiming.parse("200-250") == ScanTiming(0.2, 0.25)
    assert ScanTiming.parse("225") == ScanTiming(0.225, 0.225)
    assert ScanTiming.parse("0") is None


def test_board_with_realistic_scans_reports_field_updates_at_scan_end() -> None:
    board = VirtualBoard(timing=BoardTiming(scan=EVEN), now=0.0)
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)

    board.set_square(E2, 0, now=0.01)
    board.set_square(E4, 1, now=0.02)
    assert board.data_to_send() == b""
    assert board.next_deadline() == 0.256

    board.advance(0.256)

    assert board.data_to_send() == bytes((0x8E, 0, 5, E4, 1, 0x8E, 0, 5, E2, 0))
    assert board.squares[E2] == 0
    assert board.scanned[E4] == 1


def test_send_brd_dumps_the_last_scan_not_the_hand_in_the_air() -> None:
    board = VirtualBoard(timing=BoardTiming(scan=EVEN), now=0.0)
    board.set_square(B8, 0, now=0.3)

    board.receive_data(bytes((0x42,)), now=0.31)

    assert board.data_to_send()[3 + B8] == 9  # the knight is still there for the firmware


@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0.0, max_value=0.4),
            st.integers(min_value=0, max_value=63),
            st.integers(min_value=0, max_value=12),
        ),
        max_size=30,
    ),
    st.integers(min_value=0, max_value=1000),
)
def test_scans_always_catch_up_with_the_board(
    changes: list[tuple[float, int, int]], seed: int
) -> None:
    sensors = Scanner(START_POSITION, ScanTiming(), random.Random(seed), now=0.0)
    now = 0.0
    replayed = list(START_POSITION)
    for pause, index, piece in changes:
        now += pause
        for scan in sensors.place(index, piece, now):
            for square, code in scan.changes:
                replayed[square] = code

    for scan in sensors.advance(now + 1.0):
        for square, code in scan.changes:
            replayed[square] = code
        assert scan.at <= now + 1.0

    assert tuple(replayed) == sensors.scanned == sensors.physical
    assert sensors.next_deadline() is None
