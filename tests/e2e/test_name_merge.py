"""The arbiter console's Names card in a real Chromium, against ``relay serve`` on an event
whose starting list has one player twice ("Kramnik, Vladimir" and "Kramnik, V"; no boards
needed).

* The card flags the pair with the hub's reason, and the Round card says "2 players may be
  the same person" before the round is published.
* One click merges them: the card has no clash left, its starting list has one Kramnik, the
  hub stores one player (with the game of the row kept and the fuller name), and the round
  on screen names him so.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from relay.store.access import create_token
from relay.store.engine import open_store
from tests.browser import open_console, screenshot
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

EVENT = """[tournament]
name = "Names Open"
rounds = 5

[[player]]
number = 1
name = "Kramnik, Vladimir"
rating = 2753

[[player]]
number = 2
name = "Carlsen, Magnus"
rating = 2830

[[player]]
number = 3
name = "Kramnik, V"
federation = "RUS"

[[player]]
number = 4
name = "Caruana, Fabiano"
rating = 2800

[[round]]
number = 1
published = false
pairings = [[3, 2]]
"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The hub's address and an arbiter's token."""
    event = tmp_path / "event.toml"
    event.write_text(EVENT, encoding="utf-8")
    db = migrated_sqlite(tmp_path / "names.db")
    with relay_serve(tmp_path, event, db) as (_, address):
        engine = open_store(db)
        try:
            with Session(engine) as session:
                arbiter = create_token(session, user="Chief Arbiter", role="arbiter")
                session.commit()
        finally:
            engine.dispose()
        yield address, arbiter


def get(address: str, path: str) -> Any:
    with urllib.request.urlopen(f"http://{address}{path.lstrip('/')}", timeout=30) as reply:
        return json.loads(reply.read())


def test_two_names_of_one_player_are_flagged_and_merged_with_one_click(
    hub: tuple[str, str], page: Page
) -> None:
    address, arbiter = hub
    page.set_viewport_size({"width": 1400, "height": 1000})
    open_console(page, f"http://{address}arbiter", arbiter)

    clashes = page.locator("#name-clashes li.name-clash")
    expect(clashes).to_have_count(1, timeout=15_000)
    expect(clashes.locator(".clash-names")).to_have_text("Kramnik, Vladimir (1) and Kramnik, V (3)")
    expect(clashes.locator(".clash-reasons li")).to_have_text(["initial V matches Vladimir"])
    expect(clashes.locator("input.merge-name")).to_have_value("Kramnik, Vladimir")
    expect(page.locator("#clash-count")).to_have_text("1")
    expect(page.locator("#names-warning")).to_have_text(
        "⚠ 2 players may be the same person: Kramnik, Vladimir and Kramnik, V"
    )
    expect(page.locator("#published-state")).to_have_text("not published")
    page.locator("#players-summary").click()
    expect(page.locator("#players-list li")).to_have_text(
        ["Kramnik, Vladimir", "Carlsen, Magnus", "Kramnik, V", "Caruana, Fabiano"]
    )
    screenshot(page, "name-merge-before")

    clashes.locator("button.merge").click()
    expect(page.locator("#names-status")).to_have_text(
        "Merged: Kramnik, Vladimir and Kramnik, V are one player now, Kramnik, Vladimir "
        "(start number 2)."
    )
    expect(clashes).to_have_count(0)
    expect(page.locator("#no-clashes")).to_be_visible()
    expect(page.locator("#clash-count")).to_have_text("0")
    expect(page.locator("#names-warning")).to_be_hidden()
    expect(page.locator("#players-summary")).to_have_text("Players (3)")
    expect(page.locator("#players-list li")).to_have_text(
        ["Carlsen, Magnus", "Kramnik, Vladimir", "Caruana, Fabiano"]
    )
    # The round on screen is read again: board 1 names the one player.
    expect(page.locator("#results tbody tr").first).to_contain_text("Kramnik, Vladimir")
    screenshot(page, "name-merge-after")

    headers = {"Authorization": f"Bearer {arbiter}"}
    request = urllib.request.Request(f"http://{address}api/rounds", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as reply:
        (round_one,) = json.loads(reply.read())
    players = get(address, "/api/tournaments/1/players")
    assert [(p["start_number"], p["name"], p["rating"], p["federation"]) for p in players] == [
        (1, "Carlsen, Magnus", 2830, None),
        (2, "Kramnik, Vladimir", 2753, "RUS"),
        (3, "Caruana, Fabiano", 2800, None),
    ]
    request = urllib.request.Request(
        f"http://{address}api/rounds/{round_one['id']}/pairings", headers=headers
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        pairing = json.loads(reply.read())
    assert [(g["white"], g["black"]) for g in pairing["games"]] == [(2, 1)]
