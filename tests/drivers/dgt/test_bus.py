"""The bus protocol, bytes in and events out, against replies built by hand."""

from __future__ import annotations

import chess
import pytest

from drivers.dgt.bus import (
    BROADCAST,
    BusCommand,
    BusEvent,
    BusOptions,
    DgtBusProtocol,
    address_of_serial,
    checksum,
    encode_bus_command,
)
from drivers.events import (
    BoardStatus,
    ClockReading,
    FieldChange,
    Health,
    LineNoise,
    LogReplay,
    Position,
    PositionSnapshot,
)

START_CODES = bytes(
    [8, 9, 10, 12, 11, 10, 9, 8] + [7] * 8 + [0] * 32 + [1] * 8 + [2, 3, 4, 6, 5, 4, 3, 2]
)


def position_after(*ucis: str) -> Position:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return tuple(None if (p := board.piece_at(sq)) is None else p.symbol() for sq in chess.SQUARES)


def reply(kind: int, address: int, data: bytes = b"", *, corrupt: bool = False) -> bytes:
    size = 6 + len(data)
    body = bytes((kind, size >> 7, size & 0x7F, address >> 7, address & 0x7F)) + data
    return body + bytes(((checksum(body) + (1 if corrupt else 0)) & 0x7F,))


def command(kind: BusCommand, address: int) -> bytes:
    return encode_bus_command(kind, address)


def test_command_encoding_matches_the_header_example():
    assert encode_bus_command(BusCommand.SEND_CLK, 0x10 << 7 | 0x06) == bytes(
        (0x81, 0x10, 0x06, 0x17)
    )
    assert address_of_serial("01025") == 0x08 << 7 | 0x01
    with pytest.raises(ValueError, match="14-bit"):
        encode_bus_command(BusCommand.PING, 1 << 14)


def discovered(*addresses: int) -> DgtBusProtocol:
    """A protocol that has found ``addresses`` and asked each for its board."""
    protocol = DgtBusProtocol(BusOptions(ping_window=1.0, reply_timeout=0.1, clock_every=3))
    protocol.start(0.0)
    assert protocol.data_to_send() == command(BusCommand.PING, BROADCAST)
    for address in addresses:
        protocol.receive_data(reply(0x87, address), 0.5)
    protocol.advance(1.0)  # the window closes: silence the found ones, ask again
    for address in addresses:
        assert protocol.data_to_send() == command(BusCommand.IGNORE_NEXT_BUS_PING, address)
        protocol.receive_data(reply(0x87, address), 1.01)
    assert protocol.data_to_send() == command(BusCommand.PING, BROADCAST)
    protocol.advance(2.1)  # nobody new: discovery is over
    assert not protocol.discovering
    for address in sorted(addresses):
        # What the board logged before the host knew it is fetched and dropped ...
        assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, address)
        protocol.receive_data(reply(0x85, address, bytes((0x40, 52))), 2.2)
        # ... because the dump that follows already shows it.
        assert protocol.data_to_send() == command(BusCommand.SEND_BRD, address)
        protocol.receive_data(reply(0x83, address, START_CODES), 2.2)
    protocol.events_received()
    return protocol


def test_discovery_finds_every_board_then_reads_their_positions():
    protocol = discovered(1025, 7, 300)
    assert sorted(protocol.boards) == [7, 300, 1025]
    assert all(board.have_position for board in protocol.boards.values())
    assert all(board.raw[chess.E2] == "P" for board in protocol.boards.values())


def test_polling_round_robin_turns_log_records_into_field_changes():
    protocol = discovered(7, 9)
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
    protocol.receive_data(reply(0x85, 7, bytes((0x40, 52, 0x41, 36))), 3.0)
    events = protocol.events_received()
    changes = [(e.address, e.event) for e in events if isinstance(e.event, FieldChange)]
    assert [(address, c.square, c.piece) for address, c in changes] == [
        (7, chess.E2, None),
        (7, chess.E4, "P"),
    ]
    assert changes[-1][1].position == position_after("e2e4")
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 9)
    protocol.receive_data(reply(0x85, 9), 3.1)  # nothing changed
    assert protocol.events_received() == []


