"""Our app on a real uvicorn server in the test's own loop, on a fresh database with one
paired, published round."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlmodel import Session

from relay.api.app import create_app
from relay.api.server import listen_socket, make_server
from relay.bus.memory import MemoryBus
from relay.config import Settings
from relay.edge.rooms import Rooms
from relay.hub.hub import Hub
from relay.store.engine import open_store
from tests.pairings import paired_round
from tests.stores import migrated_sqlite


@dataclass
class LiveServer:
    hub: Hub
    app: FastAPI
    #: ``ws://127.0.0.1:PORT/api``
    base: str
    round_id: int
    game_ids: list[int]

    @property
    def rooms(self) -> Rooms:
        rooms: Rooms = self.app.state.rooms
        return rooms


@contextlib.asynccontextmanager
async def live_server(
    folder: Path, *, games: int = 1, fanout_threads: int | None = None, **options: Any
) -> AsyncIterator[LiveServer]:
    """``options`` are settings (limits are off unless they say otherwise)."""
    settings = Settings(
        db_url=migrated_sqlite(folder / "live.db"),
        fanout_threads=fanout_threads,
        **{"rate_limit": 0, **options},
    )
    engine = open_store(settings.db_url)
    with Session(engine) as session:
        round_id, game_ids = paired_round(session, games=games)
    hub = Hub(settings, engine, MemoryBus())
    app = create_app(settings, hub)
    sock = listen_socket("127.0.0.1", 0)
    server = make_server(app, settings)
    # The socket listens already: clients that connect early wait in its backlog.
    task = asyncio.create_task(server.serve(sockets=[sock]))
    port = sock.getsockname()[1]
    try:
        yield LiveServer(hub, app, f"ws://127.0.0.1:{port}/api", round_id, game_ids)
    finally:
        server.should_exit = True
        await task
        await hub.close()
        engine.dispose()
