"""The virtual board's firmware, sans I/O: commands in, messages out."""

from __future__ import annotations

import pytest

from boardsim.board import START_POSITION, UpdateMode, VirtualBoard

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

    assert answer(board, command) == b""
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
