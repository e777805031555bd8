"""The arbiter console's Agents card (docs/venue-agent.md) in a real Chromium against
``relay serve``: a venue agent connects and shows as connected with its boards, the one a
game follows marked so, and the inputs waiting at the venue; when its link holds everything
the card says it went silent, and when the link drops, that it is away, at once."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection, connect

from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from tests.browser import browser_page, open_console, screenshot
from tests.hub_calls import hub_tokens
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

HELLO = {
    "type": "hello",
    "agent": "hall",
    "boards": [{"board": "1", "port": "/dev/ttyACM0"}, {"board": "2", "port": "/dev/ttyACM1"}],
}


def time_marks(agent: ClientConnection, stop: threading.Event) -> None:
    """The venue's time, five times a second, until ``stop``."""
    while not stop.wait(0.2):
        agent.send(json.dumps({"type": "time", "mono": time.monotonic(), "wall": time.time()}))


def test_the_console_shows_an_agent_connected_then_silent_then_away(tmp_path: Path) -> None:
    games = write_games(tmp_path / "games.pgn", [("Venue, Vic", 2000, "Hall, Hal", 2010, "*")])
    event = tmp_path / "event.toml"
    event.write_text(
        render_event_file(event_setup(load_pairings(games, 1), ["agent://hall/1"])),
        encoding="utf-8",
    )
    db = migrated_sqlite(tmp_path / "agents.db")
    with relay_serve(tmp_path, event, db) as (_, address), browser_page(1400, 1000) as page:
        arbiter, operator = hub_tokens(db, ("Chief", "arbiter"), ("Venue laptop", "operator"))
        open_console(page, f"http://{address}arbiter", arbiter)
        expect(page.locator("#agents-card")).to_be_hidden()  # no agent yet

        headers = {"Authorization": f"Bearer {operator}"}
        with connect(f"ws://{address}api/agent", additional_headers=headers) as agent:
            agent.send(json.dumps({**HELLO, "queued": 4}))  # four inputs wait at the venue
            assert json.loads(agent.recv(timeout=30)) == {"type": "welcome", "acked": 0}
            marking = threading.Event()
            marks = threading.Thread(target=time_marks, args=(agent, marking), daemon=True)
            marks.start()  # as a live agent does when nothing else happens
            card = page.locator("#agents-card")
            expect(card).to_be_visible(timeout=15_000)
            item = page.locator('#agents-list li.agent[data-agent="hall"]')
            expect(item.locator(".agent-state")).to_have_text(" connected", timeout=15_000)
            expect(item.locator(".agent-boards li")).to_have_text(
                [
                    "board 1 (/dev/ttyACM0): followed",
                    "board 2 (/dev/ttyACM1): no game follows it",
                ]
            )
            expect(item.locator(".agent-backlog")).to_have_text("; 4 waiting at the venue")
            screenshot(page, "arbiter-agent-connected")
            # The link holds everything: the connection stays open, nothing comes.
            marking.set()
            marks.join(5)
            silent = " silent: its link is probably down"
            expect(item.locator(".agent-state")).to_have_text(silent, timeout=15_000)
            expect(item).to_have_class("agent silent")
        # The venue's link dropped.
        away = re.compile(r"^ away since \d+(\.\d)? s ago$")
        expect(item.locator(".agent-state")).to_have_text(away, timeout=15_000)
        expect(item).to_have_class("agent away")
        expect(item.locator(".agent-backlog")).to_have_text(
            "; 4 waiting at the venue when last heard"
        )
        screenshot(page, "arbiter-agent-away")
