"""The sans-I/O DGT board protocol: bytes in, events out."""

from __future__ import annotations

import chess
import pytest

from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from drivers.dgt.clock_commands import encode_command
from drivers.dgt.messages import Command
from drivers.dgt.protocol import DgtBoardProtocol, DgtOptions
from drivers.events import (
    Beep,
    BoardEvent,
    BoardStatus,
    ClockButton,
    ClockButtonPressed,
    ClockCommandFailed,
    ClockCommandResult,
    ClockReading,
    FieldChange,
    Health,
    Lever,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
    RunMode,
    SetAndRun,
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
    protocol.receive_data(dump(), 0.0)
    assert protocol.events_received() == [PositionSnapshot(START)]
    return protocol


def test_start_queues_reset_board_and_update_nice() -> None:
    protocol = DgtBoardProtocol()

    protocol.start(0.0)

    # Reset, serial, long serial, version, battery, log (marks it), dump, clock, update nice.
    assert protocol.data_to_send() == b"\x40\x45\x55\x4d\x4c\x49\x42\x41\x4b"
    assert protocol.data_to_send() == b""


def test_no_position_before_first_dump() -> None:
    protocol = DgtBoardProtocol()

    assert protocol.position is None
    assert protocol.events_received() == []


def test_field_update_before_dump_emits_nothing() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(update(52, 0), 0.0)

    assert protocol.events_received() == []
    assert protocol.position is None


def test_dump_emits_snapshot() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(dump(), 0.0)

    assert protocol.events_received() == [PositionSnapshot(START)]
    assert protocol.position == START
    # Events are handed out once.
    assert protocol.events_received() == []


def test_dump_arriving_in_two_reads_emits_snapshot() -> None:
    protocol = DgtBoardProtocol()
    data = dump()

    protocol.receive_data(data[:30], 0.0)
    protocol.receive_data(data[30:], 0.0)

    assert protocol.events_received() == [PositionSnapshot(START)]


def test_dump_then_updates_emit_field_changes() -> None:
    protocol = started()

    protocol.receive_data(update(52, 0) + update(36, 1), 0.0)  # e2 lifted, pawn on e4

    lifted = list(START)
    lifted[chess.E2] = None
    assert protocol.events_received() == [
        FieldChange(chess.E2, None, tuple(lifted)),
        FieldChange(chess.E4, "P", after_moves("e2e4")),
    ]
    assert protocol.position == after_moves("e2e4")


def test_updates_before_dump_are_not_applied_later() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(update(52, 0) + dump() + update(12, 0), 0.0)  # e2 lifted, then e7

    events = protocol.events_received()
    assert events[0] == PositionSnapshot(START)
    assert len(events) == 2
    assert isinstance(events[1], FieldChange)
    assert events[1].square == chess.E7
    assert events[1].position[chess.E2] == "P"


def test_second_dump_replaces_position() -> None:
    protocol = started()
    protocol.receive_data(update(52, 0), 0.0)
    protocol.events_received()

    protocol.receive_data(dump(), 0.0)

    assert protocol.events_received() == [PositionSnapshot(START)]
    assert protocol.position == START


def test_garbage_emits_line_noise() -> None:
    protocol = DgtBoardProtocol()

    protocol.receive_data(b"\x01\x02\x03\x04", 0.0)

    events = protocol.events_received()
    assert events == [LineNoise(4, "no message start")]
    assert protocol.position is None


def test_garbage_between_messages_keeps_position() -> None:
    protocol = started()

    protocol.receive_data(b"\x11\x22" + update(36, 1), 0.0)

    events = protocol.events_received()
    assert events[0] == LineNoise(2, "no message start")
    assert isinstance(events[1], FieldChange)
    assert events[1].square == chess.E4
    assert len(events) == 2


def test_bad_piece_code_in_dump_emits_line_noise_and_keeps_position() -> None:
    protocol = started()
    protocol.receive_data(update(52, 0) + update(36, 1), 0.0)
    protocol.events_received()
    bad = bytearray(START_CODES)
    bad[20] = 16

    protocol.receive_data(dump(bytes(bad)), 0.0)

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

    protocol.receive_data(dump(bytes(bad)), 0.0)

    assert [type(event) for event in protocol.events_received()] == [LineNoise]
    assert protocol.position is None


def test_bad_field_update_emits_line_noise() -> None:
    protocol = started()

    protocol.receive_data(update(64, 1) + update(10, 20), 0.0)

    events = protocol.events_received()
    assert [type(event) for event in events] == [LineNoise, LineNoise]
    assert all(isinstance(e, LineNoise) and e.discarded == 5 for e in events)
    assert protocol.position == START


def test_identity_messages_update_the_board_status() -> None:
    protocol = started()

    protocol.receive_data(b"\x91\x00\x0801234" + b"\x93\x00\x05\x01\x07", 0.0)
    protocol.receive_data(b"\xa2\x00\x0d3.36012345" + b"\x90\x00\x05\x08\x01", 0.0)
    protocol.receive_data(b"\x92\x00\x0fDGT Projects", 0.0)

    statuses = protocol.events_received()
    assert [type(e) for e in statuses] == [BoardStatus] * 5
    status = protocol.status
    assert (status.serial, status.version) == ("01234", (1, 7))
    assert (status.long_serial, status.bus_address) == ("3.36012345", 1025)
    assert status.trademark == "DGT Projects"
    assert protocol.position == START


def converse(protocol: DgtBoardProtocol, board: VirtualBoard) -> list[BoardEvent]:
    """Carry bytes both ways until neither side has anything to say."""
    while True:
        to_board = protocol.data_to_send()
        board.receive_data(to_board)
        to_host = board.data_to_send()
        protocol.receive_data(to_host, 0.0)
        if not to_board and not to_host:
            return protocol.events_received()


def test_conversation_with_virtual_board() -> None:
    board = VirtualBoard()
    protocol = DgtBoardProtocol()
    protocol.start(0.0)

    assert [e for e in converse(protocol, board) if isinstance(e, PositionSnapshot)] == [
        PositionSnapshot(START)
    ]
    assert board.commands_received[-3:] == [0x42, 0x41, 0x4B]

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


def test_the_clock_is_read_with_the_board_so_the_first_press_after_connecting_is_seen():
    """In update mode nice a board reports its clock only when the clock changes: unasked,
    the host's first reading would be the first press after it connected (or after the link
    came back), and nobody could tell that reading for a press. The clock is read right
    after the dump, at start and after a resync, before anything else is reported."""
    board = VirtualBoard(clock=Dgt3000(TimeControl(300, 0)))
    board.press_lever(Side.RIGHT, 0.0)  # Black's side pressed: the clock runs for White
    protocol = DgtBoardProtocol()
    for connect, at in ((protocol.start, 0.0), (protocol.resync, 5.0)):
        board.advance(at)
        board.data_to_send()  # what the board said while no host listened is gone
        connect(at)
        events = converse(protocol, board)
        readings = [e for e in events if isinstance(e, ClockReading)]
        assert [type(e) for e in events if isinstance(e, PositionSnapshot | ClockReading)] == [
            PositionSnapshot,
            ClockReading,
        ]
        assert readings[0].running
        assert readings[0].lever == Lever.LEFT_UP
        # 1. e4 and White's press: the reading that follows is a change of the lever.
        board.set_square(52, 0)
        board.set_square(36, 1)
        board.press_lever(Side.LEFT)
        events = converse(protocol, board)
        assert [e.lever for e in events if isinstance(e, ClockReading)] == [Lever.RIGHT_UP]
        board.set_square(36, 0)  # taken back, Black's side pressed again; then unplugged
        board.set_square(52, 1)
        board.press_lever(Side.RIGHT)
        converse(protocol, board)
        protocol.lost("unplugged")


def test_conversation_board_dump_matches_board_after_changes() -> None:
    board = VirtualBoard()
    board.set_square(52, 0)  # idle: unreported
    board.set_square(36, 1)
    protocol = DgtBoardProtocol()
    protocol.start(0.0)

    events = converse(protocol, board)

    assert [e for e in events if isinstance(e, PositionSnapshot)] == [
        PositionSnapshot(after_moves("e2e4"))
    ]


# -- rotation, clock, health, resync -------------------------------------------------


def reversed_codes() -> bytes:
    return bytes(reversed(START_CODES))


def test_board_set_up_the_wrong_way_round_is_corrected():
    protocol = DgtBoardProtocol()
    protocol.receive_data(dump(reversed_codes()), 0.0)
    events = protocol.events_received()
    assert protocol.status.rotated
    assert BoardStatus in [type(e) for e in events]
    assert events[-1] == PositionSnapshot(START)
    # The board's own field 11 (d7) is White's e2 when turned round; 27 is e4.
    protocol.receive_data(update(11, 0) + update(27, 1), 0.0)
    changes = [e for e in protocol.events_received() if isinstance(e, FieldChange)]
    assert [(c.square, c.piece) for c in changes] == [(chess.E2, None), (chess.E4, "P")]
    assert protocol.position == after_moves("e2e4")


def test_rotation_is_only_decided_on_a_start_position():
    protocol = started()
    protocol.receive_data(update(52, 0), 0.0)  # not a start position either way round
    protocol.events_received()
    assert not protocol.status.rotated
    protocol.receive_data(dump(reversed_codes()), 0.0)
    assert protocol.status.rotated
    protocol.receive_data(dump(), 0.0)
    assert not protocol.status.rotated


def bwtime(left: int, right: int, status: int) -> bytes:
    def hms(seconds: int) -> tuple[int, int, int]:
        h, rest = divmod(seconds, 3600)
        m, s = divmod(rest, 60)
        return h, (m // 10) << 4 | m % 10, (s // 10) << 4 | s % 10

    return bytes((0x8D, 0x00, 0x0A, *hms(right), *hms(left), status))


def test_clock_readings_without_repeats_or_impossible_jumps():
    protocol = started()
    running_left = 0x01 | 0x10
    protocol.receive_data(bwtime(300, 300, running_left), 0.0)
    protocol.receive_data(bwtime(300, 300, running_left), 1.0)  # the same again
    protocol.receive_data(bwtime(299, 300, running_left), 1.0)
    protocol.receive_data(bwtime(350, 300, running_left), 2.0)  # up while running: impossible
    protocol.receive_data(bwtime(302, 299, 0x01 | 0x08), 3.0)  # pressed: increment added
    readings = [e for e in protocol.events_received() if isinstance(e, ClockReading)]
    assert [(r.left.seconds, r.right.seconds) for r in readings] == [
        (300, 300),
        (299, 300),
        (302, 299),
    ]
    assert protocol.status.clock_connected


def test_no_clock_is_reported_in_the_status():
    protocol = started()
    protocol.receive_data(bwtime(0, 0, 0x20), 0.0)
    assert protocol.status.clock_connected is False
    assert not [e for e in protocol.events_received() if isinstance(e, ClockReading)]


def ack(command_id: int, ack0: int = 0x10, ack3: int = 0) -> bytes:
    b3 = 0x0A | ((ack3 >> 2) & 0x20)
    b6 = 0x0A | ((ack0 >> 3) & 0x10) | ((command_id >> 2) & 0x20)
    return bytes((0x8D, 0x00, 0x0A, b3, ack0 & 0x7F, command_id & 0x7F, b6, 0, ack3 & 0x7F, 0))


def test_clock_command_acknowledged_and_button_presses_reported():
    protocol = started()
    command = SetAndRun(600, 600, RunMode.LEFT)
    protocol.send(command, 0.0)
    assert protocol.data_to_send() == encode_command(command)
    protocol.receive_data(ack(0x88, ack0=0, ack3=0x35), 0.5)  # OK button
    protocol.receive_data(ack(0x0A), 1.0)
    assert protocol.events_received() == [
        ClockButtonPressed(ClockButton.OK),
        ClockCommandResult(command, ok=True),
    ]


def test_unacknowledged_command_is_resent_by_advance():
    protocol = DgtBoardProtocol(DgtOptions(ack_timeout=1.0, clock_attempts=2))
    protocol.receive_data(dump(), 0.0)
    command = Beep(256)
    protocol.send(command, 0.0)
    sent = protocol.data_to_send()
    protocol.advance(1.0)
    assert protocol.data_to_send().startswith(sent)
    protocol.advance(2.0)
    failed = [e for e in protocol.events_received() if isinstance(e, ClockCommandFailed)]
    assert failed == [ClockCommandFailed(command, "no acknowledgement after 2 attempts")]


def test_health_follows_silence_after_the_keepalive():
    options = DgtOptions(keepalive_seconds=5.0, delayed_after=2.0, silent_after=10.0)
    protocol = DgtBoardProtocol(options)
    protocol.start(0.0)
    protocol.data_to_send()
    protocol.receive_data(dump(), 0.1)
    protocol.advance(5.0)
    assert protocol.data_to_send() == bytes((Command.SEND_CLK,))
    health = []
    for now in (6.0, 7.5, 15.5):
        protocol.advance(now)
        health.append(protocol.status.health)
    protocol.receive_data(bwtime(0, 0, 0x20), 16.0)
    health.append(protocol.status.health)
    protocol.lost("unplugged")
    health.append(protocol.status.health)
    assert health == [
        Health.ACTIVE,
        Health.DELAYED,
        Health.NOT_RESPONDING,
        Health.ACTIVE,
        Health.DISCONNECTED,
    ]


def ee_moves(records: bytes) -> bytes:
    size = len(records) + 3
    return bytes((0x8F, size >> 7, size & 0x7F)) + records


def test_resync_replays_what_the_board_logged_while_the_link_was_down():
    protocol = DgtBoardProtocol()
    protocol.start(0.0)
    protocol.data_to_send()
    protocol.receive_data(ee_moves(bytes([0x6A, 0x6B])), 0.1)  # first read: only a mark
    protocol.receive_data(dump(), 0.2)
    assert not [e for e in protocol.events_received() if isinstance(e, LogReplay)]

    protocol.resync(10.0)
    assert protocol.data_to_send() == bytes(
        (
            Command.SEND_RESET,
            Command.SEND_EE_MOVES,
            Command.SEND_BRD,
            Command.SEND_CLK,
            Command.SEND_UPDATE_NICE,
        )
    )
    # While away: 1. e4 e5 (e2 emptied, e4 white pawn, e7 emptied, e5 black pawn).
    log = bytes([0x6A, 0x6E, 0x40, 52, 0x41, 36, 0x40, 12, 0x47, 28, 0x6B])
    protocol.receive_data(ee_moves(log), 10.5)
    board_now = bytearray(START_CODES)
    board_now[52], board_now[36], board_now[12], board_now[28] = 0, 1, 0, 7
    protocol.receive_data(dump(bytes(board_now)), 11.0)
    events = [e for e in protocol.events_received() if not isinstance(e, BoardStatus)]
    assert isinstance(events[0], LogReplay)
    assert events[0].positions[1] == after_moves("e2e4")
    assert events[0].positions[-1] == after_moves("e2e4", "e7e5")
    assert events[1] == PositionSnapshot(after_moves("e2e4", "e7e5"))


def test_set_times_are_believed_even_when_they_go_up():
    protocol = started()
    running_left = 0x01 | 0x10
    protocol.receive_data(bwtime(300, 300, running_left), 0.0)
    command = SetAndRun(600, 420, RunMode.LEFT)
    protocol.send(command, 1.0)
    protocol.receive_data(ack(0x0A), 1.5)
    protocol.receive_data(bwtime(600, 420, running_left), 2.0)
    protocol.receive_data(bwtime(599, 420, running_left), 3.0)
    readings = [e for e in protocol.events_received() if isinstance(e, ClockReading)]
    assert [r.left.seconds for r in readings] == [300, 600, 599]


def test_a_long_log_still_arriving_is_an_answer():
    options = DgtOptions(keepalive_seconds=5.0, delayed_after=2.0)
    protocol = DgtBoardProtocol(options)
    protocol.start(0.0)
    protocol.data_to_send()
    log = ee_moves(bytes([0x7F] * 3000))
    for second in range(1, 4):  # three seconds of a 9600-baud transfer, still incomplete
        protocol.receive_data(log[(second - 1) * 900 : second * 900], float(second))
        protocol.advance(float(second) + 0.5)
        assert protocol.status.health is Health.ACTIVE


def test_replay_after_reconnect_holds_only_what_happened_while_away():
    protocol = DgtBoardProtocol()
    protocol.start(0.0)
    protocol.receive_data(ee_moves(bytes([0x6A, 0x6B])), 0.1)
    protocol.receive_data(dump(), 0.2)
    # Seen live: 1. Nf3 (g1 emptied, knight on f3).
    protocol.receive_data(update(62, 0) + update(45, 3), 1.0)
    protocol.events_received()
    protocol.resync(5.0)
    protocol.data_to_send()
    # The log since the last read holds Nf3 (seen) and then Nf6 (made while away).
    log = bytes([0x6E, 0x40, 62, 0x43, 45, 0x40, 6, 0x49, 21, 0x6B])
    protocol.receive_data(ee_moves(log), 5.5)
    replays = [e for e in protocol.events_received() if isinstance(e, LogReplay)]
    assert replays == [
        LogReplay(((*after_moves("g1f3")[:62], None, "r"), after_moves("g1f3", "g8f6")))
    ]


def test_resuming_host_gets_the_log_since_the_last_power_up():
    protocol = DgtBoardProtocol(DgtOptions(resume=True))
    protocol.start(0.0)
    # Power-up, every piece logged (start position), then 1. e4 while no host listened.
    pieces = [
        byte for index, code in enumerate(START_CODES) if code for byte in (0x40 | code, index)
    ]
    log = bytes([0x6A, *pieces, 0x40, 52, 0x41, 36, 0x6B])
    protocol.receive_data(ee_moves(log), 0.1)
    replays = [e for e in protocol.events_received() if isinstance(e, LogReplay)]
    assert len(replays) == 1
    assert START in replays[0].positions
    assert replays[0].positions[-1] == after_moves("e2e4")


def test_without_resume_the_first_log_read_only_marks_the_log():
    protocol = DgtBoardProtocol()
    protocol.start(0.0)
    protocol.receive_data(ee_moves(bytes([0x6A, 0x41, 36, 0x6B])), 0.1)
    assert not [e for e in protocol.events_received() if isinstance(e, LogReplay)]


@pytest.mark.parametrize(
    "mode", [Command.SEND_UPDATE, Command.SEND_UPDATE_BRD, Command.SEND_UPDATE_NICE]
)
def test_the_update_mode_is_a_setting(mode):
    protocol = DgtBoardProtocol(DgtOptions(update_mode=mode))
    protocol.start(0.0)
    assert protocol.data_to_send()[-1] == mode


def test_an_update_mode_must_be_one():
    with pytest.raises(ValueError, match="not an update mode"):
        DgtBoardProtocol(DgtOptions(update_mode=Command.SEND_BRD))
