"""The sans-I/O DGT board protocol: bytes in, events out."""

from __future__ import annotations

import chess

from boardsim.board import VirtualBoard
from drivers.dgt.messages import Command
from drivers.dgt.protocol import DgtBoardProtocol
from drivers.events import (
    BoardEvent,
    FieldChange,
    LineNoise,
    Position,
    PositionSnapshot,
)

START_CODES = bytes(
    [8, 9, 10, 12, 11, 10, 9, 8] + [7] * 8 + [0] * 32 + [1] * 8 + [2, 3, 4, 6, 5, 4, 3, 2]
)


def position_of(board: chess.BaseBoard) -> Position:
    """A python-chess board as a driver Position (a1 first, FEN letters)."""
    pieces = (board.piece_at(square) for square in chess.SQUARES)
    return tuple(None if piece is None else piece.symbol() for piece in pieces)


def after_moves(*ucis: str) -> Position:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return position_of(board)


START = position_of(chess.BaseBoard())


def dump(codes: bytes = START_CODES) -> bytes:
    return bytes((0x86, 0x00, 0x43)) + codes


def update(index: int, code: int) -> bytes:
    return bytes((0x8E, 0x00, 0x05, index, code))


def started() -> DgtBoardProtocol:
    protocol = DgtBoardProtocol()
    protocol.receive_data(dump())
    assert protocol.events_received() == [PositionSnapshot(START)]
    return protocol


def test_start_queues_reset_board_and_update_nice() -> None:
    protocol = DgtBoardProtocol()

    protocol.start()

    assert protocol.data_to_send() == b"\x40\x42\x4b"
    assert protocol.data_to_send() == b""


def test_send_command_queues_one_byte() -> None:
    protocol = DgtBoardProtocol()

    protocol.send_command(Command.RETURN_SERIALNR)
    protocol.send_command(Command.SEND_VERSION)

    assert protocol.data_to_send() == b"\x45\x4d"


def test_no_position_before_first_dump() -> None:
    protocol = DgtBoardProtocol()

    assert protocol.position is None
    assert protocol.events_received() == []


def test_field_update_before_dump_emits_nothing() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(update(52, 0))

    assert protocol.events_received() == []
    assert protocol.position is None


def test_dump_emits_snapshot() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(dump())

    assert protocol.events_received() == [PositionSnapshot(START)]
    assert protocol.position == START
    # Events are handed out once.
    assert protocol.events_received() == []


def test_dump_arriving_in_two_reads_emits_snapshot() -> None:
    protocol = DgtBoardProtocol()
    data = dump()

    protocol.receive_data(data[:30])
    protocol.receive_data(data[30:])

    assert protocol.events_received() == [PositionSnapshot(START)]


def test_dump_then_updates_emit_field_changes() -> None:
    protocol = started()

    protocol.receive_data(update(52, 0) + update(36, 1))  # e2 lifted, pawn on e4

    lifted = list(START)
    lifted[chess.E2] = None
    assert protocol.events_received() == [
        FieldChange(chess.E2, None, tuple(lifted)),
        FieldChange(chess.E4, "P", after_moves("e2e4")),
    ]
    assert protocol.position == after_moves("e2e4")


def test_updates_before_dump_are_not_applied_later() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(update(52, 0) + dump() + update(12, 0))  # e2 lifted, then e7

    events = protocol.events_received()
    assert events[0] == PositionSnapshot(START)
    assert len(events) == 2
    assert isinstance(events[1], FieldChange)
    assert events[1].square == chess.E7
    assert events[1].position[chess.E2] == "P"


def test_second_dump_replaces_position() -> None:
    protocol = started()
    protocol.receive_data(update(52, 0))
    protocol.events_received()

    protocol.receive_data(dump())

    assert protocol.events_received() == [PositionSnapshot(START)]
    assert protocol.position == START


