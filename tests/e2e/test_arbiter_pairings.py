"""The arbiter console's Pairings card in a real Chromium, against ``relay serve`` on a Swiss
with no round yet (no boards needed).

* The arbiter pairs round 1: the card shows the hub's Dutch pairing (the lowest-rated of
  seven players gets the pairing-allocated bye), the round chooser lists the round, and the
  console starts on it.
* Two players swapped between boards and saved: the card shows what the hub stored; a
  bye taken away shows the hub's warning, a bye added back clears it.
* Publishing makes the pairings public; pairing again is refused in words while round 1's
  results are not verified.
* A bye asked for and a withdrawal shape the round paired next.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
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

PLAYERS = 7
#: The table as the page holds it: (board, white, black) start numbers.
TABLE = """rows => rows.map(row => [
  Number(row.dataset.board),
  Number(row.querySelector("input.white-number").value),
  Number(row.querySelector("input.black-number").value),
])"""
BYES = """rows => rows.map(row => ({
  player: Number(row.querySelector("input.bye-number").value),
  kind: row.querySelector("select.bye-kind").value,
}))"""


def event_text() -> str:
    lines = ["[tournament]", 'name = "Spring Swiss"', "rounds = 3", 'pairing_system = "swiss"', ""]
    for number in range(1, PLAYERS + 1):
        lines += ["[[player]]", f"number = {number}", f'name = "Player, No{number}"']
        lines += [f"rating = {2300 - 50 * number}", ""]
    return "\n".join(lines)


@dataclass
class Hub:
    address: str
    arbiter: str

    def url(self, page: str = "") -> str:
        return f"http://{self.address}{page}"

    def call(self, method: str, path: str, *, auth: bool = True) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {self.arbiter}"} if auth else {}
        request = urllib.request.Request(
            f"http://{self.address}{path.lstrip('/')}", method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, path: str) -> Any:
        status, body = self.call("GET", path)
        assert status == 200, (path, status, body)
        return body


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    event = tmp_path / "event.toml"
    event.write_text(event_text(), encoding="utf-8")
    db = migrated_sqlite(tmp_path / "pairings.db")
    with relay_serve(tmp_path, event, db) as (_, address):
        engine = open_store(db)
        try:
            with Session(engine) as session:
                arbiter = create_token(session, user="Chief Arbiter", role="arbiter")
                session.commit()
        finally:
            engine.dispose()
        yield Hub(address, arbiter)


def sign_in(page: Page, hub: Hub) -> None:
    open_console(page, hub.url("arbiter"), hub.arbiter)


def shown(page: Page) -> tuple[list[list[int]], list[dict[str, Any]], list[str]]:
    """The Pairings card's games, byes and warnings."""
    games = page.locator("#pairings tbody tr").evaluate_all(TABLE)
    byes = page.locator("#pairing-byes tbody tr").evaluate_all(BYES)
    warnings = page.locator("#pairing-warnings li .words").all_text_contents()
    return games, byes, warnings


def stored(hub: Hub, round_id: int) -> tuple[list[list[int]], list[dict[str, Any]], list[str]]:
    """The same, as the hub answers ``GET /api/rounds/{id}/pairings``."""
    view = hub.get(f"/api/rounds/{round_id}/pairings")
    games = [[g["board"], g["white"], g["black"]] for g in view["games"]]
    return games, view["byes"], view["warnings"]


def names(hub: Hub) -> dict[int, str]:
    """Each start number as the card names it: "Name (rating)"."""
    players = hub.get("/api/tournaments/1/players")
    return {p["start_number"]: f"{p['name']} ({p['rating']})" for p in players}


def save(page: Page, reason: str) -> None:
    page.fill("#pairings-reason", reason)
    page.click("#save-pairings")
    expect(page.locator("#pairings-status")).to_contain_text("pairings saved")
    expect(page.locator("#pairings-dirty")).to_be_hidden()


