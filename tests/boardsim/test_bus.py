"""Bus mode: addressed, checksummed commands in; checksummed replies out; chains of boards."""

from __future__ import annotations

import pytest

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.chain import BusChain
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.modes import LineMode
from boardsim.pieces import START_POSITION
from boardsim.wire import bus_command, join14

SEND_CLK, SEND_BRD, SEND_CHANGES, REPEAT_CHANGES = 0x81, 0x82, 0x83, 0x84
SET_START_GAME, SEND_FROM_START, PING, END_BUSMODE = 0x85, 0x86, 0x87, 0x88
RESET, IGNORE_NEXT_BUS_PING, SEND_VERSION = 0x89, 0x8A, 0x8B

ADDRESS = 1025  # serial "01025": address bytes 0x08 0x01


def new_board(**kwargs: object) -> VirtualBoard:
    return VirtualBoard(serial_number="01025", now=0.0, **kwargs)  # type: ignore[arg-type]


def ask(board: VirtualBoard | BusChain, command: int, address: int = ADDRESS, now=None) -> bytes:
    board.receive_data(bus_command(command, address), now)
    return board.data_to_send()


def replies(data: bytes) -> list[bytes]:
    """Split a byte stream of bus replies, checking each length and checksum."""
    out = []
    while data:
        size = join14(data[1], data[2])
        reply, data = data[:size], data[size:]
        assert len(reply) == size
        assert reply[-1] == sum(reply[:-1]) & 0x7F, reply.hex()
        out.append(reply)
    return out


def test_send_brd() -> None:
    (reply,) = replies(ask(new_board(), SEND_BRD))

    assert reply[:5] == bytes((0x83, 0, 70, 0x08, 0x01))
    assert reply[5:-1] == bytes(START_POSITION)


def test_send_clk_without_and_with_a_clock() -> None:
    (bare,) = replies(ask(new_board(), SEND_CLK))
    assert bare[:5] == bytes((0x84, 0, 13, 0x08, 0x01))
    assert bare[5:-1] == bytes((0, 0, 0, 0, 0, 0, 0x20))

    board = new_board(clock=Dgt3000(TimeControl(600, 0)))
    board.press_lever(Side.RIGHT, now=0.0)
    (timed,) = replies(ask(board, SEND_CLK, now=5.0))
    assert timed[5:-1] == bytes((0x00, 0x10, 0x00, 0x00, 0x09, 0x55, 0x11))


def test_send_version_is_eight_bytes() -> None:
    (reply,) = replies(ask(new_board(), SEND_VERSION))

    assert reply == bytes((0x89, 0, 8, 0x08, 0x01, 1, 7, (0x89 + 8 + 8 + 1 + 1 + 7) & 0x7F))


def test_send_changes_hands_over_new_records_once() -> None:
    board = new_board()

    (first,) = replies(ask(board, SEND_CHANGES))
    assert first[0] == 0x85
    assert first[5:9] == bytes((0x7F, 0x7F, 0x7F, 0x6A))  # the power-up sequence
    assert len(first) == 6 + 4 + 64 + 1

    (empty,) = replies(ask(board, SEND_CHANGES))
    assert empty[:5] == bytes((0x85, 0, 6, 0x08, 0x01))

    board.set_square(52, 0, now=1.0)
    board.set_square(36, 1, now=1.5)
    (moved,) = replies(ask(board, SEND_CHANGES, now=2.0))
    assert moved[5:-1] == bytes((0x40, 52, 0x41, 36))


def test_repeat_changes_repeats_the_last_packet() -> None:
    board = new_board()
    ask(board, SEND_CHANGES)
    board.set_square(52, 0, now=1.0)
    sent = ask(board, SEND_CHANGES, now=2.0)

    assert ask(board, REPEAT_CHANGES) == sent
    assert ask(board, REPEAT_CHANGES) == sent
    (after,) = replies(ask(board, SEND_CHANGES))
    assert after[5:-1] == b""


def test_repeat_changes_before_any_changes_is_empty() -> None:
    (reply,) = replies(ask(new_board(), REPEAT_CHANGES))

    assert reply[:3] == bytes((0x85, 0, 6))


def test_a_corrupted_reply_can_be_recovered_with_repeat_changes() -> None:
    board = new_board()
    ask(board, SEND_CHANGES)
    board.set_square(52, 0, now=1.0)
    board.corrupt_next_checksum()

    bad = ask(board, SEND_CHANGES, now=2.0)
    assert bad[-1] != sum(bad[:-1]) & 0x7F

    (good,) = replies(ask(board, REPEAT_CHANGES))
    assert good[:-1] == bad[:-1]


def test_set_start_game_and_send_from_start() -> None:
    board = new_board(timing=BoardTiming.realistic())

    board.receive_data(bus_command(SET_START_GAME, ADDRESS), now=1.0)
    board.advance(1.05)
    assert board.data_to_send() == b""  # START_GAME_WRITTEN comes ~70 ms later
    board.advance(1.2)
    (written,) = replies(board.data_to_send())
    assert written[:5] == bytes((0x88, 0, 6, 0x08, 0x01))

    board.set_square(52, 0, now=2.0)
    board.receive_data(bus_command(SEND_FROM_START, ADDRESS), now=2.5)
    board.advance(2.6)
    (before_fetch,) = replies(board.data_to_send())
    assert before_fetch[5:-1] == b""  # nothing fetched with SEND_CHANGES yet

    board.receive_data(bus_command(SEND_CHANGES, ADDRESS), now=3.0)
    board.receive_data(bus_command(SEND_FROM_START, ADDRESS), now=3.1)
    board.advance(3.2)
    _, from_start = replies(board.data_to_send())
    assert from_start[0] == 0x86
    data = from_start[5:-1]
    assert data[0] == 0x7B
    assert len(data) == 1 + 2 * 32 + 2
    assert data[-2:] == bytes((0x40, 52))