def test_garbage_emits_line_noise() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(b"\x01\x02\x03\x04")

    events = protocol.events_received()
    assert events == [LineNoise(4, "no message start")]
    assert protocol.position is None


def test_garbage_between_messages_keeps_position() -> None:
    protocol = started()

    protocol.receive_data(b"\x11\x22" + update(36, 1))

    events = protocol.events_received()
    assert events[0] == LineNoise(2, "no message start")
    assert isinstance(events[1], FieldChange)
    assert events[1].square == chess.E4
    assert len(events) == 2


def test_bad_piece_code_in_dump_emits_line_noise_and_keeps_position() -> None:
    protocol = started()
    protocol.receive_data(update(52, 0) + update(36, 1))
    protocol.events_received()
    bad = bytearray(START_CODES)
    bad[20] = 16

    protocol.receive_data(dump(bytes(bad)))

    events = protocol.events_received()
    assert len(events) == 1
    assert isinstance(events[0], LineNoise)
    assert events[0].discarded == 67
    assert "0x86" in events[0].reason
    assert "unknown piece code 16" in events[0].reason
    assert protocol.position == after_moves("e2e4")


def test_bad_dump_before_any_position_leaves_no_position() -> None:
    protocol = DgtBoardProtocol()
    bad = bytearray(START_CODES)
    bad[0] = 99

    protocol.receive_data(dump(bytes(bad)))

    assert [type(event) for event in protocol.events_received()] == [LineNoise]
    assert protocol.position is None


def test_bad_field_update_emits_line_noise() -> None:
    protocol = started()

    protocol.receive_data(update(64, 1) + update(10, 20))

    events = protocol.events_received()
    assert [type(event) for event in events] == [LineNoise, LineNoise]
    assert all(isinstance(e, LineNoise) and e.discarded == 5 for e in events)
    assert protocol.position == START


def test_other_messages_are_skipped_quietly() -> None:
    protocol = started()

    protocol.receive_data(b"\x91\x00\x0801234" + b"\x93\x00\x05\x01\x07")

    assert protocol.events_received() == []
    assert protocol.position == START


def converse(protocol: DgtBoardProtocol, board: VirtualBoard) -> list[BoardEvent]:
    """Carry bytes both ways until neither side has anything to say."""
    while True:
        to_board = protocol.data_to_send()
        board.receive_data(to_board)
        to_host = board.data_to_send()
        protocol.receive_data(to_host)
        if not to_board and not to_host:
            return protocol.events_received()


def test_conversation_with_virtual_board() -> None:
    board = VirtualBoard()
    protocol = DgtBoardProtocol()
    protocol.start()

    assert converse(protocol, board) == [PositionSnapshot(START)]
    assert board.commands_received == [0x40, 0x42, 0x4B]

    # 1. e4: the pawn is lifted from e2 (DGT 52) and put on e4 (DGT 36).
    board.set_square(52, 0)
    board.set_square(36, 1)
    events = converse(protocol, board)

    assert [(e.square, e.piece) for e in events if isinstance(e, FieldChange)] == [
        (chess.E2, None),
        (chess.E4, "P"),
    ]
    assert len(events) == 2
    assert protocol.position == after_moves("e2e4")

    # 1... d5 2. exd5: the captured pawn comes off first.
    board.set_square(11, 0)
    board.set_square(27, 7)
    board.set_square(27, 0)
    board.set_square(36, 0)
    board.set_square(27, 1)
    events = converse(protocol, board)

    assert len(events) == 5
    assert all(isinstance(e, FieldChange) for e in events)
    assert protocol.position == after_moves("e2e4", "d7d5", "e4d5")


def test_conversation_board_dump_matches_board_after_changes() -> None:
    board = VirtualBoard()
    board.set_square(52, 0)  # idle: unreported
    board.set_square(36, 1)
    protocol = DgtBoardProtocol()
    protocol.start()

    events = converse(protocol, board)

    assert events == [PositionSnapshot(after_moves("e2e4"))]
