"""BWTIME data: every status bit, every hours-byte bit, and the ack layout of the header."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardsim.bwtime import Status, ack_data, decode_ack, side_bytes, status_of, time_data
from boardsim.clock import Ack, ClockReading, Side, SideReading

STILL = SideReading(1, 30, 0)


def reading(**changes: object) -> ClockReading:
    values: dict[str, object] = {
        "left": STILL,
        "right": STILL,
        "running": False,
        "lever_high": Side.LEFT,
        "turn": Side.LEFT,
        "battery_low": False,
    }
    values.update(changes)
    return ClockReading(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "status"),
    [
        ({}, 0x10),  # stopped, lever high on the left, left to move
        ({"running": True}, 0x11),
        ({"lever_high": Side.RIGHT}, 0x12),
        ({"battery_low": True}, 0x14),
        ({"turn": Side.RIGHT}, 0x08),
        ({"running": True, "lever_high": Side.RIGHT, "turn": Side.RIGHT}, 0x0B),
    ],
)
def test_status_bits(changes: dict[str, object], status: int) -> None:
    assert status_of(reading(**changes)) == status
    assert time_data(reading(**changes))[6] == status


def test_status_table_matches_the_2015_header() -> None:
    assert [int(bit) for bit in Status] == [0x01, 0x02, 0x04, 0x08, 0x10, 0x20]
    assert (int(Status.RIGHT_TURN), int(Status.LEFT_TURN)) == (0x08, 0x10)
    assert int(Status.NO_CLOCK) == 0x20


def test_no_clock_is_zero_times_and_bit_5() -> None:
    assert time_data(None) == bytes((0, 0, 0, 0, 0, 0, 0x20))


def test_right_side_comes_first() -> None:
    data = time_data(reading(left=SideReading(0, 5, 9), right=SideReading(2, 59, 41)))

    assert data[:3] == bytes((0x02, 0x59, 0x41))
    assert data[3:6] == bytes((0x00, 0x05, 0x09))


@pytest.mark.parametrize(
    ("flags", "hours_byte"),
    [
        ({}, 0x01),
        ({"flag_fallen": True}, 0x11),
        ({"per_move": True}, 0x21),
        ({"flag_shown": True}, 0x41),
        ({"flag_fallen": True, "per_move": True, "flag_shown": True}, 0x71),
    ],
)
def test_hours_byte_flags(flags: dict[str, bool], hours_byte: int) -> None:
    assert side_bytes(SideReading(1, 2, 3, **flags)) == bytes((hours_byte, 0x02, 0x03))


def test_ten_hours_do_not_fit() -> None:
    with pytest.raises(ValueError, match="hours"):
        side_bytes(SideReading(10, 0, 0))


@pytest.mark.parametrize(
    ("ack", "data"),
    [
        # Version 2.2 acknowledged: nothing with bit 7, both low nibbles 0x0A.
        (Ack(0x10, 0x09, 0x22, 0x00), bytes((0x0A, 0x10, 0x09, 0x0A, 0x22, 0x00, 0))),
        # ack1 0x88 (a button): bit 7 of ack1 goes to bit 5 of byte 6.
        (Ack(0x10, 0x88, 0x09, 0x32), bytes((0x0A, 0x10, 0x08, 0x2A, 0x09, 0x32, 0))),
        # ack0 bit 7 -> bit 4 of byte 6; ack2 -> bit 4 of byte 3; ack3 -> bit 5 of byte 3.
        (Ack(0x80, 0x00, 0x00, 0x00), bytes((0x0A, 0x00, 0x00, 0x1A, 0x00, 0x00, 0))),
        (Ack(0x00, 0x00, 0x80, 0x00), bytes((0x1A, 0x00, 0x00, 0x0A, 0x00, 0x00, 0))),
        (Ack(0x00, 0x00, 0x00, 0x80), bytes((0x2A, 0x00, 0x00, 0x0A, 0x00, 0x00, 0))),
        (Ack(0xFF, 0xFF, 0xFF, 0xFF), bytes((0x3A, 0x7F, 0x7F, 0x3A, 0x7F, 0x7F, 0))),
    ],
)
def test_ack_layout(ack: Ack, data: bytes) -> None:
    assert ack_data(ack) == data
    assert decode_ack(data) == ack


byte = st.integers(min_value=0, max_value=255)


@given(st.builds(Ack, byte, byte, byte, byte))
def test_every_ack_survives_the_wire(ack: Ack) -> None:
    data = ack_data(ack)

    assert not any(b & 0x80 for b in data)  # BWTIME data never has bit 7
    assert data[0] & 0x0F == 0x0A
    assert data[3] & 0x0F == 0x0A
    assert decode_ack(data) == ack


def test_a_time_reading_is_not_an_ack() -> None:
    assert decode_ack(time_data(reading())) is None
