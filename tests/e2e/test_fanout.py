"""The fan-out on a real uvicorn server: frames written straight to the transports, bursts
in one write, a client that stops reading closed with 1013 while the others go on."""

from __future__ import annotations

import contextlib
import json

import anyio
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from relay.domain.game.events import ArbiterAlert
from relay.edge.fanout import PARALLEL_FROM
from relay.edge.protocol import StreamProtocol
from tests.live_server import live_server


async def last_words(client: ClientConnection) -> ConnectionClosed:
    """Read the client's messages until the server closes it."""
    try:
        while True:
            await client.recv()
    except ConnectionClosed as closed:
        return closed


def alert(n: int, size: int = 10) -> ArbiterAlert:
    return ArbiterAlert(alert="test", detail="x" * size, ply=n, at=1.0)


@pytest.mark.anyio
async def test_spectators_get_direct_frames_and_a_stalled_one_is_dropped(tmp_path):
    async with live_server(tmp_path) as live:
        hub, round_id, (game_id,) = live.hub, live.round_id, live.game_ids
        url = f"{live.base}/rounds/{round_id}/stream"
        async with connect(url) as fast, connect(url, max_size=None) as stalled:
            for client in (fast, stalled):
                assert json.loads(await client.recv())["type"] == "snapshot"
            (room,) = live.rooms._rooms.values()
            room.write_limit = 64 * 1024
            assert all(isinstance(m.writer, StreamProtocol) for m in room.members)
            # Both live, nothing waiting: the room writes to their sockets itself.
            assert set(room._by_socket.values()) == room.members
            # A burst: several events committed in one go reach the client in order.
            await hub.recorder.record(
                round_id=round_id, game_id=game_id, events=[alert(n) for n in range(1, 4)]
            )
            got = [json.loads(await fast.recv()) for _ in range(3)]
            assert [(m["v"], m["kind"]) for m in got] == [(1, "alert"), (2, "alert"), (3, "alert")]
            # The stalled client stops reading; big events fill its socket, then it is closed.
            stalled.transport.pause_reading()
            for n in range(4, 400):
                await hub.recorder.record(
                    round_id=round_id, game_id=game_id, events=[alert(n, 60_000)]
                )
                got = json.loads(await fast.recv())
                assert got["v"] == n
                if len(room.members) == 1:
                    break
            assert len(room.members) == 1, "the stalled client was never dropped"
            assert list(room._by_socket.values()) == list(room.members)
            stalled.transport.resume_reading()
            with anyio.fail_after(10):
                closed = await last_words(stalled)
            assert closed.rcvd is not None
            assert closed.rcvd.code == 1013
            await hub.recorder.record(round_id=round_id, game_id=game_id, events=[alert(999)])
            assert json.loads(await fast.recv())["data"]["ply"] == 999


@pytest.mark.anyio
async def test_a_crowd_written_by_several_threads_gets_every_event_in_order(tmp_path):
    crowd = PARALLEL_FROM + 72
    async with live_server(tmp_path, fanout_threads=2) as live:
        hub, round_id, (game_id,) = live.hub, live.round_id, live.game_ids
        url = f"{live.base}/rounds/{round_id}/stream"
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(connect(url)) for _ in range(crowd)]
            for client in clients:
                assert json.loads(await client.recv())["type"] == "snapshot"
            (room,) = live.rooms._rooms.values()
            assert live.rooms.fanout.helpers == 2
            assert len(room._by_socket) == crowd
            for n in range(1, 6):
                await hub.recorder.record(
                    round_id=round_id, game_id=game_id, events=[alert(n, 20 * n)]
                )

            async def versions(client: ClientConnection) -> list[int]:
                """The first five events' versions; a ping (sent to a client 15 s quiet,
                as the first of a slow-connecting crowd may be) is not an event."""
                got: list[int] = []
                while len(got) < 5:
                    message = json.loads(await client.recv())
                    if message["type"] != "ping":
                        got.append(message["v"])
                return got

            with anyio.fail_after(20):
                got = [await versions(client) for client in clients]
        assert got == [[1, 2, 3, 4, 5]] * crowd
