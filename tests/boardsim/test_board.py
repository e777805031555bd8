"""The virtual board's firmware, sans I/O: commands in, messages out."""

from __future__ import annotations

import pytest

from boardsim.board import START_POSITION, UpdateMode, VirtualBoard
from boardsim.modes import LineMode
from boardsim.wire import bus_command

SEND_RESET = 0x40
SEND_BRD = 0x42
SEND_UPDATE = 0x43
SEND_UPDATE_BRD = 0x44
RETURN_SERIALNR = 0x45
SEND_TRADEMARK = 0x47
SEND_UPDATE_NICE = 0x4B
SEND_VERSION = 0x4D
RETURN_LONG_SERIALNR = 0x55


def answer(board: VirtualBoard, *commands: int) -> bytes:
    board.receive_data(bytes(commands))
    return board.data_to_send()


def total_length(message: bytes) -> int:
    return (message[1] << 7) | message[2]


def test_start_position_table() -> None:
    # a8 black rook, e8 black king, e1 white king, h1 white rook.
    assert len(START_POSITION) == 64
    assert (START_POSITION[0], START_POSITION[4]) == (8, 11)
    assert (START_POSITION[60], START_POSITION[63]) == (5, 2)
    assert START_POSITION[8:16] == (7,) * 8
    assert START_POSITION[48:56] == (1,) * 8


def test_send_brd_answers_board_dump() -> None:
    board = VirtualBoard()

    data = answer(board, SEND_BRD)

    assert len(data) == 67
    assert data[:3] == bytes((0x86, 0x00, 0x43))
    assert data[3:] == bytes(START_POSITION)
    assert board.data_to_send() == b""


def test_board_dump_reflects_set_square() -> None:
    board = VirtualBoard()
    board.set_square(52, 0)
    board.set_square(36, 1)

    data = answer(board, SEND_BRD)

    assert data[3 + 52] == 0
    assert data[3 + 36] == 1
    assert board.squares[36] == 1


def test_new_board_is_idle_and_silent() -> None:
    board = VirtualBoard()

    assert board.mode is UpdateMode.IDLE
    board.set_square(52, 0)

    assert board.data_to_send() == b""
    assert board.squares[52] == 0


@pytest.mark.parametrize(
    ("command", "mode"),
    [
        (SEND_UPDATE, UpdateMode.UPDATE),
        (SEND_UPDATE_BRD, UpdateMode.UPDATE_BOARD),
        (SEND_UPDATE_NICE, UpdateMode.UPDATE_NICE),
    ],
)
def test_update_modes_report_field_updates(command: int, mode: UpdateMode) -> None:
    board = VirtualBoard()

    # Without a clock, UPDATE reports "no clock" at once (it sends BWTIME every second).
    expected = bytes((0x8D, 0, 10, 0, 0, 0, 0, 0, 0, 0x20)) if command == SEND_UPDATE else b""
    assert answer(board, command) == expected
    assert board.mode is mode

    board.set_square(52, 0)
    assert board.data_to_send() == bytes((0x8E, 0x00, 0x05, 52, 0))


def test_field_update_after_update_nice() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)))

    board.set_square(36, 1)
    data = board.data_to_send()

    assert len(data) == 5
    assert data == bytes((0x8E, 0x00, 0x05, 36, 1))
    assert total_length(data) == 5


def test_setting_the_same_piece_again_reports_nothing() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)))

    board.set_square(0, 8)  # a8 already holds the black rook

    assert board.data_to_send() == b""


def test_send_brd_keeps_update_mode() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE, SEND_BRD)))
    assert len(board.data_to_send()) == 67

    board.set_square(10, 0)

    assert board.data_to_send() == bytes((0x8E, 0x00, 0x05, 10, 0))


def test_send_reset_stops_updates() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)))
    board.set_square(52, 0)
    assert board.data_to_send() != b""

    board.receive_data(bytes((SEND_RESET,)))
    board.set_square(36, 1)

    assert board.mode is UpdateMode.IDLE
    assert board.data_to_send() == b""
    assert board.squares[36] == 1


def test_set_position_reports_each_changed_square() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)))
    target = list(START_POSITION)
    target[52], target[36] = 0, 1

    board.set_position(target)

    assert board.data_to_send() == bytes((0x8E, 0, 5, 36, 1, 0x8E, 0, 5, 52, 0))
    assert board.squares == target


