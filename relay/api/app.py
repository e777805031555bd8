"""The application factory. Nothing is created at import time."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Response
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from relay.api import (
    admin,
    agent_link,
    arbiter,
    boards,
    clocks,
    correspondence,
    entries,
    faults,
    game_input,
    games,
    imports,
    ladders,
    livechess,
    outputs,
    pairings,
    player_names,
    score_check,
    standings,
    stream_routes,
    team_standings,
)
from relay.api.body_limit import BodyLimit
from relay.api.limits import Limits, LimitSettings
from relay.api.rate_limit import RateLimit
from relay.api.refusals import HTTPInputError, listed_errors
from relay.api.route_roles import ERROR_RESPONSES, declare
from relay.bus.memory import MemoryBus
from relay.bus.redis_bus import close_bus, open_bus
from relay.config import Settings
from relay.edge.fanout import SocketFanout
from relay.edge.rooms import Rooms
from relay.hub.hub import Hub
from relay.store.engine import open_store

PAGE_NAME = re.compile(r"[a-z][a-z-]*")
BODY_TAG = re.compile(r"<body[^>]*>", re.IGNORECASE)

DESCRIPTION = """
Live relay of over-the-board chess games from electronic boards.

Reading needs no login. Changing anything needs a token (`relay token create --role ROLE`)
sent as `Authorization: Bearer TOKEN`: **operator** (boards), **arbiter** (results,
corrections, rounds), **admin** (everything, including loading event files); each route
that needs one names its lowest role as `x-role`. Public readers see published rounds only,
each as it stood its transmission delay ago.

Every request is rate-limited, before its token is checked: per client address without a
token, per user with a valid one, and refused tokens far more tightly (429 with
`Retry-After`). Errors are JSON with `detail` (see docs/api.md).
"""


def _rooms(bus: MemoryBus, settings: Settings) -> Rooms:
    fanout = SocketFanout(settings.fanout_threads)
    return Rooms(bus, heartbeat=settings.heartbeat_seconds, fanout=fanout)


def create_app(settings: Settings, hub: Hub | None = None) -> FastAPI:
    """Build the app. Without ``hub``, the app opens the database and runs its own hub."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if hub is not None:
            app.state.hub = hub
            app.state.rooms = _rooms(hub.bus, settings)
            try:
                yield
            finally:
                app.state.rooms.close()
            return
        engine = open_store(settings.db_url)
        bus = await open_bus(settings.redis_url, settings.redis_namespace)
        own_hub = Hub(settings, engine, bus)
        app.state.hub = own_hub
        app.state.rooms = _rooms(own_hub.bus, settings)
        try:
            yield
        finally:
            app.state.rooms.close()
            await own_hub.close()
            await close_bus(bus)
            engine.dispose()

    app = FastAPI(
        title="chess-relay",
        summary="Live relay of over-the-board chess games from electronic boards",
        description=DESCRIPTION,
        version="0.1.0",
        license_info={"name": "GPL-3.0-or-later", "identifier": "GPL-3.0-or-later"},
        lifespan=lifespan,
    )
    limits = Limits(LimitSettings.of(settings))
    app.state.limits = limits
    for module in (
        games,
        standings,
        team_standings,
        stream_routes,
        arbiter,
        score_check,
        entries,
        game_input,
        clocks,
        pairings,
        boards,
        admin,
        imports,
        player_names,
        agent_link,
        outputs,
        livechess,
        ladders,
        correspondence,
    ):
        app.include_router(module.router, responses=ERROR_RESPONSES)
    declare(app)
    app.add_exception_handler(HTTPInputError, listed_errors)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(RateLimit, limits=limits)
    faults.install(app)  # the outermost: it answers for the rest
    serve_page = _page_server(settings.banner)

    @app.get("/", include_in_schema=False)
    def viewer() -> Response:
        return serve_page(settings.web_dir / "index.html")

    @app.get("/{page}", include_in_schema=False)
    def page(page: str) -> Response:
        """The other pages (``/game``, ``/scoresheet``, ``/bulletin``, ...): ``web/PAGE.html``."""
        path = settings.web_dir / f"{page}.html"
        if not PAGE_NAME.fullmatch(page) or not path.is_file():
            raise HTTPException(404, f"no page {page!r}")
        return serve_page(path)

    app.mount("/static", StaticFiles(directory=settings.web_dir / "static"), name="static")
    return app


def _page_server(banner: str | None) -> Callable[[Path], Response]:
    """How pages are served: the files as they are, or with the banner at the top of the
    body (escaped: the banner is text, never markup)."""
    if not banner or banner.isspace():
        return FileResponse
    notice = f'<p class="site-banner" role="note">{html.escape(banner)}</p>'

    def with_banner(path: Path) -> Response:
        page = path.read_text(encoding="utf-8")
        body = BODY_TAG.search(page)
        at = body.end() if body else 0
        return HTMLResponse(page[:at] + notice + page[at:])

    return with_banner
