"""An order the board cannot confirm, resolved from the arbiter's console in a real
Chromium against ``relay serve``.

Board 1 is read at the venue (``agent://hall/1``); the test speaks for its agent on the
agents' websocket: the board at the start, then, after a gap, three plies on (1. e3 c6
2. h3, nothing seen in between), then the venue's time going on. The hub records one order,
and the console's Alerts card says which plies and offers the other order; the arbiter
uses it, confirms the correction, and the game's moves are the other order, in the audit
trail.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session
from websockets.sync.client import connect

from drivers.event_codec import encode
from drivers.events import PositionSnapshot
from relay.store.access import create_token
from relay.store.engine import open_store
from tests.browser import browser_page
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite
from tests.venue_round import AGENT, agent_urls, round_event

GAME = """[Event "Uncertain order"]
[White "Alpha, Anna"]
[Black "Beta, Bert"]
[Result "*"]

1. e3 c6 2. h3 *
"""


def snapshot(*sans: str) -> dict[str, Any]:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    squares = tuple(
        None if (piece := board.piece_at(square)) is None else piece.symbol()
        for square in chess.SQUARES
    )
    encoded: dict[str, Any] = encode(PositionSnapshot(squares))
    return encoded


@pytest.fixture
def page() -> Iterator[Page]:
    with browser_page(width=1400, height=1000) as page:
        yield page


@pytest.mark.browser
def test_the_arbiter_puts_the_other_order_in_from_the_alert(tmp_path: Path, page: Page) -> None:
    games = tmp_path / "games.pgn"
    games.write_text(GAME, encoding="utf-8")
    event = tmp_path / "event.toml"
    event.write_text(round_event(games, agent_urls(1)), encoding="utf-8")
    db = migrated_sqlite(tmp_path / "hub.db")
    with relay_serve(tmp_path, event, db) as (_, address):
        engine = open_store(db)
        with Session(engine) as session:
            arbiter = create_token(session, user="Chief Arbiter", role="arbiter")
            operator = create_token(session, user="Venue", role="operator")
            session.commit()
        engine.dispose()
        page.goto(f"http://{address}arbiter")
        page.fill("#token-input", arbiter)
        page.click("#login-form button[type=submit]")
        expect(page.locator("#status")).to_have_text("live", timeout=15_000)

        url = f"ws://{address}api/agent"
        with connect(url, additional_headers={"Authorization": f"Bearer {operator}"}) as link:
            link.send(json.dumps({"type": "hello", "agent": AGENT, "boards": [
                {"board": "1", "port": "/dev/ttyACM0"}], "queued": 0}))  # fmt: skip
            assert json.loads(link.recv(timeout=10))["type"] == "welcome"
            mono, wall = 100.0, time.time()
            items = [
                {"seq": 1, "board": "1", "mono": mono, "wall": wall, "event": snapshot()},
                {"seq": 2, "board": "1", "mono": mono + 10, "wall": wall + 10,
                 "event": snapshot("e3", "c6", "h3")},
            ]  # fmt: skip
            link.send(json.dumps({"type": "inputs", "items": items, "queued": 2}))
            assert json.loads(link.recv(timeout=10)) == {"type": "ack", "seq": 2}
            link.send(json.dumps({"type": "time", "mono": mono + 20, "wall": wall + 20}))

            alert = page.locator("#alerts li[data-kind=uncertain-order]")
            expect(alert).to_have_count(1, timeout=15_000)
            expect(alert.locator(".what")).to_contain_text("plies 1-3 were not seen played")
            game = page.evaluate("fetch('/api/rounds/1/games').then(r => r.json())")[0]["id"]
            recorded = page.evaluate(
                f"fetch('/api/games/{game}').then(r => r.json()).then(g => g.moves.map(m => m.san))"
            )
            other = ["h3", "c6", "e3"] if recorded[0] == "e3" else ["e3", "c6", "h3"]
            use = alert.locator("button", has_text=f"Use 1. {other[0]} c6 2. {other[2]}")
            use.click()
            expect(page.locator("#correction-summary")).to_contain_text(f"with {' '.join(other)}")
            page.click("#correction-ok")
            expect(page.locator("#correction-confirm")).to_be_hidden(timeout=10_000)

        detail = page.evaluate(f"fetch('/api/games/{game}').then(r => r.json())")
        assert [move["san"] for move in detail["moves"]] == other
        audit = page.evaluate(
            f"fetch('/api/audit', {{headers: {{Authorization: 'Bearer {arbiter}'}}}})"
            ".then(r => r.json())"
        )
        assert "uncertain-order" in json.dumps(audit)