def test_bad_checksum_asks_to_repeat_not_to_send_again():
    protocol = discovered(7)
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
    protocol.receive_data(reply(0x85, 7, bytes((0x40, 52)), corrupt=True), 3.0)
    assert protocol.data_to_send() == command(BusCommand.REPEAT_CHANGES, 7)
    noise = [e.event for e in protocol.events_received() if isinstance(e.event, LineNoise)]
    assert noise[0].reason == "bad bus checksum"
    protocol.receive_data(reply(0x85, 7, bytes((0x40, 52))), 3.05)
    changes = [e.event for e in protocol.events_received() if isinstance(e.event, FieldChange)]
    assert [(c.square, c.piece) for c in changes] == [(chess.E2, None)]


def test_repeated_bad_replies_fall_back_to_a_whole_board_read():
    protocol = discovered(7)
    protocol.data_to_send()
    for attempt in range(3):
        protocol.receive_data(reply(0x85, 7, b"\x40\x34", corrupt=True), 3.0 + attempt)
        sent = protocol.data_to_send()
    assert sent == command(BusCommand.SEND_BRD, 7)


def test_missed_answers_make_a_board_delayed_then_not_responding_then_recovering():
    protocol = DgtBusProtocol(
        BusOptions(ping_window=1.0, reply_timeout=0.1, delayed_after=2, silent_after=4)
    )
    protocol.start(0.0)
    protocol.receive_data(reply(0x87, 7), 0.5)
    protocol.advance(1.0)
    protocol.data_to_send()
    protocol.receive_data(reply(0x87, 7), 1.01)
    protocol.advance(2.1)
    protocol.data_to_send()
    protocol.receive_data(reply(0x85, 7), 2.2)
    protocol.data_to_send()
    protocol.receive_data(reply(0x83, 7, START_CODES), 2.2)
    now = 2.2
    health = []
    sent = []
    for _ in range(4):
        sent.append(protocol.data_to_send()[0])
        now += 0.2
        protocol.advance(now)
        health.append(protocol.boards[7].status.health)
    assert health == [Health.ACTIVE, Health.DELAYED, Health.DELAYED, Health.NOT_RESPONDING]
    # After the first unanswered poll the board is asked to repeat, not to send again:
    # it may have sent its changes (and forgotten them) while the answer was lost.
    assert sent == [BusCommand.SEND_CHANGES] + [BusCommand.REPEAT_CHANGES] * 3
    # It answers again, with everything that happened meanwhile: 1. e4 e5.
    protocol.data_to_send()
    records = bytes((0x40, 52, 0x41, 36, 0x40, 12, 0x47, 28))
    protocol.receive_data(reply(0x85, 7, records), now + 0.05)
    events = [e.event for e in protocol.events_received()]
    assert protocol.boards[7].status.health is Health.ACTIVE
    replay = next(e for e in events if isinstance(e, LogReplay))
    assert replay.positions[1] == position_after("e2e4")
    assert replay.positions[-1] == position_after("e2e4", "e7e5")
    assert PositionSnapshot(position_after("e2e4", "e7e5")) in events
    assert not any(isinstance(e, FieldChange) for e in events)


def test_clock_is_read_every_few_rounds():
    protocol = discovered(7)
    sent = []
    now = 3.0
    for _ in range(8):
        data = protocol.data_to_send()
        sent.append(data[0])
        if data[0] == BusCommand.SEND_CLK:
            clock = bytes((0x01, 0x30, 0x00, 0x00, 0x59, 0x59, 0x01 | 0x10))
            protocol.receive_data(reply(0x84, 7, clock), now)
        else:
            protocol.receive_data(reply(0x85, 7), now)
        now += 0.01
    assert BusCommand.SEND_CLK in sent
    readings = [e.event for e in protocol.events_received() if isinstance(e.event, ClockReading)]
    assert len(readings) == 1  # the same reading twice is one event
    assert readings[0].right.seconds == 5400
    assert readings[0].left_to_move


def test_line_loss_marks_boards_disconnected_and_resync_collects_their_changes():
    protocol = discovered(7, 9)
    protocol.data_to_send()
    protocol.lost("unplugged")
    statuses = [
        (e.address, e.event) for e in protocol.events_received() if isinstance(e.event, BoardStatus)
    ]
    assert {address for address, _ in statuses} == {7, 9}
    assert all(status.health is Health.DISCONNECTED for _, status in statuses)
    protocol.resync(10.0)
    # The poll of board 7 was unanswered when the line went: ask it to repeat.
    assert protocol.data_to_send() == command(BusCommand.REPEAT_CHANGES, 7)
    protocol.receive_data(reply(0x85, 7, bytes((0x40, 52, 0x41, 36))), 10.01)
    events = protocol.events_received()
    assert any(isinstance(e.event, LogReplay) and e.address == 7 for e in events)
    assert BusEvent(7, PositionSnapshot(position_after("e2e4"))) in events


