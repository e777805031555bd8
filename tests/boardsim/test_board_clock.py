"""The clock seen through the board: BWTIME per update mode, acks, and clock log records."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardsim.board import VirtualBoard
from boardsim.bwtime import time_data
from boardsim.clock import Bonus, Button, Dgt3000, Side, TimeControl

SEND_RESET = 0x40
SEND_CLK = 0x41
SEND_UPDATE = 0x43
SEND_UPDATE_BRD = 0x44
SEND_EE_MOVES = 0x49
SEND_UPDATE_NICE = 0x4B


def clock_message(command: int, payload: bytes = b"") -> bytes:
    """``2B, size, 03, command, payload…, 00`` with size = total length - 2."""
    return bytes((0x2B, len(payload) + 3, 0x03, command, *payload, 0x00))


def board_with_clock(*, ack_delay: tuple[float, float] = (0.0, 0.0)) -> VirtualBoard:
    clock = Dgt3000(TimeControl(5400, 30), ack_delay=ack_delay)
    return VirtualBoard(clock=clock, now=0.0)


def bwtimes(data: bytes) -> list[bytes]:
    """The BWTIME messages in ``data`` (which must hold nothing else)."""
    assert len(data) % 10 == 0, data.hex()
    messages = [data[i : i + 10] for i in range(0, len(data), 10)]
    assert all(m[:3] == bytes((0x8D, 0, 10)) for m in messages), data.hex()
    return messages


def test_send_clk_reports_both_sides_and_the_status() -> None:
    board = board_with_clock()
    board.press_lever(Side.RIGHT, now=0.0)  # Black (right) starts White's (left) clock
    board.advance(10.0)

    board.receive_data(bytes((SEND_CLK,)))

    # Right 1:30:00, left 1:29:50 (both with the per-move bit 0x20); running, left's turn.
    assert board.data_to_send() == bytes((0x8D, 0, 10, 0x21, 0x30, 0x00, 0x21, 0x29, 0x50, 0x11))


def test_update_sends_bwtime_at_once_and_then_every_second() -> None:
    board = board_with_clock()

    board.receive_data(bytes((SEND_UPDATE,)), now=0.0)
    assert len(bwtimes(board.data_to_send())) == 1
    assert board.next_deadline() == pytest.approx(1.0)

    board.advance(0.9)
    assert board.data_to_send() == b""
    board.advance(1.0)
    board.advance(2.0)
    assert len(bwtimes(board.data_to_send())) == 2


def test_update_nice_sends_bwtime_only_on_change() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)
    board.advance(5.0)
    assert board.data_to_send() == b""  # a stopped clock does not change
    assert board.next_deadline() is None

    board.press_lever(Side.RIGHT, now=5.0)  # the lever moved: a change
    (started,) = bwtimes(board.data_to_send())
    assert started[9] == 0x11

    deadline = board.next_deadline()
    assert deadline is not None
    board.advance(deadline)
    (ticked,) = bwtimes(board.data_to_send())
    assert ticked[6:9] == bytes((0x21, 0x29, 0x59))


def test_send_clk_keeps_the_update_mode() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE, SEND_CLK)))
    board.data_to_send()

    board.set_square(52, 0)

    assert board.data_to_send() == bytes((0x8E, 0, 5, 52, 0))


def test_version_ack_arrives_in_update_nice() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)) + clock_message(0x09), now=1.0)

    assert board.data_to_send() == bytes((0x8D, 0, 10, 0x0A, 0x10, 0x09, 0x0A, 0x22, 0x00, 0))
    assert board.commands_received == [SEND_UPDATE_NICE, 0x2B]


@pytest.mark.parametrize("mode_command", [SEND_RESET, SEND_UPDATE_BRD])
def test_no_acks_outside_update_and_update_nice(mode_command: int) -> None:
    board = board_with_clock()

    board.receive_data(bytes((mode_command,)) + clock_message(0x09), now=1.0)
    board.advance(10.0)

    assert board.data_to_send() == b""


def test_acks_wait_for_the_clock() -> None:
    board = board_with_clock(ack_delay=(0.3, 1.5))
    board.receive_data(bytes((SEND_UPDATE_NICE,)) + clock_message(0x0B, bytes((4,))), now=1.0)

    board.advance(1.29)
    assert board.data_to_send() == b""

    deadline = board.next_deadline()
    assert deadline is not None
    assert 1.3 <= deadline <= 2.5
    board.advance(deadline)
    assert board.data_to_send() == bytes((0x8D, 0, 10, 0x0A, 0x10, 0x0B, 0x0A, 0, 0, 0))
    assert board.clock is not None
    assert board.clock.beeps == [256]


def test_setnrun_through_the_board_sets_and_runs_the_clock() -> None:
    board = board_with_clock()
    # Left 1:00:00, right 0:30:00 (binary), left counts down, toggle on lever.
    setnrun = clock_message(0x0A, bytes((1, 0, 0, 0, 30, 0, 0x01 | 0x08)))
    assert setnrun == bytes.fromhex("2b0a030a010000001e000900")

    board.receive_data(bytes((SEND_UPDATE_NICE,)) + setnrun, now=0.0)
    data = board.data_to_send()

    ack, state = bwtimes(data)
    assert ack == bytes((0x8D, 0, 10, 0x0A, 0x10, 0x0A, 0x0A, 0, 0, 0))
    # Right 0:30:00, left 1:00:00, running, left's turn.
    assert state[3:] == bytes((0x20, 0x30, 0x00, 0x21, 0x00, 0x00, 0x10 | 0x02 | 0x01))


def test_setnrun_refused_outside_mode_23() -> None:
    board = board_with_clock()
    assert board.clock is not None
    board.clock.leave_mode23(0.0)
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)

    board.receive_data(clock_message(0x0A, bytes((1, 0, 0, 0, 30, 0, 0x09))), now=0.0)

    assert board.data_to_send() == bytes((0x8D, 0, 10, 0x0A, 0x40, 0x0A, 0x0A, 0, 0, 0))


def test_button_press_ack() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)

    board.press_button(Button.RUN, now=2.0)

    # ack1 0x88 puts bit 5 in byte 6; ack2 0x01 | 0x10 (run), ack3 0x33 (run).
    assert board.data_to_send() == bytes((0x8D, 0, 10, 0x0A, 0x10, 0x08, 0x2A, 0x11, 0x33, 0))


def test_malformed_clock_messages_are_noted_and_the_board_carries_on() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)

    board.receive_data(bytes((0x2B, 0x03, 0x05, 0x09, 0x00)))  # no 0x03 start byte
    board.receive_data(bytes((0x2B, 0x7F)))  # impossible size
    board.receive_data(bytes((0x42,)))

    assert len(board.errors) == 2
    assert board.data_to_send()[:3] == bytes((0x86, 0, 67))


def test_clock_messages_without_a_clock_get_no_ack() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)) + clock_message(0x09), now=0.0)
    board.advance(5.0)

    assert board.data_to_send() == b""


def test_a_flag_fall_shows_in_bwtime() -> None:
    board = VirtualBoard(clock=Dgt3000(TimeControl(60, 0), ack_delay=(0, 0)), now=0.0)
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)
    board.press_lever(Side.RIGHT, now=0.0)
    board.data_to_send()

    board.advance(61.0)
    messages = bwtimes(board.data_to_send())

    final = messages[-1]
    assert final[6:9] == bytes((0x50, 0x00, 0x00))  # flag fallen and shown, 0:00:00
    assert final[9] & 0x01 == 0  # stopped


def test_low_battery_and_unplugged_clock_in_bwtime() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)

    board.set_battery_low(True)
    board.advance(1.0)
    (low,) = bwtimes(board.data_to_send())
    assert low[9] & 0x04

    assert board.clock is not None
    board.clock.set_connected(False, 2.0)
    board.advance(2.0)
    (gone,) = bwtimes(board.data_to_send())
    assert gone[3:] == bytes((0, 0, 0, 0, 0, 0, 0x20))

    board.clock.set_connected(True, 3.0)
    board.advance(3.0)
    ready, back = bwtimes(board.data_to_send())
    assert ready[3:] == bytes((0x0A, 0x10, 0x01, 0x2A, 0, 0, 0))  # ack1 0x81: ready
    assert back[9] & 0x20 == 0


def test_lever_changes_write_clock_records() -> None:
    board = board_with_clock()
    board.press_lever(Side.RIGHT, now=0.0)  # right halted at 1:30:00
    board.press_lever(Side.LEFT, now=10.0)  # left halted at 1:29:50 + 30 s = 1:30:20

    log = board.log.contents()

    assert log[-6:] == bytes((0x61, 0x30, 0x00, 0x71, 0x30, 0x20))


def test_clock_records_are_in_the_ee_moves_dump() -> None:
    board = board_with_clock()
    board.press_lever(Side.RIGHT, now=0.0)
    board.press_lever(Side.RIGHT, now=1.0)  # already down: no lever change, no record

    board.receive_data(bytes((SEND_EE_MOVES,)))

    assert board.data_to_send()[-5:] == bytes((0x6F, 0x61, 0x30, 0x00, 0x6B))


def test_a_clock_stopped_at_the_end_of_a_game_reports_itself_stopped() -> None:
    board = board_with_clock()
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)
    board.press_lever(Side.RIGHT, now=0.0)  # White's (left) time runs
    board.advance(5.0)
    board.data_to_send()

    board.stop_clock(now=5.5)

    (stopped,) = bwtimes(board.data_to_send())
    assert not stopped[9] & 0x01  # the status byte's running bit
    board.advance(60.0)
    assert board.data_to_send() == b""  # stopped: no second changes any more
    assert board.clock is not None
    assert board.clock.remaining_ms(Side.LEFT) == (5400 - 5.5) * 1000


ACTIONS = ("press-left", "press-right", "stop", "reset", "setnrun", "battery", "unplug", "plug")


@given(
    st.lists(
        st.tuples(
            st.one_of(st.integers(0, 3).map(float), st.floats(0, 3), st.just(0.0005)),
            st.sampled_from(ACTIONS),
            st.floats(0, 1),
        ),
        max_size=40,
    ),
    st.sampled_from(
        [
            TimeControl(5, 2),
            TimeControl(4, 1, Bonus.DELAY),
            TimeControl(6, 2, Bonus.BRONSTEIN),
            TimeControl(3, 0, stop_at_flag=False),
        ]
    ),
)
def test_the_time_the_board_remembers_is_the_time_the_clock_shows(actions, control) -> None:
    clock = Dgt3000(control, ack_delay=(0.0, 0.0))
    board = VirtualBoard(clock=clock, now=0.0)
    board.receive_data(bytes((SEND_UPDATE_NICE,)), now=0.0)
    now = 0.0
    for gap, action, within in actions:
        now += gap
        if action.startswith("press"):
            board.press_lever(Side.LEFT if action == "press-left" else Side.RIGHT, now)
        elif action == "stop":
            board.stop_clock(now)
        elif action == "reset":
            clock.reset(now)
        elif action == "setnrun":
            board.receive_data(clock_message(0x0A, bytes((0, 0, 4, 0, 0, 3, 0x09))), now)
        elif action == "battery":
            board.set_battery_low(not clock.battery_low)
        else:
            clock.set_connected(action == "plug", now)
        board.advance(now)
        # The memo against the clock read afresh: at the step, between steps, and on
        # either side of the moment the shown seconds change (half a millisecond before
        # what next_display_change gives).
        change = clock.next_display_change(now)
        probes = [now, now + within * gap]
        if change is not None:
            probes += [change - 0.0006, change - 0.0004, change]
        for at in probes:
            fresh = time_data(clock.reading(at) if clock.connected else None)
            assert board.time_data(at) == fresh, (action, at)