def test_serial_number_answer() -> None:
    data = answer(VirtualBoard(serial_number="54321"), RETURN_SERIALNR)

    assert data[0] == 0x91
    assert len(data) == total_length(data) == 8
    assert data[3:] == b"54321"


def test_long_serial_number_answer() -> None:
    data = answer(VirtualBoard(serial_number="54321"), RETURN_LONG_SERIALNR)

    assert data[0] == 0xA2
    assert len(data) == total_length(data) == 13
    text = data[3:].decode("ascii")
    assert len(text) == 10
    assert text.isprintable()
    assert "54321" in text


def test_version_answer() -> None:
    data = answer(VirtualBoard(version=(2, 3)), SEND_VERSION)

    assert data == bytes((0x93, 0x00, 0x05, 2, 3))


def test_trademark_answer() -> None:
    trademark = "Digital Game Technology"

    data = answer(VirtualBoard(trademark=trademark), SEND_TRADEMARK)

    assert data[0] == 0x92
    assert len(data) == total_length(data) == len(trademark) + 3
    assert data[3:] == trademark.encode("ascii")


def test_default_trademark_answer_is_well_formed() -> None:
    data = answer(VirtualBoard(), SEND_TRADEMARK)

    assert data[0] == 0x92
    assert len(data) == total_length(data)
    assert not any(byte & 0x80 for byte in data[1:])


def test_answers_queue_in_command_order() -> None:
    board = VirtualBoard()

    data = answer(board, SEND_VERSION, RETURN_SERIALNR)

    assert data == bytes((0x93, 0, 5, 1, 7, 0x91, 0, 8)) + b"01234"
    assert board.commands_received == [SEND_VERSION, RETURN_SERIALNR]


def test_unknown_commands_are_ignored_but_recorded() -> None:
    board = VirtualBoard()

    assert answer(board, 0x00, 0x7F, 0x4A) == b""
    assert board.commands_received == [0x00, 0x7F, 0x4A]
    assert board.mode is UpdateMode.IDLE
    assert board.errors == ["unknown command 0x00", "unknown command 0x7f"]


@pytest.mark.parametrize("serial_number", ["1234", "123456", "abcde", "", "12 34"])
def test_bad_serial_number_raises(serial_number: str) -> None:
    with pytest.raises(ValueError, match="5 digits"):
        VirtualBoard(serial_number=serial_number)


@pytest.mark.parametrize(("index", "piece"), [(-1, 0), (64, 0), (0, -1), (0, 16)])
def test_set_square_rejects_bad_arguments(index: int, piece: int) -> None:
    board = VirtualBoard()

    with pytest.raises(ValueError, match="square"):
        board.set_square(index, piece)
    assert board.squares == list(START_POSITION)


@pytest.mark.parametrize("length", [0, 63, 65])
def test_set_position_rejects_wrong_length(length: int) -> None:
    with pytest.raises(ValueError, match="64 squares"):
        VirtualBoard().set_position([0] * length)


def test_marker_pieces_are_allowed() -> None:
    board = VirtualBoard()
    board.receive_data(bytes((SEND_UPDATE_NICE,)))

    board.set_square(27, 14)

    assert board.data_to_send() == bytes((0x8E, 0, 5, 27, 14))


# -- the rest of the single-board commands ---------------------------------------------------

SEND_CLK = 0x41
RETURN_BUSADRES = 0x46
SEND_EE_MOVES = 0x49
TO_BUSMODE = 0x4A
SEND_BATTERY_STATUS = 0x4C


def test_send_clk_without_a_clock_reports_no_clock() -> None:
    board = VirtualBoard()

    assert answer(board, SEND_CLK) == bytes((0x8D, 0, 10, 0, 0, 0, 0, 0, 0, 0x20))
    assert board.mode is UpdateMode.IDLE


def test_bus_address_answer() -> None:
    # "01025" is 0x401: high seven bits 0x08, low seven bits 0x01.
    assert answer(VirtualBoard(serial_number="01025"), RETURN_BUSADRES) == bytes(
        (0x90, 0, 5, 0x08, 0x01)
    )


def test_ee_moves_dumps_the_power_up_log_and_ends_with_eof() -> None:
    board = VirtualBoard()

    data = answer(board, SEND_EE_MOVES)

    assert data[0] == 0x8F
    assert len(data) == total_length(data)
    log = data[3:]
    assert log[:4] == bytes((0x7F, 0x7F, 0x7F, 0x6A))
    records = log[4 : 4 + 64]
    pieces = {records[i + 1]: records[i] & 0x0F for i in range(0, 64, 2)}
    assert pieces == {i: p for i, p in enumerate(START_POSITION) if p}
    assert all(0x40 <= records[i] <= 0x5F for i in range(0, 64, 2))
    assert log[68:] == bytes((0x6F, 0x6B))  # BEGINPOS, then EOF


