"""Clock commands on the wire, and the one-in-flight commander."""

from __future__ import annotations

import pytest

from drivers.dgt.bwtime import Ack
from drivers.dgt.clock_commands import ClockCommander, ClockCommandError, encode_command
from drivers.events import (
    AskVersion,
    Beep,
    ClockCommandFailed,
    ClockCommandResult,
    ClockVersion,
    EndDisplay,
    RunMode,
    SetAndRun,
    ShowText,
)

SET = SetAndRun(left_seconds=5400, right_seconds=3 * 3600 + 25 * 60 + 7, run=RunMode.RIGHT)


def test_set_and_run_bytes():
    # 0x2B, size (0x03 ... 0x00), start, SETNRUN, left h m s, right h m s, mode, end.
    assert encode_command(SET) == bytes((0x2B, 0x0A, 0x03, 0x0A, 1, 30, 0, 3, 25, 7, 0x02, 0x00))
    assert encode_command(SetAndRun(0, 60, RunMode.LEFT))[-2] == 0x01
    assert encode_command(SetAndRun(0, 60, RunMode.STOPPED))[-2] == 0x04
    assert encode_command(SetAndRun(0, 60, RunMode.LEFT, lever_toggles=True))[-2] == 0x09


def test_text_beep_end_and_version_bytes():
    assert encode_command(ShowText("Rd1", beep_ms=125)) == (
        bytes((0x2B, 0x0C, 0x03, 0x0C)) + b"Rd1     " + bytes((1, 0x00))
    )
    assert encode_command(ShowText("Round 3")).endswith(b"Round 3 \x00\x00")
    assert encode_command(Beep(1024)) == bytes((0x2B, 0x04, 0x03, 0x0B, 16, 0x00))
    assert encode_command(EndDisplay()) == bytes((0x2B, 0x03, 0x03, 0x03, 0x00))
    assert encode_command(AskVersion()) == bytes((0x2B, 0x03, 0x03, 0x09, 0x00))


@pytest.mark.parametrize(
    "command",
    [
        SetAndRun(10 * 3600, 0, RunMode.LEFT),
        SetAndRun(-1, 0, RunMode.LEFT),
        ShowText("too long text"),
        ShowText("Zürich"),
        Beep(10),
        Beep(100_000),
    ],
)
def test_commands_the_clock_cannot_take_are_refused(command):
    with pytest.raises(ClockCommandError):
        encode_command(command)


def ack_for(command_id: int, ok: bool = True, ack2: int = 0) -> Ack:
    return Ack(0x10 if ok else 0x40, command_id, ack2, 0)


def test_one_command_in_flight_until_acknowledged():
    commander = ClockCommander(ack_timeout=2.0)
    commander.submit(SET)
    commander.submit(ShowText("GO"))
    first = commander.data_to_send(0.0)
    assert first == encode_command(SET)
    assert commander.data_to_send(0.1) == b""  # the text waits for the ack
    assert commander.on_ack(ack_for(0x0C)) == []  # an ack for another command
    assert commander.on_ack(ack_for(0x0A)) == [ClockCommandResult(SET, ok=True)]
    assert commander.data_to_send(0.5) == encode_command(ShowText("GO"))


def test_refusal_is_reported():
    commander = ClockCommander()
    commander.submit(SET)
    commander.data_to_send(0.0)
    assert commander.on_ack(ack_for(0x0A, ok=False)) == [ClockCommandResult(SET, ok=False)]


def test_version_answer():
    commander = ClockCommander()
    commander.submit(AskVersion())
    commander.data_to_send(0.0)
    assert commander.on_ack(ack_for(0x09, ack2=0x21)) == [
        ClockCommandResult(AskVersion(), ok=True),
        ClockVersion(2, 1),
    ]


def test_timeout_resends_then_gives_up():
    commander = ClockCommander(ack_timeout=2.0, max_attempts=2)
    commander.submit(SET)
    commander.data_to_send(0.0)
    assert commander.deadline == 2.0
    assert commander.poll(1.9) == (b"", [])
    assert commander.poll(2.0) == (encode_command(SET), [])
    assert commander.deadline == 4.0
    data, events = commander.poll(4.0)
    assert data == b""
    assert events == [ClockCommandFailed(SET, "no acknowledgement after 2 attempts")]
    assert not commander.busy


def test_generated_acks_do_not_complete_a_command():
    commander = ClockCommander()
    commander.submit(SET)
    commander.data_to_send(0.0)
    assert commander.on_ack(Ack(0, 0x88, 0, 0x31)) == []  # a button press
    assert commander.busy


def test_abandon_fails_everything_pending():
    commander = ClockCommander()
    commander.submit(SET)
    commander.submit(Beep(128))
    commander.data_to_send(0.0)
    assert commander.abandon("port lost") == [
        ClockCommandFailed(SET, "port lost"),
        ClockCommandFailed(Beep(128), "port lost"),
    ]
    assert not commander.busy


def test_bad_command_fails_at_submit():
    commander = ClockCommander()
    with pytest.raises(ClockCommandError):
        commander.submit(ShowText("far too long"))
    assert not commander.busy
