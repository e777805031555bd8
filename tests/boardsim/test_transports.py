"""Real transports, opened from the test with pyserial: a pty, TCP, a bus chain, faults."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import pytest
import serial

from boardsim.board import BoardTiming, VirtualBoard
from boardsim.chain import BusChain
from boardsim.faults import Fault, FaultKind, end_fault, inject
from boardsim.line import BYTE_SECONDS_9600
from boardsim.pieces import START_POSITION
from boardsim.pty_link import PtyLink
from boardsim.tcp_link import TcpLink
from boardsim.wire import bus_command, join14

DEADLINE = 10
DUMP = bytes((0x86, 0, 67)) + bytes(START_POSITION)


def open_port(url: str) -> serial.SerialBase:
    return serial.serial_for_url(url, baudrate=9600, timeout=5)


async def call(function: Callable[..., object], *args: object) -> object:
    with anyio.fail_after(DEADLINE):
        return await anyio.to_thread.run_sync(function, *args)


async def read(port: serial.SerialBase, count: int) -> bytes:
    data = await call(port.read, count)
    assert isinstance(data, bytes)
    return data


async def converse(port: serial.SerialBase, command: bytes, count: int) -> bytes:
    await call(port.write, command)
    return await read(port, count)


@pytest.mark.anyio
async def test_single_board_on_a_pty() -> None:
    link = PtyLink(VirtualBoard())
    port = open_port(link.path)
    try:
        assert await converse(port, bytes((0x40, 0x42, 0x4B)), 67) == DUMP
        with anyio.fail_after(DEADLINE):
            await link.wait_until_updating()

        link.board.set_square(52, 0)
        link.flush()
        assert await read(port, 5) == bytes((0x8E, 0, 5, 52, 0))
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_a_host_can_close_and_reopen_the_pty() -> None:
    link = PtyLink(VirtualBoard())
    try:
        first = open_port(link.path)
        assert await converse(first, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
        first.close()

        second = open_port(link.path)
        try:
            assert await converse(second, bytes((0x45,)), 8) == bytes((0x91, 0, 8)) + b"01234"
        finally:
            second.close()
    finally:
        link.close()


@pytest.mark.anyio
async def test_single_board_on_tcp() -> None:
    link = await TcpLink.open(VirtualBoard())
    try:
        assert link.url.startswith("socket://127.0.0.1:")
        port = open_port(link.url)
        try:
            assert await converse(port, bytes((0x40, 0x42, 0x4B)), 67) == DUMP
            with anyio.fail_after(DEADLINE):
                await link.wait_until_updating()
            link.board.set_square(36, 1)
            link.flush()
            assert await read(port, 5) == bytes((0x8E, 0, 5, 36, 1))
        finally:
            port.close()
    finally:
        await link.aclose()


@pytest.mark.anyio
async def test_a_new_tcp_client_replaces_the_old_one() -> None:
    link = await TcpLink.open(VirtualBoard())
    try:
        old = open_port(link.url)
        new = open_port(link.url)
        try:
            assert await converse(new, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
            with pytest.raises(serial.SerialException):
                await call(old.read, 1)
        finally:
            old.close()
            new.close()
    finally:
        await link.aclose()


def chain_of(count: int) -> BusChain:
    timing = BoardTiming(bus_answer=(0.001, 0.002), ping_window=0.05)
    return BusChain(
        [VirtualBoard(serial_number=f"0300{n}", timing=timing, seed=n) for n in range(1, count + 1)]
    )


@pytest.mark.anyio
async def test_bus_chain_on_a_pty() -> None:
    link = PtyLink(chain_of(3))
    port = open_port(link.path)
    try:
        found = await converse(port, bus_command(0x87, 0), 18)
        addresses = {join14(found[i + 3], found[i + 4]) for i in range(0, 18, 6)}
        assert addresses == {3001, 3002, 3003}

        link.boards[1].set_square(8, 0)
        reply = await converse(port, bus_command(0x82, 3002), 70)
        assert reply[:5] == bytes((0x83, 0, 70, 3002 >> 7, 3002 & 0x7F))
        assert reply[5 + 8] == 0
        with anyio.fail_after(DEADLINE):
            await link.seat(1).wait_until_updating()
        with pytest.raises(TypeError, match="seat"):
            _ = link.board
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_bus_chain_on_tcp() -> None:
    link = await TcpLink.open(chain_of(2))
    port = open_port(link.url)
    try:
        reply = await converse(port, bus_command(0x8B, 3001), 8)
        assert reply[:7] == bytes((0x89, 0, 8, 3001 >> 7, 3001 & 0x7F, 1, 7))
    finally:
        port.close()
        await link.aclose()


@pytest.mark.anyio
async def test_a_paced_line_still_delivers_every_byte() -> None:
    link = PtyLink(VirtualBoard(), byte_seconds=BYTE_SECONDS_9600)
    port = open_port(link.path)
    try:
        assert await converse(port, bytes((0x42, 0x4D)), 72) == DUMP + bytes((0x93, 0, 5, 1, 7))
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_a_vanished_pty_comes_back_under_the_same_path() -> None:
    link = PtyLink(VirtualBoard())
    path = link.path
    port = open_port(path)
    try:
        link.vanish()
        assert not await anyio.Path(path).exists()

        def read_dead_port() -> bytes | None:
            try:
                return bytes(port.read(1))
            except serial.SerialException:
                return None

        assert await call(read_dead_port) in (None, b"")
        port.close()

        with anyio.fail_after(DEADLINE):
            assert await link.reappear() == path
        port = open_port(path)
        assert await converse(port, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_a_pty_held_by_the_host_comes_back_under_a_new_path() -> None:
    link = PtyLink(VirtualBoard())
    old_path = link.path
    stale = open_port(old_path)
    try:
        link.vanish()
        with anyio.fail_after(DEADLINE):
            new_path = await link.reappear(patience=0.2)
        assert new_path != old_path
        assert link.path == new_path
        port = open_port(new_path)
        try:
            assert await converse(port, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
        finally:
            port.close()
    finally:
        stale.close()
        link.close()


@pytest.mark.anyio
async def test_a_vanished_tcp_port_comes_back_on_the_same_port() -> None:
    link = await TcpLink.open(VirtualBoard())
    url = link.url
    port = open_port(url)
    try:
        assert await converse(port, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
        link.vanish()
        with pytest.raises(serial.SerialException):
            await call(port.read, 1)
        port.close()
        with pytest.raises(serial.SerialException):
            open_port(url)

        assert await link.reappear() == url
        port = open_port(url)
        assert await converse(port, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
    finally:
        port.close()
        await link.aclose()


@pytest.mark.anyio
async def test_garbage_and_dropped_bytes_reach_the_host() -> None:
    link = PtyLink(VirtualBoard())
    port = open_port(link.path)
    try:
        await inject(link, Fault(FaultKind.GARBAGE, count=4))
        data = await converse(port, bytes((0x4D,)), 9)
        assert data[4:] == bytes((0x93, 0, 5, 1, 7))

        await inject(link, Fault(FaultKind.DROP, count=2))
        assert await converse(port, bytes((0x4D, 0x4D)), 8) == bytes((5, 1, 7, 0x93, 0, 5, 1, 7))
    finally:
        port.close()
        link.close()


@pytest.mark.anyio
async def test_a_muted_board_stays_silent_until_the_fault_ends() -> None:
    link = await TcpLink.open(VirtualBoard())
    port = open_port(link.url)
    try:
        fault = Fault(FaultKind.MUTE)  # no "for": it stays until undone
        await inject(link, fault)
        port.timeout = 0.3
        assert await converse(port, bytes((0x4D,)), 5) == b""

        await end_fault(fault, link, list(link.boards), 0.0)
        port.timeout = 5
        assert await converse(port, bytes((0x4D,)), 5) == bytes((0x93, 0, 5, 1, 7))
    finally:
        port.close()
        await link.aclose()
