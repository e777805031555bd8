"""The fault spec language, and what each fault does to a board or a line (sans I/O)."""

from __future__ import annotations

import random

import anyio
import pytest

from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000
from boardsim.faults import (
    Fault,
    FaultKind,
    FaultSpecError,
    end_fault,
    parse_faults,
    start_fault,
)
from boardsim.line import SerialLine
from boardsim.wire import bus_command


def test_parse_a_full_spec() -> None:
    faults = parse_faults(
        "garbage@5:bytes=32; vanish@10.5s:board=2,for=3; mute@20:board=1,for=5 ;"
        " badsum@2:every=1; battery; noclock@1:for=2s"
    )

    assert faults == [
        Fault(FaultKind.GARBAGE, at=5.0, count=32),
        Fault(FaultKind.VANISH, at=10.5, board=2, duration=3.0),
        Fault(FaultKind.MUTE, at=20.0, board=1, duration=5.0),
        Fault(FaultKind.BADSUM, at=2.0, every=1.0),
        Fault(FaultKind.BATTERY),
        Fault(FaultKind.NOCLOCK, at=1.0, duration=2.0),
    ]


def test_an_empty_spec_is_no_faults() -> None:
    assert parse_faults("") == []
    assert parse_faults(" ; ") == []


def test_lengths() -> None:
    assert Fault(FaultKind.VANISH).length == 2.0
    assert Fault(FaultKind.VANISH, duration=0.5).length == 0.5
    assert Fault(FaultKind.MUTE).length is None


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("explode", "kind is one of"),
        ("garbage@x", "expected KIND"),
        ("garbage:colour=red", "bad parameter"),
        ("mute:board=0", "numbered from 1"),
        ("mute:for=2,every=1", "every"),
        ("drop:bytes=1.2.3", "not a number"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, match: str) -> None:
    with pytest.raises(FaultSpecError, match=match):
        parse_faults(spec)


class StubLink:
    """A link with a real line and no port: records what was done to it."""

    def __init__(self, *boards: VirtualBoard) -> None:
        self.boards = list(boards)
        self.line = SerialLine()
        self.address = "stub"
        self.garbage = b""
        self.vanished = 0
        self.reappeared = 0
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1

    def inject_garbage(self, data: bytes) -> None:
        self.garbage += data

    async def wait_until_updating(self, board: int = 0) -> None:
        return None

    def vanish(self) -> None:
        self.vanished += 1

    async def reappear(self) -> str:
        self.reappeared += 1
        return self.address

    def close(self) -> None:
        return None


def run(fault: Fault, board: VirtualBoard) -> StubLink:
    link = StubLink(board)
    start_fault(fault, link, [board], random.Random(1), 1.0)
    return link


def test_garbage_is_seeded_random_bytes() -> None:
    first = run(Fault(FaultKind.GARBAGE, count=8), VirtualBoard())
    second = run(Fault(FaultKind.GARBAGE, count=8), VirtualBoard())

    assert len(first.garbage) == 8
    assert first.garbage == second.garbage
    assert first.flushes == 1


def test_drop_loses_the_next_bytes() -> None:
    link = run(Fault(FaultKind.DROP, count=3), VirtualBoard())

    link.line.send(b"abcdef", 1.0)

    assert link.line.receive(1.0) == b"def"


def test_badsum_corrupts_the_next_bus_reply() -> None:
    board = VirtualBoard(serial_number="01025")
    run(Fault(FaultKind.BADSUM), board)

    board.receive_data(bus_command(0x87, 1025))
    reply = board.data_to_send()
    board.receive_data(bus_command(0x87, 1025))
    good = board.data_to_send()

    assert reply[-1] != sum(reply[:-1]) & 0x7F
    assert good[-1] == sum(good[:-1]) & 0x7F


@pytest.mark.anyio
async def test_vanish_and_back() -> None:
    board = VirtualBoard()
    link = run(Fault(FaultKind.VANISH), board)
    assert link.vanished == 1

    await end_fault(Fault(FaultKind.VANISH), link, [board], 2.0)

    assert link.reappeared == 1


@pytest.mark.anyio
async def test_mute_battery_and_noclock_are_undone() -> None:
    board = VirtualBoard(clock=Dgt3000(ack_delay=(0, 0)), now=0.0)
    link = StubLink(board)
    for kind in (FaultKind.MUTE, FaultKind.BATTERY, FaultKind.NOCLOCK):
        start_fault(Fault(kind), link, [board], random.Random(1), 1.0)
    assert board.muted
    assert board.battery.percent == 5
    assert board.clock is not None
    assert board.clock.battery_low
    assert not board.clock.connected

    with anyio.fail_after(5):
        for kind in (FaultKind.MUTE, FaultKind.BATTERY, FaultKind.NOCLOCK):
            await end_fault(Fault(kind), link, [board], 2.0)

    assert not board.muted
    assert board.battery.percent == 100
    assert board.clock.connected
    assert not board.clock.battery_low
