"""BWTIME: clock readings, every status bit, acknowledgements, and bytes that are neither."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.dgt.bwtime import (
    HEADER_2015,
    PRE_2015,
    Ack,
    BwTimeError,
    NoClock,
    decode_bwtime,
    encode_bcd,
)
from drivers.events import ClockReading, ClockSide, Lever


def payload(right=(1, 0x30, 0x00), left=(0, 0x59, 0x59), status=0x00) -> bytes:
    return bytes((*right, *left, status))


def test_times_are_hours_binary_minutes_and_seconds_bcd():
    reading = decode_bwtime(payload(right=(1, 0x30, 0x05), left=(0, 0x59, 0x59)))
    assert isinstance(reading, ClockReading)
    assert reading.right == ClockSide(seconds=3600 + 30 * 60 + 5)
    assert reading.left == ClockSide(seconds=59 * 60 + 59)


@pytest.mark.parametrize(
    ("bit", "field", "expected"),
    [
        (0x01, "running", True),
        (0x04, "battery_low", True),
        (0x08, "right_to_move", True),
        (0x10, "left_to_move", True),
    ],
)
def test_each_status_bit_of_the_2015_header(bit, field, expected):
    reading = decode_bwtime(payload(status=bit))
    assert isinstance(reading, ClockReading)
    assert getattr(reading, field) is expected
    others = {"running", "battery_low", "right_to_move", "left_to_move"} - {field}
    assert not any(getattr(reading, name) for name in others)


def test_lever_bit():
    up_right = decode_bwtime(payload(status=0x02))
    up_left = decode_bwtime(payload(status=0x00))
    assert isinstance(up_right, ClockReading)
    assert isinstance(up_left, ClockReading)
    assert up_right.lever is Lever.RIGHT_UP
    assert up_left.lever is Lever.LEFT_UP


def test_no_clock_bit_makes_the_reading_void():
    assert decode_bwtime(payload(status=0x20 | 0x01)) == NoClock()


def test_the_disputed_turn_bits_flip_with_the_setting():
    status = 0x08 | 0x01
    new = decode_bwtime(payload(status=status), HEADER_2015)
    old = decode_bwtime(payload(status=status), PRE_2015)
    assert isinstance(new, ClockReading)
    assert isinstance(old, ClockReading)
    assert (new.right_to_move, new.left_to_move) == (True, False)
    assert (old.right_to_move, old.left_to_move) == (False, True)


@pytest.mark.parametrize(
    ("hours", "field"),
    [(0x10, "flag_fallen"), (0x20, "per_move_time"), (0x40, "flag_shown")],
)
def test_flags_in_the_hours_byte(hours, field):
    reading = decode_bwtime(payload(left=(hours | 0x00, 0x00, 0x00)))
    assert isinstance(reading, ClockReading)
    assert getattr(reading.left, field)
    assert reading.left.seconds == 0
    assert reading.right == ClockSide(seconds=5400)


def test_all_zero_message_is_ignored():
    assert decode_bwtime(bytes(7)) is None


def ack_payload(ack0: int, ack1: int, ack2: int, ack3: int) -> bytes:
    """The clock side of an acknowledgement: bit 7 of each ack byte hidden in b3/b6."""
    b3 = 0x0A | ((ack2 >> 3) & 0x10) | ((ack3 >> 2) & 0x20)
    b6 = 0x0A | ((ack0 >> 3) & 0x10) | ((ack1 >> 2) & 0x20)
    return bytes((b3, ack0 & 0x7F, ack1 & 0x7F, b6, ack2 & 0x7F, ack3 & 0x7F, 0))


@given(st.tuples(*(st.integers(0, 255) for _ in range(4))))
def test_acknowledgement_bytes_survive_the_round_trip(acks):
    decoded = decode_bwtime(ack_payload(*acks))
    assert decoded == Ack(*acks)


def test_ack_meanings():
    ok = decode_bwtime(ack_payload(0x10, 0x0A, 0, 0))
    refused = decode_bwtime(ack_payload(0x40, 0x0A, 0, 0))
    button = decode_bwtime(ack_payload(0, 0x88, 0, 0x33))
    assert isinstance(ok, Ack)
    assert isinstance(refused, Ack)
    assert isinstance(button, Ack)
    assert ok.ok
    assert not ok.generated
    assert not refused.ok
    assert button.generated


@pytest.mark.parametrize(
    "bad",
    [
        payload(right=(0x0C, 0, 0)),  # ten-plus hours
        payload(left=(0, 0x60, 0)),  # 60 minutes
        payload(left=(0, 0, 0x0A)),  # not BCD
        b"\x00" * 6,
    ],
)
def test_impossible_values_raise(bad):
    with pytest.raises(BwTimeError):
        decode_bwtime(bad)


@given(st.binary(min_size=7, max_size=7))
def test_any_payload_is_a_value_or_a_documented_error(data):
    with contextlib.suppress(BwTimeError):
        decode_bwtime(data)


def test_bcd_encoder():
    assert [encode_bcd(v) for v in (0, 9, 10, 59)] == [0x00, 0x09, 0x10, 0x59]
    with pytest.raises(ValueError, match="out of range"):
        encode_bcd(60)


def test_the_clock_bit_can_be_read_the_other_way_round():
    inverted = replace(HEADER_2015, no_clock_when_clear=True)
    assert decode_bwtime(payload(status=0x01), inverted) == NoClock()
    reading = decode_bwtime(payload(status=0x21), inverted)
    assert isinstance(reading, ClockReading)
    assert reading.running