def test_ping_to_its_address_answers_at_once() -> None:
    (reply,) = replies(ask(new_board(), PING))

    assert reply == bytes((0x87, 0, 6, 0x08, 0x01, (0x87 + 6 + 8 + 1) & 0x7F))


def test_broadcast_ping_is_answered_within_the_window() -> None:
    board = new_board(timing=BoardTiming.realistic())
    board.receive_data(bus_command(PING, 0), now=10.0)

    deadline = board.next_deadline()
    assert deadline is not None
    assert 10.0 <= deadline <= 11.1 + 0.03
    board.advance(11.2)
    (reply,) = replies(board.data_to_send())
    assert reply[0] == 0x87


def test_ignore_next_bus_ping() -> None:
    board = new_board()

    (ack,) = replies(ask(board, IGNORE_NEXT_BUS_PING))
    assert ack[0] == 0x87
    assert ask(board, PING, 0) == b""
    (answered,) = replies(ask(board, PING, 0))
    assert answered[0] == 0x87


def test_commands_for_others_bad_checksums_and_broadcast_reads_are_ignored() -> None:
    board = new_board()

    assert ask(board, SEND_BRD, address=1026) == b""
    assert ask(board, SEND_BRD, address=0) == b""
    corrupted = bytearray(bus_command(SEND_BRD, ADDRESS))
    corrupted[3] ^= 0x01
    board.receive_data(bytes(corrupted))

    assert board.data_to_send() == b""
    assert board.errors == ["bus command 8208010a: bad checksum"]
    assert not board.bus.addressed


def test_a_command_byte_inside_a_frame_starts_a_new_frame() -> None:
    board = new_board()

    board.receive_data(bytes((SEND_BRD, 0x08)) + bus_command(PING, ADDRESS))

    (reply,) = replies(board.data_to_send())
    assert reply[0] == 0x87


def test_end_busmode_switches_to_single_board_mode() -> None:
    board = new_board()

    assert ask(board, END_BUSMODE) == b""
    assert board.line_mode is LineMode.SINGLE
    board.receive_data(bytes((0x4D,)))
    assert board.data_to_send() == bytes((0x93, 0, 5, 1, 7))


def test_reset_makes_the_board_deaf_then_powers_it_up() -> None:
    board = new_board(timing=BoardTiming.realistic())
    ask(board, SEND_CHANGES, now=0.0)
    board.advance(0.1)
    board.data_to_send()

    board.receive_data(bus_command(RESET, ADDRESS), now=1.0)
    board.receive_data(bus_command(PING, ADDRESS), now=1.5)
    board.advance(2.0)
    assert board.data_to_send() == b""

    board.advance(3.1)
    board.receive_data(bus_command(SEND_CHANGES, ADDRESS), now=3.1)
    board.advance(3.2)
    (reply,) = replies(board.data_to_send())
    assert reply[5:9] == bytes((0x7F, 0x7F, 0x7F, 0x6A))


def test_unsimulated_bus_commands_are_noted() -> None:
    board = new_board()

    assert ask(board, 0x8C) == b""
    assert board.errors == ["bus command SEND_BRD_50B is not simulated"]


def test_answers_wait_for_an_eeprom_write() -> None:
    board = new_board(timing=BoardTiming.realistic(scan=None))
    board.set_square(52, 0, now=5.0)  # a log write: the EEPROM is busy for 20 ms

    board.receive_data(bus_command(PING, ADDRESS), now=5.0)

    deadline = board.next_deadline()
    assert deadline is not None
    assert 5.022 <= deadline <= 5.026


def three_boards() -> BusChain:
    return BusChain(
        [
            VirtualBoard(serial_number=f"0100{n}", timing=BoardTiming.realistic(), seed=n)
            for n in (1, 2, 3)
        ]
    )


def test_chain_broadcast_ping_finds_every_board() -> None:
    chain = three_boards()
    chain.advance(0.0)
    chain.receive_data(bus_command(PING, 0), now=0.0)

    chain.advance(1.2)
    found = {join14(reply[3], reply[4]) for reply in replies(chain.data_to_send())}

    assert found == {1001, 1002, 1003}


def test_chain_answers_only_from_the_addressed_board() -> None:
    chain = three_boards()
    chain.board_at(1002).set_square(0, 0, now=0.0)

    chain.receive_data(bus_command(SEND_BRD, 1002), now=1.0)
    chain.advance(1.1)
    (reply,) = replies(chain.data_to_send())

    assert join14(reply[3], reply[4]) == 1002
    assert reply[5] == 0


def test_chain_merges_replies_in_time_order() -> None:
    timing = BoardTiming.realistic(scan=None)
    chain = BusChain(
        [VirtualBoard(serial_number=f"0200{n}", seed=n, timing=timing) for n in (1, 2)]
    )
    chain.boards[0].set_square(52, 0, now=0.0)  # board 1 is busy writing its EEPROM
    chain.receive_data(bus_command(PING, 2001) + bus_command(PING, 2002), now=0.0)

    chain.advance(0.1)
    first, second = replies(chain.data_to_send())

    assert join14(first[3], first[4]) == 2002
    assert join14(second[3], second[4]) == 2001


@pytest.mark.parametrize(
    ("serials", "match"),
    [
        (["00000"], "broadcast"),
        (["16384"], "broadcast"),
        (["01001", "01001"], "share"),
    ],
)
def test_chain_refuses_clashing_addresses(serials: list[str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        BusChain([VirtualBoard(serial_number=s) for s in serials])


def test_chain_needs_a_board() -> None:
    with pytest.raises(ValueError, match="at least one"):
        BusChain([])
