"""The stream paths' own websocket protocol, on a real uvicorn server: bytes on a socket in,
frames and close codes out; and fed bytes straight, cut anywhere, beside that server."""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import struct

import anyio
import pytest
from sqlmodel import Session
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from relay.api.stream_routes import parse_stream_request
from relay.domain.game.events import ArbiterAlert
from relay.edge.frame_reader import unmask
from relay.edge.handshake import accept_key
from relay.edge.protocol import StreamProtocol
from relay.store.access import create_token
from relay.store.tournaments import publish_round
from tests.live_server import LiveServer, live_server


def alert(n: int) -> ArbiterAlert:
    return ArbiterAlert(alert="test", detail="d", ply=n, at=1.0)


async def record(live: LiveServer, *numbers: int) -> None:
    await live.hub.recorder.record(
        round_id=live.round_id, game_id=live.game_ids[0], events=[alert(n) for n in numbers]
    )


async def closed_with(client: ClientConnection) -> int:
    """The code the server closed ``client`` with."""
    with anyio.fail_after(10):
        await client.wait_closed()
    assert client.close_code is not None
    return client.close_code


def opening(live: LiveServer, key: bytes) -> bytes:
    """The handshake of a round stream."""
    return (
        b"GET /api/rounds/%d/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
        % (live.round_id, key)
    )


