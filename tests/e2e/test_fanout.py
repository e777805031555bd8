"""The fan-out on a real uvicorn server: frames written straight to the transports, bursts
in one write, a client that stops reading closed with 1013 while the others go on."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import anyio
import pytest
from fastapi import FastAPI
from sqlmodel import Session
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from relay.api.app import create_app
from relay.api.rooms import Rooms
from relay.api.server import listen_socket, make_server
from relay.api.transport import DirectWriter
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.domain.game.events import ArbiterAlert
from relay.hub.hub import Hub
from relay.store.engine import open_store
from tests.pairings import paired_round


@contextlib.asynccontextmanager
async def server(tmp_path) -> AsyncIterator[tuple[Hub, FastAPI, str, int, int]]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'fanout.db'}", rate_limit=0)
    engine = open_store(settings.db_url)
    with Session(engine) as session:
        round_id, (game_id,) = paired_round(session)
    hub = Hub(settings, engine, MemoryBus())
    app = create_app(settings, hub)
    sock = listen_socket("127.0.0.1", 0)
    uvicorn_server = make_server(app)
    # The socket listens already: clients that connect early wait in its backlog.
    task = asyncio.create_task(uvicorn_server.serve(sockets=[sock]))
    port = sock.getsockname()[1]
    try:
        yield hub, app, f"ws://127.0.0.1:{port}/api", round_id, game_id
    finally:
        uvicorn_server.should_exit = True
        await task
        await hub.close()
        engine.dispose()


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
    async with server(tmp_path) as (hub, app, base, round_id, game_id):
        url = f"{base}/rounds/{round_id}/stream"
        async with connect(url) as fast, connect(url, max_size=None) as stalled:
            for client in (fast, stalled):
                assert json.loads(await client.recv())["type"] == "snapshot"
            rooms: Rooms = app.state.rooms
            (room,) = rooms._rooms.values()
            room.write_limit = 64 * 1024
            assert all(isinstance(m.writer, DirectWriter) for m in room.members)
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
            stalled.transport.resume_reading()
            with anyio.fail_after(10):
                closed = await last_words(stalled)
            assert closed.rcvd is not None
            assert closed.rcvd.code == 1013
            await hub.recorder.record(round_id=round_id, game_id=game_id, events=[alert(999)])
            assert json.loads(await fast.recv())["data"]["ply"] == 999
