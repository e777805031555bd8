"""The serial line: 9600-baud pacing, dropped bytes and garbage."""

from __future__ import annotations

import pytest

from boardsim.line import BYTE_SECONDS_9600, SerialLine


def test_an_instant_line_delivers_at_once() -> None:
    line = SerialLine()
    line.send(b"abc", 1.0)

    assert line.receive(1.0) == b"abc"
    assert line.next_deadline() is None


def test_a_9600_baud_line_delivers_byte_by_byte() -> None:
    line = SerialLine(BYTE_SECONDS_9600)
    line.send(bytes(range(10)), 0.0)

    assert line.receive(0.0) == b""
    assert line.next_deadline() == pytest.approx(BYTE_SECONDS_9600)
    assert line.receive(BYTE_SECONDS_9600 * 3.5) == bytes(range(3))
    assert line.receive(BYTE_SECONDS_9600 * 10) == bytes(range(3, 10))


def test_a_board_dump_takes_about_70_ms_at_9600_baud() -> None:
    line = SerialLine(BYTE_SECONDS_9600)
    line.send(bytes(67), 0.0)

    assert len(line.receive(0.0695)) == 66
    assert len(line.receive(0.0700)) == 1


def test_messages_queue_behind_each_other() -> None:
    line = SerialLine(0.001)
    line.send(b"ab", 0.0)
    line.send(b"cd", 0.0005)

    assert line.receive(0.0035) == b"abc"
    assert line.receive(0.0040) == b"d"


def test_dropped_bytes_never_arrive() -> None:
    line = SerialLine()
    line.drop(3)
    line.send(b"ab", 0.0)
    line.send(b"cdef", 0.0)

    assert line.receive(0.0) == b"def"
    assert line.dropped == 3


def test_garbage_joins_the_line() -> None:
    line = SerialLine()
    line.send(b"ab", 0.0)
    line.inject_garbage(b"\xff\x00", 0.0)
    line.send(b"cd", 0.0)

    assert line.receive(0.0) == b"ab\xff\x00cd"


def test_clear_loses_what_is_in_flight() -> None:
    line = SerialLine(0.001)
    line.send(b"abc", 0.0)
    line.clear()

    assert line.receive(1.0) == b""


@pytest.mark.parametrize("seconds", [0.0, -1.0])
def test_a_line_needs_a_positive_byte_time(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds per byte"):
        SerialLine(seconds)
