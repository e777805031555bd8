"""The public ladder page (docs/ladders.md) in a real Chromium against ``relay serve``: a
club's ladder entered through the API shows its rank, points, games and qualified marks,
each player's history opens under their row, and the links give the same table as JSON and
CSV."""

from __future__ import annotations

import csv
import io
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import browser_page, screenshot
from tests.hub_calls import hub_call, hub_tokens
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

EVENT = (
    '[tournament]\nname = "Ladder Night"\n\n[[player]]\nnumber = 1\nname = "Moss, Mary"\n\n'
    '[[player]]\nnumber = 2\nname = "Lee, Hugo"\n\n[[round]]\nnumber = 1\npairings = [[1, 2]]\n'
)


def test_the_ladder_page_shows_the_table_and_each_players_history(tmp_path: Path) -> None:
    event = tmp_path / "event.toml"
    event.write_text(EVENT, encoding="utf-8")
    db = migrated_sqlite(tmp_path / "ladder.db")
    with relay_serve(tmp_path, event, db) as (_, address), browser_page(1200, 900) as page:
        [admin] = hub_tokens(db, ("Hub admin", "admin"))

        def call(method: str, path: str, body: object = None, token: str | None = admin) -> Any:
            return hub_call(address, method, path, body, token)

        club = call("POST", "/api/clubs", {"name": "Hexham CC"})["id"]
        officer = call(
            "POST", f"/api/clubs/{club}/keys", {"role": "club-officer", "user": "Captain"}
        )["token"]
        members = {
            name: call("POST", f"/api/clubs/{club}/members", {"name": name}, officer)["id"]
            for name in ("Able, Ann", "Baker, Bob", "Cole, Cat")
        }
        ladder = call(
            "POST",
            f"/api/clubs/{club}/ladders",
            {
                "name": "Autumn ladder",
                "rate": "standard",
                "starts": "2024-09-01",
                "ends": "2024-12-31",
                "min_games": 2,
            },
            officer,
        )["id"]
        for day, white, black, result in (
            ("2024-09-05", "Able, Ann", "Baker, Bob", "1-0"),  # Ann 60, Bob 40
            ("2024-09-12", "Cole, Cat", "Able, Ann", "1-0"),  # Cat 50 v Ann 60: +12 -> 62, 48
            ("2024-09-19", "Baker, Bob", "Cole, Cat", "1/2-1/2"),  # 22 apart: Bob +4 -> 44, 58
        ):
            body = {
                "played_on": day,
                "rate": "standard",
                "white": members[white],
                "black": members[black],
                "result": result,
            }
            call("POST", f"/api/clubs/{club}/games", body, officer)

        page.goto(f"http://{address}ladder?id={ladder}")
        expect(page.locator("#ladder-name")).to_have_text("Hexham CC: Autumn ladder")
        rows = page.locator("#table tbody tr.player")
        expect(rows).to_have_count(3)
        expect(rows.locator("td.rank")).to_have_text(["1", "2", "3"])
        expect(rows.locator("td.name")).to_have_text(["Cole, Cat", "Able, Ann", "Baker, Bob"])
        expect(rows.locator("td.points")).to_have_text(["58", "48", "44"])
        expect(rows.locator("td.qualified")).to_have_text(["✓", "✓", "✓"])
        expect(page.locator("#ladder-rules")).to_contain_text("standard play, 2024-09-01")

        history = page.locator(f"#history-{members['Cole, Cat']}")
        expect(history).to_be_hidden()
        page.get_by_role("button", name="Cole, Cat").click()
        expect(history).to_be_visible()
        expect(history.locator("tr.game")).to_have_count(2)
        expect(history.locator("td.change")).to_have_text(["+12", "-4"])
        screenshot(page, "ladder")

        json_table = call("GET", page.locator("#json-link").get_attribute("href") or "", None)
        with urllib.request.urlopen(
            f"http://{address}{(page.locator('#csv-link').get_attribute('href') or '').lstrip('/')}"
        ) as reply:
            rows_csv = list(csv.DictReader(io.StringIO(reply.read().decode())))
        shown = [(line["place"], line["name"], str(line["points"])) for line in json_table["lines"]]
        assert shown == [(r["place"], r["name"], r["points"]) for r in rows_csv]
        assert shown == [
            ("1", "Cole, Cat", "58"),
            ("2", "Able, Ann", "48"),
            ("3", "Baker, Bob", "44"),
        ]

        page.goto(f"http://{address}ladder?id=999")
        expect(page.locator("#problem")).to_contain_text("no ladder 999")
