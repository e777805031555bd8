"""The fault spec language, and what each fault does to a board or a line (sans I/O)."""

from __future__ import annotations

import random

import anyio
import pytest

from boardsim.board import VirtualBoard
from boardsim.clock import ClockReport, Dgt3000, Side, TimeControl
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


def test_parse_noack() -> None:
    assert parse_faults("noack:board=3; noack@5:board=2,for=10; noack") == [
        Fault(FaultKind.NOACK, board=3),
        Fault(FaultKind.NOACK, at=5.0, board=2, duration=10.0),
        Fault(FaultKind.NOACK),
    ]
    assert Fault(FaultKind.NOACK).length is None
    assert Fault(FaultKind.NOACK, duration=10.0).length == 10.0


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


# -- noack: the clock's command channel is broken --------------------------------------------

SEND_UPDATE = 0x43
#: SETNRUN framed as the board expects it: left 0:01:00, right 0:02:00, right runs, toggle.
SETNRUN = bytes((0x2B, 0x0A, 0x03, 0x0A, 0, 1, 0, 0, 2, 0, 0x02 | 0x08, 0x00))
VERSION = bytes((0x2B, 0x03, 0x03, 0x09, 0x00))


def messages(data: bytes) -> list[bytes]:
    """Split board output into messages by their length header."""
    out = []
    while data:
        length = data[1] << 7 | data[2]
        out.append(data[:length])
        data = data[length:]
    return out


def is_ack(message: bytes) -> bool:
    return message[0] == 0x8D and (message[3] & 0x0F == 0x0A or message[6] & 0x0F == 0x0A)


@pytest.mark.anyio
async def test_noack_makes_the_clock_deaf_to_the_board_but_not_mute() -> None:
    clock = Dgt3000(TimeControl(300, 0), ack_delay=(0.5, 0.5))
    heard: list[ClockReport] = []
    clock.listeners.append(heard.append)
    board = VirtualBoard(clock=clock, now=0.0)
    link = StubLink(board)
    board.receive_data(bytes((SEND_UPDATE,)), now=0.0)  # acks and a BWTIME every second
    board.press_lever(Side.RIGHT, now=0.0)  # left runs from 5:00
    board.data_to_send()

    start_fault(Fault(FaultKind.NOACK, board=1), link, [board], random.Random(1), 1.0)
    board.receive_data(SETNRUN + VERSION, now=1.0)
    board.advance(10.0)

    sent = messages(board.data_to_send())
    assert sent, "the board went quiet"
    assert not any(is_ack(message) for message in sent)
    assert heard == []
    # The last BWTIME still shows left counting down from 5:00: right 5:00, left 4:50, left's
    # turn, running (the SETNRUN would have run the right side from 0:02:00).
    assert sent[-1][3:] == bytes((0x00, 0x05, 0x00, 0x00, 0x04, 0x50, 0x10 | 0x01))

    with anyio.fail_after(5):
        await end_fault(Fault(FaultKind.NOACK, board=1), link, [board], 11.0)
    board.receive_data(SETNRUN, now=11.0)
    board.advance(12.0)

    acks = [message for message in messages(board.data_to_send()) if is_ack(message)]
    assert acks == [bytes((0x8D, 0, 10, 0x0A, 0x10, 0x0A, 0x0A, 0, 0, 0))]  # SETNRUN's alone
    assert clock.running is Side.RIGHT
    assert len(heard) == 1


def test_noack_on_a_board_without_a_clock_does_nothing() -> None:
    board = VirtualBoard()

    link = run(Fault(FaultKind.NOACK), board)

    assert link.flushes == 1
    assert board.clock is None
