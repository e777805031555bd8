"""Framing of board messages, bus commands and bus replies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardsim.wire import (
    SINGLE_BOARD_COMMANDS,
    FramingError,
    address_of,
    bus_command,
    bus_reply,
    checksum,
    join14,
    message,
    split14,
)


def test_header_example_checksum() -> None:
    # The header's example: 81 10 06 has checksum 17.
    assert bus_command(0x81, (0x10 << 7) | 0x06) == bytes((0x81, 0x10, 0x06, 0x17))


def test_address_is_the_serial_number_as_14_bits() -> None:
    assert split14(address_of("01025")) == (0x08, 0x01)
    assert address_of("16385") == 1  # five digits can exceed 14 bits


def test_message_length_counts_the_header() -> None:
    assert message(0x93, bytes((1, 2))) == bytes((0x93, 0, 5, 1, 2))
    assert message(0x8F, bytes(200))[:3] == bytes((0x8F, 0x01, 0x4B))  # 203 = 1 << 7 | 75


def test_message_too_long_for_14_bits() -> None:
    with pytest.raises(FramingError, match="14-bit"):
        message(0x8F, bytes(1 << 14))


def test_bus_reply_length_includes_the_checksum() -> None:
    reply = bus_reply(0x87, 1025, b"")

    assert reply[:5] == bytes((0x87, 0, 6, 0x08, 0x01))
    assert len(reply) == 6
    assert reply[5] == checksum(reply[:5])


def test_single_board_commands_exclude_to_busmode() -> None:
    assert 0x4A not in SINGLE_BOARD_COMMANDS
    assert {0x2B, 0x40, 0x41, 0x49, 0x4C, 0x55} <= SINGLE_BOARD_COMMANDS


@given(
    st.integers(min_value=0x80, max_value=0xFF),
    st.integers(min_value=0, max_value=(1 << 14) - 1),
    st.binary(max_size=300).map(lambda data: bytes(b & 0x7F for b in data)),
)
def test_bus_replies_frame_any_data(reply_type: int, address: int, data: bytes) -> None:
    reply = bus_reply(reply_type, address, data)

    assert reply[0] == reply_type
    assert join14(reply[1], reply[2]) == len(reply) == len(data) + 6
    assert join14(reply[3], reply[4]) == address
    assert reply[5:-1] == data
    assert reply[-1] == sum(reply[:-1]) & 0x7F
    assert not any(b & 0x80 for b in reply[1:])


@given(st.integers(min_value=0, max_value=(1 << 14) - 1))
def test_split14_round_trips(value: int) -> None:
    high, low = split14(value)

    assert high < 0x80
    assert low < 0x80
    assert join14(high, low) == value


@pytest.mark.parametrize("value", [-1, 1 << 14])
def test_split14_rejects_what_does_not_fit(value: int) -> None:
    with pytest.raises(FramingError):
        split14(value)