async def connection(live: LiveServer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    port = int(live.base.rsplit(":", 1)[1].split("/")[0])
    return await asyncio.open_connection("127.0.0.1", port)


async def accepted(reader: asyncio.StreamReader, key: bytes) -> None:
    """The server's answer is 101, for ``key``."""
    with anyio.fail_after(5):
        head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101 ")
    assert b"Sec-WebSocket-Accept: " + accept_key(key) in head


async def raw_stream(live: LiveServer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket opened by hand, its 101 answer checked."""
    reader, writer = await connection(live)
    key = base64.b64encode(os.urandom(16))
    writer.write(opening(live, key))
    await accepted(reader, key)
    return reader, writer


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    first, size = await reader.readexactly(2)
    if size == 126:
        size = struct.unpack("!H", await reader.readexactly(2))[0]
    return first & 0x0F, await reader.readexactly(size)


@pytest.mark.anyio
async def test_game_stream_resumes_then_goes_live_on_our_protocol(tmp_path):
    async with live_server(tmp_path) as live:
        await record(live, 1, 2, 3)
        url = f"{live.base}/games/{live.game_ids[0]}/stream?since=1"
        async with connect(url) as client:
            got = [json.loads(await client.recv()) for _ in range(2)]
            assert [(m["v"], m["data"]["ply"]) for m in got] == [(2, 2), (3, 3)]
            (room,) = live.rooms._rooms.values()
            assert all(isinstance(m.writer, StreamProtocol) for m in room.members)
            await record(live, 4)
            live_message = json.loads(await client.recv())
            assert (live_message["type"], live_message["v"]) == ("event", 4)
            # The client's ping is answered.
            with anyio.fail_after(5):
                await (await client.ping(b"are you there"))
        # The server answered the client's close having left the room, its last member.
        assert len(live.rooms) == 0


@pytest.mark.anyio
async def test_refusals_close_with_their_codes(tmp_path):
    async with live_server(tmp_path) as live:
        async with connect(f"{live.base}/games/999/stream") as client:
            assert await closed_with(client) == 4404
        url = f"{live.base}/rounds/{live.round_id}/stream?token=rly_nonsense"
        async with connect(url) as client:
            assert await closed_with(client) == 4401
        with Session(live.hub.engine) as session:
            token = create_token(session, user="arb", role="arbiter")
            session.commit()
        async with connect(f"{live.base}/rounds/{live.round_id}/stream?token={token}") as client:
            assert json.loads(await client.recv())["type"] == "snapshot"
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{live.base}/games/{live.game_ids[0]}/stream?since=last")
        assert refused.value.response.status_code == 400
        assert b"since must be a version number" in refused.value.response.body


@pytest.mark.anyio
async def test_other_paths_go_on_to_uvicorn(tmp_path):
    async with live_server(tmp_path) as live:
        # The app has no websocket here: uvicorn's protocol asks it and refuses with 403.
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{live.base}/elsewhere")
        assert refused.value.response.status_code == 403


@pytest.mark.anyio
async def test_a_server_shutdown_tells_clients_to_come_back(tmp_path):
    async with live_server(tmp_path) as live:
        client = await connect(f"{live.base}/rounds/{live.round_id}/stream")
        assert json.loads(await client.recv())["type"] == "snapshot"
    assert await closed_with(client) == 1012


@pytest.mark.anyio
async def test_malformed_client_frames_close_the_connection(tmp_path):
    async with live_server(tmp_path) as live:
        reader, writer = await raw_stream(live)
        opcode, payload = await read_frame(reader)
        assert (opcode, json.loads(payload)["type"]) == (0x1, "snapshot")
        writer.write(b"\x89\x02hi")  # a ping without a mask
        with anyio.fail_after(5):
            opcode, payload = await read_frame(reader)
        assert (opcode, struct.unpack("!H", payload[:2])[0]) == (0x8, 1002)
        writer.close()

        reader, writer = await raw_stream(live)
        await read_frame(reader)
        writer.write(b"\x81\xfe\x20\x00" + b"mask" + b"x" * 0x2000)  # 8 KB of text
        with anyio.fail_after(5):
            opcode, payload = await read_frame(reader)
        assert (opcode, struct.unpack("!H", payload[:2])[0]) == (0x8, 1009)
        writer.close()

        reader, writer = await raw_stream(live)
        await read_frame(reader)
        # A masked ping split over two writes is answered with its payload.
        writer.write(b"\x89\x84ab")
        await writer.drain()
        writer.write(b"cd" + unmask(b"ping", b"abcd"))
        with anyio.fail_after(5):
            assert await read_frame(reader) == (0xA, b"ping")
        # A close is returned with the client's code.
        writer.write(b"\x88\x82" + b"abcd" + unmask(struct.pack("!H", 4000), b"abcd"))
        with anyio.fail_after(5):
            assert await read_frame(reader) == (0x8, struct.pack("!H", 4000))
            assert await reader.read() == b""
        writer.close()


@pytest.mark.anyio
async def test_a_handshake_that_is_not_websocket_13_is_refused(tmp_path):
    async with live_server(tmp_path) as live:
        port = int(live.base.rsplit(":", 1)[1].split("/")[0])
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"GET /api/rounds/%d/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: short\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n" % live.round_id
        )
        with anyio.fail_after(5):
            answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert b"content-type: application/json" in answer
        _head, _, body = answer.partition(b"\r\n\r\n")
        assert json.loads(body) == {"detail": "not a websocket handshake (RFC 6455 version 13)"}
        writer.close()


@pytest.mark.anyio
async def test_a_page_of_boards_has_a_room_of_its_own_on_our_protocol(tmp_path):
    async with live_server(tmp_path, games=3) as live:
        base = f"{live.base}/rounds/{live.round_id}/stream"
        async with connect(f"{base}?boards=2-3") as page, connect(base) as whole:
            snapshot = json.loads(await page.recv())
            assert [g["id"] for g in snapshot["games"]] == live.game_ids[1:]
            assert snapshot["boards"] == [1, 2, 3]
            assert len(json.loads(await whole.recv())["games"]) == 3
            assert sorted(room.key for room in live.rooms._rooms.values()) == [
                f"round:{live.round_id}",
                f"round:{live.round_id}#2-3",
            ]
            await record(live, 1)  # board 1
            await live.hub.recorder.record(
                round_id=live.round_id, game_id=live.game_ids[2], events=[alert(2)]
            )
            got = json.loads(await page.recv())
            assert (got["game"], got["data"]["ply"]) == (live.game_ids[2], 2)
            assert [json.loads(await whole.recv())["game"] for _ in range(2)] == [
                live.game_ids[0],
                live.game_ids[2],
            ]
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{base}?boards=3-1")
        assert refused.value.response.status_code == 400
        assert b"must run upwards" in refused.value.response.body
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{live.base}/games/{live.game_ids[0]}/stream?boards=1-2")
        assert b"boards is for round streams" in refused.value.response.body


@pytest.mark.anyio
async def test_a_handshake_written_in_pieces_with_pauses_still_gets_the_snapshot(tmp_path):
    async with live_server(tmp_path) as live:
        reader, writer = await connection(live)
        key = base64.b64encode(os.urandom(16))
        request = opening(live, key)
        # The request line byte by byte, the headers in two, the blank line cut in half.
        cuts = [*range(1, 16), len(request) // 2, len(request) - 2, len(request)]
        for start, end in itertools.pairwise([0, *cuts]):
            writer.write(request[start:end])
            await writer.drain()
            await asyncio.sleep(0.01)
        await accepted(reader, key)
        with anyio.fail_after(5):
            opcode, payload = await read_frame(reader)
        assert (opcode, json.loads(payload)["type"]) == (0x1, "snapshot")
        writer.close()


class Wire(asyncio.Transport):
    """A transport that keeps what the protocol writes (no socket: all goes through it)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = bytearray()
        self.wrote = asyncio.Event()
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += data
        self.wrote.set()

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 50000) if name == "peername" else default


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The opcodes and payloads of a run of unmasked frames, the last one whole."""
    frames = []
    while data:
        size, start = data[1], 2
        if size == 126:
            size, start = struct.unpack("!H", data[2:4])[0], 4
        frames.append((data[0] & 0x0F, data[start : start + size]))
        data = data[start + size :]
    return frames


def masked(opcode: int, payload: bytes) -> bytes:
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"abcd" + unmask(payload, b"abcd")


@pytest.mark.parametrize("split", ["whole", "byte by byte", "at the blank line"])
@pytest.mark.anyio
async def test_the_protocol_reads_the_same_however_its_bytes_are_cut(tmp_path, split):
    """Fed straight (uvicorn's HTTP reader hands over the whole head, but a client's frames
    may come right behind it): the handshake and a ping sent before the answer."""
    async with live_server(tmp_path) as live:
        async with connect(f"{live.base}/rounds/{live.round_id}/stream") as client:
            await client.recv()  # the app has started
        protocol = StreamProtocol(
            live.app, parse_stream_request, Config(live.app), ServerState(), {}
        )
        wire = Wire()
        protocol.connection_made(wire)
        key = base64.b64encode(os.urandom(16))
        data = opening(live, key) + masked(0x9, b"early")
        if split == "whole":
            chunks = [data]
        elif split == "byte by byte":
            chunks = [data[n : n + 1] for n in range(len(data))]
        else:
            chunks = [data[: len(opening(live, key)) - 2], data[len(opening(live, key)) - 2 :]]
        for chunk in chunks:
            protocol.data_received(chunk)
        with anyio.fail_after(5):
            while b'"snapshot"' not in wire.sent:
                wire.wrote.clear()
                await wire.wrote.wait()
        head, _, frames = bytes(wire.sent).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101 ")
        assert b"Sec-WebSocket-Accept: " + accept_key(key) in head
        (pong, snapshot) = server_frames(frames)
        assert pong == (0xA, b"early")  # answered once the handshake was
        assert (snapshot[0], json.loads(snapshot[1])["type"]) == (0x1, "snapshot")
        protocol.connection_lost(None)
        assert len(live.rooms) == 0


@pytest.mark.anyio
async def test_a_device_token_follows_streams_as_the_public_does(tmp_path):
    async with live_server(tmp_path) as live:
        with Session(live.hub.engine) as session:
            publish_round(session, round_id=live.round_id, published=False)
            device = create_token(
                session, user="Board 1 tablet", role="keyer", game_id=live.game_ids[0]
            )
            staff = create_token(session, user="Desk", role="keyer")
            session.commit()
        stream = f"{live.base}/rounds/{live.round_id}/stream"
        async with connect(f"{stream}?token={staff}") as client:
            assert json.loads(await client.recv())["type"] == "snapshot"
        async with connect(f"{stream}?token={device}") as client:
            assert await closed_with(client) == 4404  # unpublished: the public sees nothing
        async with connect(stream) as client:
            assert await closed_with(client) == 4404
