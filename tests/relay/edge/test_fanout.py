"""Writing one buffer to many sockets over several threads: every socket gets every buffer,
once and in order, and what a socket could not take comes back to the caller."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from relay.edge.fanout import SocketFanout

#: A small threshold for the tests, so that splitting is tried without thousands of sockets.
PARALLEL_FROM = 16


@pytest.fixture
def pairs() -> Iterator[list[tuple[socket.socket, socket.socket]]]:
    made = [socket.socketpair() for _ in range(PARALLEL_FROM + 73)]
    for writer, _ in made:
        writer.setblocking(False)
    yield made
    for writer, reader in made:
        writer.close()
        reader.close()


def read_all(reader: socket.socket) -> bytes:
    reader.setblocking(False)
    data = b""
    while True:
        try:
            chunk = reader.recv(1 << 16)
        except BlockingIOError:
            return data
        if not chunk:
            return data
        data += chunk


@pytest.mark.parametrize("helpers", [0, 1, 3])
@pytest.mark.parametrize("count", [1, PARALLEL_FROM - 1, PARALLEL_FROM + 73])
def test_every_socket_gets_every_buffer_once_in_order(pairs, helpers, count):
    chosen = pairs[:count]
    fanout = SocketFanout(helpers, PARALLEL_FROM)
    try:
        fds = tuple(writer.fileno() for writer, _ in chosen)
        for n in range(5):
            assert fanout.write(fds, f"frame {n};".encode()) == []
    finally:
        fanout.close()
    expected = b"".join(f"frame {n};".encode() for n in range(5))
    assert [read_all(reader) for _, reader in chosen] == [expected] * count
    assert [read_all(reader) for _, reader in pairs[count:]] == [b""] * (len(pairs) - count)


def test_a_full_socket_and_a_closed_peer_come_back_as_short_writes(pairs):
    full_writer, _ = pairs[10]
    full_writer.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    while True:  # nobody reads: fill it
        try:
            full_writer.send(b"x" * 4096)
        except BlockingIOError:
            break
    _, gone_reader = pairs[20]
    gone_reader.close()
    fanout = SocketFanout(2, PARALLEL_FROM)
    try:
        fds = tuple(writer.fileno() for writer, _ in pairs)
        short = fanout.write(fds, b"frame")
    finally:
        fanout.close()
    assert sorted(short) == sorted([(full_writer.fileno(), 0), (pairs[20][0].fileno(), 0)])
    assert read_all(pairs[0][1]) == b"frame"


def test_close_stops_the_helper_threads():
    fanout = SocketFanout(2, PARALLEL_FROM)
    threads = list(fanout._threads)
    assert fanout.helpers == 2
    assert all(thread.is_alive() for thread in threads)
    fanout.close()
    assert not any(thread.is_alive() for thread in threads)
