"""The arbiter console's Outputs card (docs/outputs.md) in a real Chromium against
``relay serve``: an export folder that works and one that cannot be written, each on its
own line, the broken one failing in words with its next try counted down."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import expect

from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.domain.formats.output_setup import FolderSetup
from tests.browser import browser_page, open_console, screenshot
from tests.hub_calls import hub_tokens
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser


def test_the_console_shows_each_output_working_or_failing(tmp_path: Path) -> None:
    games = write_games(tmp_path / "games.pgn", [("Desk, Dan", 2000, "Hall, Hal", 2010, "*")])
    export, blocked = tmp_path / "export", tmp_path / "blocked"
    blocked.write_text("a file where a folder should be\n")
    setup = event_setup(load_pairings(games, 1), [])
    outputs = (FolderSetup(path=str(export)), FolderSetup(path=str(blocked)))
    event = tmp_path / "event.toml"
    event.write_text(render_event_file(replace(setup, outputs=outputs)), encoding="utf-8")
    db = migrated_sqlite(tmp_path / "outputs.db")
    with relay_serve(tmp_path, event, db) as (_, address), browser_page(1400, 1000) as page:
        (arbiter,) = hub_tokens(db, ("Chief", "arbiter"))
        open_console(page, f"http://{address}arbiter", arbiter)
        card = page.locator("#outputs-card")
        expect(card).to_be_visible(timeout=15_000)
        items = page.locator("#outputs-list li.output")
        expect(items).to_have_count(2)
        working = items.nth(0)
        expect(working).to_have_class("output ok", timeout=15_000)
        expect(working.locator(".output-kind")).to_have_text("folder")
        expect(working.locator(".output-state")).to_have_text("working")
        expect(working.locator(".output-last")).to_contain_text("last: round 1: ")
        failing = items.nth(1)
        expect(failing).to_have_class("output retrying")
        words = re.compile(
            r"^failing \(\d+ failures?\): .*blocked is a file, not a folder; next try in \d+ s$"
        )
        expect(failing.locator(".output-state")).to_have_text(words)
        screenshot(page, "arbiter-outputs")