def test_ee_moves_writes_downloaded_after_the_dump() -> None:
    board = VirtualBoard()
    first = answer(board, SEND_EE_MOVES)

    second = answer(board, SEND_EE_MOVES)

    assert 0x6E not in first[3:]
    assert second[3:] == first[3:-1] + bytes((0x6E, 0x6B))


def test_ee_moves_records_field_changes_with_the_quick_bit() -> None:
    board = VirtualBoard(now=0.0)
    board.set_square(52, 0, now=10.0)  # e2 lifted
    board.set_square(36, 1, now=10.1)  # e4: 100 ms later, so "quick"
    board.set_square(12, 0, now=20.0)  # e7 lifted, long after

    log = answer(board, SEND_EE_MOVES)[3:]

    assert log[-7:] == bytes((0x40, 52, 0x51, 36, 0x40, 12, 0x6B))


def test_battery_status_is_twelve_bytes() -> None:
    board = VirtualBoard(now=0.0)
    board.advance(3725.0)  # on for 1 h 2 min

    data = answer(board, SEND_BATTERY_STATUS)

    assert data == bytes((0xA0, 0, 12, 100, 0x7F, 0x7F, 1, 2, 0, 0, 0, 0x02))


def test_low_battery_shows_in_battery_status() -> None:
    board = VirtualBoard()
    board.set_battery_low(True)

    assert answer(board, SEND_BATTERY_STATUS)[3] == 5


def line_mode(board: VirtualBoard) -> LineMode:
    return board.line_mode


def test_board_powers_up_in_bus_mode_and_a_single_board_command_is_processed() -> None:
    board = VirtualBoard()
    assert line_mode(board) is LineMode.BUS

    assert answer(board, SEND_VERSION) == bytes((0x93, 0, 5, 1, 7))
    assert line_mode(board) is LineMode.SINGLE

    assert answer(board, TO_BUSMODE) == b""
    assert line_mode(board) is LineMode.BUS


def test_a_bus_command_in_single_mode_switches_back_and_is_not_processed() -> None:
    # Address 8517 = 0x42 << 7 | 0x45: its bytes look like SEND_BRD and RETURN_SERIALNR.
    board = VirtualBoard(serial_number="08517")
    board.receive_data(bytes((SEND_UPDATE_NICE,)))
    send_brd = bus_command(0x82, 8517)
    assert send_brd == bytes((0x82, 0x42, 0x45, 0x09))

    assert answer(board, *send_brd) == b""
    assert board.line_mode is LineMode.BUS
    assert board.mode is UpdateMode.IDLE

    reply = answer(board, *send_brd)
    assert reply[0] == 0x83
    assert len(reply) == 70


def test_no_field_updates_in_bus_mode_but_the_log_records_them() -> None:
    board = VirtualBoard(now=0.0)
    board.set_square(52, 0, now=1.0)

    assert board.data_to_send() == b""
    assert board.log.contents()[-2:] == bytes((0x40, 52))


def test_a_muted_board_hears_and_says_nothing_but_keeps_its_log() -> None:
    board = VirtualBoard(now=0.0)
    board.receive_data(bytes((SEND_UPDATE_NICE,)))
    board.mute()

    assert answer(board, SEND_BRD) == b""
    board.set_square(52, 0, now=1.0)
    assert board.data_to_send() == b""
    assert board.muted

    board.unmute()
    assert answer(board, SEND_BRD)[3 + 52] == 0
    assert board.log.contents()[-2:] == bytes((0x40, 52))


def test_a_timed_mute_ends_by_itself() -> None:
    board = VirtualBoard(now=0.0)
    board.mute(until=5.0)

    board.receive_data(bytes((SEND_VERSION,)), now=4.0)
    assert board.data_to_send() == b""

    board.receive_data(bytes((SEND_VERSION,)), now=5.0)
    assert board.data_to_send() == bytes((0x93, 0, 5, 1, 7))


def test_time_never_runs_backwards() -> None:
    board = VirtualBoard(now=10.0)

    board.advance(5.0)

    assert board.now == 10.0