def test_garbage_and_unknown_boards_are_line_noise():
    protocol = discovered(7)
    protocol.data_to_send()
    protocol.receive_data(b"\x01\x02" + reply(0x85, 99), 3.0)
    events = [e.event for e in protocol.events_received()]
    assert [type(e) for e in events] == [LineNoise, LineNoise]
    assert isinstance(events[1], LineNoise)
    assert "unknown board 99" in events[1].reason


def test_a_late_ping_answer_keeps_the_discovery_round_open():
    protocol = DgtBusProtocol(BusOptions(ping_window=1.0))
    protocol.start(0.0)
    protocol.data_to_send()
    protocol.receive_data(reply(0x87, 7), 0.95)
    protocol.advance(1.0)  # the window would have closed here
    assert protocol.data_to_send() == b""
    protocol.receive_data(reply(0x87, 8), 1.2)  # a board that heard the PING late
    protocol.advance(1.5)
    assert sorted(protocol.boards) == [7, 8]
    assert protocol.data_to_send() == command(BusCommand.IGNORE_NEXT_BUS_PING, 7)


def test_a_corrupted_address_is_blamed_on_the_board_that_was_asked():
    protocol = discovered(7)
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
    garbled = bytearray(reply(0x85, 7, bytes((0x40, 52))))
    garbled[4] ^= 0x01  # the address's low byte; the checksum no longer matches
    protocol.receive_data(bytes(garbled), 3.0)
    assert protocol.data_to_send() == command(BusCommand.REPEAT_CHANGES, 7)


def test_a_board_that_powered_up_again_is_rebuilt_from_its_log():
    protocol = discovered(7)
    protocol.data_to_send()
    protocol.lost("unplugged")
    protocol.resync(10.0)
    protocol.data_to_send()
    # Power-up, then the board logs every piece it finds: here a lone white king on e1.
    protocol.receive_data(reply(0x85, 7, bytes((0x6A, 0x45, 60))), 10.1)
    snapshot = [
        e.event for e in protocol.events_received() if isinstance(e.event, PositionSnapshot)
    ]
    king_alone: list[str | None] = [None] * 64
    king_alone[chess.E1] = "K"
    assert snapshot == [PositionSnapshot(tuple(king_alone))]
    # The repeated packet was only what was lost in transit; the rest comes next ...
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
    protocol.receive_data(reply(0x85, 7), 10.2)
    assert protocol.data_to_send() == command(BusCommand.SEND_BRD, 7)  # ... then the truth


def test_a_resuming_host_replays_each_boards_game_since_its_start_tag():
    protocol = DgtBusProtocol(BusOptions(ping_window=1.0, resume=True))
    protocol.start(0.0)
    protocol.data_to_send()
    protocol.receive_data(reply(0x87, 7), 0.5)
    protocol.advance(1.0)
    protocol.data_to_send()
    protocol.receive_data(reply(0x87, 7), 1.01)
    assert protocol.data_to_send() == command(BusCommand.PING, BROADCAST)
    protocol.advance(2.1)  # nobody new
    assert protocol.data_to_send() == command(BusCommand.SEND_FROM_START, 7)
    # Start tag, every piece of the start position, then 1. e4 (fetched before the restart).
    pieces = [b for i, code in enumerate(START_CODES) if code for b in (0x40 | code, i)]
    protocol.receive_data(reply(0x86, 7, bytes([0x7B, *pieces, 0x40, 52, 0x41, 36])), 2.2)
    # ... and 1... e5, made while no host listened, still unfetched.
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
    protocol.receive_data(reply(0x85, 7, bytes((0x40, 12, 0x47, 28))), 2.3)
    replays = [e.event for e in protocol.events_received() if isinstance(e.event, LogReplay)]
    assert replays[0].positions[-1] == position_after("e2e4")
    assert replays[1].positions[-1] == position_after("e2e4", "e7e5")
    assert protocol.data_to_send() == command(BusCommand.SEND_BRD, 7)


def test_marking_a_game_start_writes_a_start_tag():
    protocol = discovered(7)
    protocol.mark_game_start(7)
    protocol.data_to_send()  # the poll already under way
    protocol.receive_data(reply(0x85, 7), 3.0)
    assert protocol.data_to_send() == command(BusCommand.SET_START_GAME, 7)
    protocol.receive_data(reply(0x88, 7), 3.1)
    assert protocol.data_to_send() == command(BusCommand.SEND_CHANGES, 7)