@pytest.mark.browser
def test_the_arbiter_pairs_edits_and_publishes_a_round(hub: Hub, page: Page) -> None:
    sign_in(page, hub)
    expect(page.locator("#notice")).to_have_text(
        "No round yet: pair the first one in the Pairings card."
    )
    expect(page.locator("#round-top")).to_be_hidden()
    expect(page.locator("#no-pairing")).to_be_visible()
    expect(page.locator("#pairings-tournament")).to_have_text("· Spring Swiss")

    # Round 1 as the hub pairs it (FIDE Dutch): top half against bottom half, and the
    # lowest-rated player, 7, has the pairing-allocated bye.
    page.click("#pair-next")
    expect(page.locator("#pairings-status")).to_contain_text("Round 1 is paired")
    (round_one,) = hub.get("/api/rounds")
    round_id = round_one["id"]
    games, byes, warnings = stored(hub, round_id)
    assert [(white, black) for _, white, black in games] == [(1, 4), (5, 2), (3, 6)]
    ratings = {p["start_number"]: p["rating"] for p in hub.get("/api/tournaments/1/players")}
    assert byes == [{"player": min(ratings, key=ratings.__getitem__), "kind": "pab"}]
    assert byes[0]["player"] == 7
    expect(page.locator("#pairings tbody tr")).to_have_count(len(games))
    assert shown(page) == (games, byes, warnings) == (games, byes, [])
    named = names(hub)
    expect(page.locator("#pairings .white-name")).to_have_text([named[g[1]] for g in games])
    expect(page.locator("#pairings .black-name")).to_have_text([named[g[2]] for g in games])
    expect(page.locator("#pairing-byes .bye-name")).to_have_text([named[7]])
    expect(page.locator("#no-warnings")).to_be_visible()
    expect(page.locator("#pairing-round-name")).to_have_text("Round 1")
    expect(page.locator("#pairing-published")).to_have_text(
        "not published: spectators do not see it"
    )
    # The console lists the round and runs it.
    expect(page.locator("#round-select option")).to_have_text(["Spring Swiss · Round 1"])
    expect(page.locator("#round-title")).to_have_text("Spring Swiss · Round 1")
    expect(page.locator("#round-top")).to_be_visible()
    expect(page.locator("#results tbody td.black")).to_have_text(
        ["Player, No4", "Player, No2", "Player, No6"]
    )
    assert hub.call("GET", f"/api/rounds/{round_id}/pairings", auth=False)[0] == 404

    # Players 4 and 2 swap boards: the names follow the numbers as they are typed.
    board_one = page.locator("#pairings tr[data-board='1']")
    board_two = page.locator("#pairings tr[data-board='2']")
    board_one.locator("input.black-number").fill("2")
    board_two.locator("input.black-number").fill("4")
    expect(board_one.locator(".black-name")).to_have_text(named[2])
    expect(page.locator("#pairings-dirty")).to_be_visible()
    save(page, "player 2 asked to play on board 1")
    games, byes, warnings = stored(hub, round_id)
    assert [(white, black) for _, white, black in games] == [(1, 2), (5, 4), (3, 6)]
    assert shown(page) == (games, byes, warnings)
    # The console read the round's new games.
    expect(page.locator("#results tbody td.black")).to_have_text(
        ["Player, No2", "Player, No4", "Player, No6"]
    )

    # Without its bye, player 7 is left out: the hub's warning, marked; the bye back clears it.
    page.locator("#pairing-byes tbody tr").get_by_role("button", name="Remove this bye").click()
    save(page, "testing the warnings")
    expect(page.locator("#pairing-warnings li")).to_have_count(1)
    games, byes, warnings = stored(hub, round_id)
    assert byes == []
    assert warnings == ["not paired: 7"]
    expect(page.locator("#no-byes")).to_be_visible()
    assert shown(page) == (games, byes, warnings)
    expect(page.locator("#warning-count")).to_have_text("1")
    expect(page.locator("#no-warnings")).to_be_hidden()
    expect(page.locator("#pairings-status")).to_contain_text("1 warning(s) to weigh")
    expect(page.locator("#status")).to_have_text("live")
    screenshot(page, "arbiter-pairings-warning")
    page.click("#add-bye")
    added = page.locator("#pairing-byes tbody tr")
    added.locator("input.bye-number").fill("7")
    added.locator("select.bye-kind").select_option("pab")
    save(page, "the bye back")
    expect(page.locator("#no-warnings")).to_be_visible()
    games, byes, warnings = stored(hub, round_id)
    assert (byes, warnings) == ([{"player": 7, "kind": "pab"}], [])
    assert shown(page) == (games, byes, warnings)

    # Published: the public sees the pairings; the Round card agrees.
    page.click("#publish-pairings")
    expect(page.locator("#pairing-published")).to_have_text("published")
    expect(page.locator("#publish-pairings")).to_be_disabled()
    expect(page.locator("#published-state")).to_have_text("published")
    status, public = hub.call("GET", f"/api/rounds/{round_id}/pairings", auth=False)
    assert status == 200
    assert [[g["board"], g["white"], g["black"]] for g in public["games"]] == games

    # Round 2 waits for round 1's results, and the card says so in words.
    page.click("#pair-next")
    expect(page.locator("#pairings-status")).to_have_text(
        "Pair next round: every result must be verified before the next round is paired; "
        "not yet: round 1: boards 1, 2, 3"
    )
    expect(page.locator("#pairings-status")).to_have_class("change-status error")
    assert len(hub.get("/api/rounds")) == 1
    screenshot(page, "arbiter-pairings")


@pytest.mark.browser
def test_a_bye_asked_for_and_a_withdrawal_shape_the_next_round(hub: Hub, page: Page) -> None:
    sign_in(page, hub)
    # The console suggests the next round once it has read the pairings (none yet).
    expect(page.locator("#no-pairing")).to_be_visible()
    expect(page.locator("#bye-round")).to_have_value("1")
    page.fill("#bye-round", "1")
    page.fill("#bye-player", "3")
    page.select_option("#bye-kind", "half")
    page.click("#bye-form button[type=submit]")
    expect(page.locator("#entries-status")).to_have_text(
        "Round 1: half-point bye for Player, No3 (2150)."
    )
    page.fill("#withdraw-player", "5")
    page.fill("#withdraw-after", "0")
    page.click("#withdraw-form button[type=submit]")
    expect(page.locator("#entries-status")).to_have_text(
        "Player, No5 (2050) withdraws after round 0: not paired from round 1."
    )
    # A player who is not there is refused in words.
    page.fill("#withdraw-player", "99")
    page.click("#withdraw-form button[type=submit]")
    expect(page.locator("#entries-status")).to_contain_text("Withdrawal of 99:")
    expect(page.locator("#entries-status")).to_have_class("change-status error")

    page.click("#pair-next")
    expect(page.locator("#pairings-status")).to_contain_text("Round 1 is paired")
    (round_one,) = hub.get("/api/rounds")
    games, byes, warnings = stored(hub, round_one["id"])
    expect(page.locator("#pairings tbody tr")).to_have_count(len(games))
    assert shown(page) == (games, byes, warnings)
    # The console ran the empty round the bye made; it reads the round's games once paired.
    expect(page.locator("#results tbody tr")).to_have_count(len(games))
    assert {"player": 3, "kind": "half"} in byes
    placed = {n for _, white, black in games for n in (white, black)}
    assert 5 not in placed | {b["player"] for b in byes}
    assert placed | {b["player"] for b in byes} == set(range(1, PLAYERS + 1)) - {5}
