"""The correspondence pages (docs/correspondence.md) in a real Chromium against ``relay
serve``, on the real clock: events are created with their start some days in the past, so
that days have been used and things are due. A game's page shows both day clocks, who is to
move, leave and the day each move was sent in each player's time zone; with a player's key
(taken out of the address, never on the page) it shows the game's due list and takes the
player's move, showing the hub's refusals in words and the legal moves that fit; the
Tournament Secretary's page lists what is due and "Act now" has the hub do it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import browser_page, screenshot
from tests.hub_calls import hub_call, hub_tokens
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

# ``relay serve`` wants an event file; the correspondence event comes through the API.
EVENT = (
    '[tournament]\nname = "Club night"\n\n[[player]]\nnumber = 1\nname = "Moss, Mary"\n\n'
    '[[player]]\nnumber = 2\nname = "Lee, Hugo"\n\n[[round]]\nnumber = 1\npairings = [[1, 2]]\n'
)
PLAYERS = [
    {"name": "Alder, Ann", "time_zone": "America/New_York"},
    {"name": "Birch, Ben", "time_zone": "Europe/Oslo"},
    {"name": "Cedar, Cy", "time_zone": "Asia/Tokyo"},
    {"name": "Dogwood, Di"},
]
#: The page's words for a clock's decision.
DECISIONS = {"in-time": "in time", "flag-fell": "flag fallen", "forfeited": "forfeited"}

#: The page's words for what falls due 11 days into a silence (C.3.1.B-C).
DUE_WORDS = {
    "reminder": "reminder to the silent player, copy to the TS",
    "doubled-time": "time counts double",
}

Call = Callable[..., Any]


def today() -> date:
    """The hub's day: UTC."""
    return datetime.now(UTC).date()


def shown_day(day: date) -> str:
    """How the page shows a day, without the weekday: "27 Nov 2026"."""
    return f"{day.day} {day:%b %Y}"


def event_of(call: Call, started: date, players: list[dict[str, str]]) -> dict[str, Any]:
    """A standard correspondence round robin started on ``started``: its tournament, its
    first game and each player's key (as ``Authorization: Bearer``) by name."""
    body = {
        "name": "IECG Class B",
        "control": "standard",
        "format": "class",
        "started": started.isoformat(),
        "players": players,
    }
    created = call("POST", "/api/correspondence", body)
    tournament = created["tournament_id"]
    rounds = [r for r in call("GET", "/api/rounds") if r["tournament_id"] == tournament]
    game = call("GET", f"/api/rounds/{rounds[0]['id']}/games")[0]
    keys = {key["name"]: key["key"] for key in created["keys"]}
    return {"tournament": tournament, "game": game, "keys": keys}


def zone_of(name: str) -> str:
    return next(p.get("time_zone", "UTC") for p in PLAYERS if p["name"] == name)


def test_a_game_page_shows_the_day_clocks_and_takes_the_players_move(tmp_path: Path) -> None:
    event_file = tmp_path / "event.toml"
    event_file.write_text(EVENT, encoding="utf-8")
    db = migrated_sqlite(tmp_path / "cc.db")
    with relay_serve(tmp_path, event_file, db) as (_, address), browser_page(1280, 1000) as page:
        [arbiter] = hub_tokens(db, ("Tournament Secretary", "arbiter"))

        def call(method: str, path: str, body: object = None, token: str | None = arbiter) -> Any:
            return hub_call(address, method, path, body, token)

        day = today()
        event = event_of(call, day - timedelta(days=12), PLAYERS)
        game = event["game"]
        game_id, tournament = game["id"], event["tournament"]
        white, black = game["white"]["name"], game["black"]["name"]
        white_key, black_key = event["keys"][white], event["keys"][black]
        # Black announces a leave from the 3rd to the 6th day from now (in advance, C.8.B).
        leave = {
            "first": (day + timedelta(days=3)).isoformat(),
            "last": (day + timedelta(days=6)).isoformat(),
        }
        call("POST", f"/api/correspondence/{tournament}/leave", leave, black_key)

        # Twelve days without White's first move, counted from the start (no transmission
        # day for move 1, C.6.D): days 1 to 10 count once, the 11th and 12th double (no
        # notice of delay, C.3.1.B): 10 + 2 x 2 = 14 used, 26 left of the 40 days for the
        # first 10 moves (C.6.A). Black has used nothing: it is not his move.
        days = call("GET", f"/api/correspondence/games/{game_id}")
        assert (days["white"]["used"], days["white"]["left"], days["white"]["next_control"]) == (
            14,
            26,
            10,
        )
        assert (days["black"]["used"], days["black"]["left"]) == (0, 40)
        assert days["time_zones"] == [zone_of(white), zone_of(black)]

        # The public page: both clocks, who is to move, the zones named; no player's desk.
        page.goto(f"http://{address}correspondence?game={game_id}")
        expect(page.locator("#game-title")).to_have_text(f"{white} \N{EN DASH} {black}")
        expect(page.locator("#event-name")).to_have_text("IECG Class B")
        for colour, used, left in (("white", "14", "26"), ("black", "0", "40")):
            clock = page.locator(f"#{colour}-clock")
            expect(clock.locator(".used")).to_have_text(used)
            expect(clock.locator(".left")).to_have_text(left)
            expect(clock.locator(".control")).to_have_text("10")
            expect(clock.locator(".decision")).to_have_text("in time")
        expect(page.locator("#white-clock .zone")).to_contain_text(zone_of(white))
        expect(page.locator("#black-clock .zone")).to_contain_text(zone_of(black))
        expect(page.locator("#white-clock .tag")).to_have_text("to move")
        expect(page.locator("#to-move")).to_contain_text(f"White to move ({white})")
        expect(page.locator("#black-clock .leave")).to_have_count(1)
        expect(page.locator("#black-clock .leave")).to_contain_text(
            shown_day(day + timedelta(days=3))
        )
        expect(page.locator("#white-sent-head")).to_have_text(f"Sent ({zone_of(white)})")
        expect(page.locator("#no-moves")).to_be_visible()
        expect(page.locator("#player")).to_be_hidden()
        expect(page.locator("#move-input")).to_be_hidden()

        # White's key: taken out of the address and never on the page; the due list (what
        # fell due on the 11th day: the reminder, time doubled) and the move box.
        page.goto(f"http://{address}correspondence?game={game_id}&key={white_key}")
        expect(page.locator("#player")).to_be_visible()
        expect(page).not_to_have_url(re.compile("key="))
        assert white_key not in page.content()
        due = call("GET", f"/api/correspondence/games/{game_id}", None, white_key)["due"]
        assert {(d["kind"], d["article"]) for d in due} == {
            ("reminder", "C.3.1.C"),
            ("doubled-time", "C.3.1.B"),
        }
        expect(page.locator("#due li")).to_have_count(2)
        expect(page.locator("#due li.doubled-time")).to_contain_text("time counts double")
        expect(page.locator("#due li.reminder")).to_contain_text("C.3.1.C")
        expect(page.locator("#move-label")).to_contain_text("White's 1.")

        entry, answer = page.locator("#move-input"), page.locator("#answer")
        entry.fill("e9")
        page.click("#send-move")
        expect(answer).to_have_text("Not sent: 'e9' is not a legal move here.")
        expect(page.locator("#fitting")).to_be_hidden()
        entry.fill("Nf6")
        page.click("#send-move")
        expect(answer).to_contain_text("Not sent: 'Nf6' is not a legal move here")
        expect(answer).to_contain_text("Moves that fit:")
        fits = page.locator("#fitting button.fit")
        expect(fits).to_have_text(["Na3", "Nc3", "Nf3", "Nh3"])
        expect(page.locator("#fitting")).to_contain_text("the knight from g1 to f3")
        fits.nth(2).click()
        expect(entry).to_have_value("Nf3")
        entry.fill("e4")
        page.click("#send-move")
        expect(answer).to_have_text("1. e4 sent.")
        expect(page.locator("#moves tbody td.san")).to_have_text(["e4", ""])
        expect(page.locator("#moves tbody td.sent").first).to_contain_text(shown_day(day))
        expect(page.locator("#to-move")).to_contain_text(f"Black to move ({black})")
        expect(page.locator("#black-clock .tag")).to_have_text("to move")
        expect(page.locator("#white-clock .moves-made")).to_have_text("1")
        expect(page.locator("#white-clock .used")).to_have_text("14")
        expect(page.locator('#board [data-square="e4"]')).to_have_text("♟")
        # Now it is Black's move: White's key has no move box and no notice (the hub says
        # which side the key plays; it refuses in words all the same).
        expect(page.locator("#move-form")).to_be_hidden()
        expect(page.locator("#notice-line")).to_be_hidden()
        expect(page.locator("#waiting")).to_have_text("Waiting for Black's move.")
        expect(page.locator("#moves tbody td.san")).to_have_text(["e4", ""])
        assert white_key not in page.content()
        screenshot(page, "correspondence-game")

        # The Tournament Secretary, in a tab of their own (the player's key is the other
        # tab's): the event's list, then "Act now".
        browser = page.context.browser
        assert browser is not None
        secretary = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        secretary.on("pageerror", lambda error: errors.append(str(error)))
        expected = call("GET", f"/api/correspondence/{tournament}/due")
        assert expected
        assert all(item["done_on"] is None for item in expected)
        secretary.goto(f"http://{address}correspondence-due?event={tournament}")
        secretary.fill("#token-input", arbiter)
        secretary.click("#login-form button[type=submit]")
        expect(secretary.locator("#desk")).to_be_visible()
        expect(secretary.locator("#event-name")).to_contain_text("IECG Class B")
        rows = secretary.locator("#due tbody tr")
        expect(rows).to_have_count(len(expected))
        expect(secretary.locator("#due tbody tr.to-do")).to_have_count(len(expected))
        expect(rows.locator("td.what")).to_have_text(
            [DUE_WORDS[i["due"]["kind"]] for i in expected]
        )
        expect(rows.locator("td.article")).to_have_text([i["due"]["article"] for i in expected])
        expect(rows.locator("td.since")).to_have_text([i["due"]["since"] for i in expected])
        expect(rows.locator("td.white")).to_have_text([i["white"] for i in expected])
        expect(rows.locator("td.done-on")).to_have_text(["not yet"] * len(expected))
        first = expected[0]["game_id"]
        expect(rows.first.locator("a")).to_have_attribute("href", f"/correspondence?game={first}")

        secretary.click("#act-now")
        expect(secretary.locator("#acted li")).to_have_count(len(expected))
        expect(secretary.locator("#notice")).to_have_text(f"Done: {len(expected)}.")
        done = call("GET", f"/api/correspondence/{tournament}/due")
        # The reminders went out (no longer due); the doubling goes on, done (noted) today.
        assert {item["due"]["kind"] for item in done} == {"doubled-time"}
        expect(rows).to_have_count(len(done))
        expect(secretary.locator("#due tbody tr.to-do")).to_have_count(0)
        expect(rows.locator("td.done-on")).to_have_text([day.isoformat()] * len(done))
        screenshot(secretary, "correspondence-due")
        assert "token" not in secretary.url
        assert not errors, f"errors in the TS page's scripts: {errors}"


def test_a_finished_game_shows_its_result_and_takes_no_move(tmp_path: Path) -> None:
    # Forty days without White's first move: the flag fell (10 + 2 x 16 = 42 > 40 on the
    # 26th day, C.6.B) and a single move took over 30 days (C.3.1.A); the TS's sweep
    # records the ruling, Black wins.
    event_file = tmp_path / "event.toml"
    event_file.write_text(EVENT, encoding="utf-8")
    db = migrated_sqlite(tmp_path / "over.db")
    with relay_serve(tmp_path, event_file, db) as (_, address), browser_page(1100, 900) as page:
        [arbiter] = hub_tokens(db, ("Tournament Secretary", "arbiter"))

        def call(method: str, path: str, body: object = None, token: str | None = arbiter) -> Any:
            return hub_call(address, method, path, body, token)

        event = event_of(call, today() - timedelta(days=40), PLAYERS[:2])
        game_id, white = event["game"]["id"], event["game"]["white"]["name"]
        acted = call("POST", f"/api/correspondence/{event['tournament']}/sweep")
        assert [item["game_id"] for item in acted] == [game_id]
        days = call("GET", f"/api/correspondence/games/{game_id}")
        assert days["finished"]
        assert days["to_move"] is None
        result = call("GET", f"/api/games/{game_id}")["result"]
        assert result == "0-1"

        page.goto(f"http://{address}correspondence?game={game_id}&key={event['keys'][white]}")
        show_over(page, result, DECISIONS[days["white"]["decision"]])


def show_over(page: Page, result: str, decision: str) -> None:
    """The page of a finished game, with its player's key: the result, no one to move, and
    neither the move box nor the notice of delay."""
    expect(page.locator("#result")).to_contain_text(f"Result {result}")
    expect(page.locator("#to-move")).to_have_text("The game is over.")
    expect(page.locator("#white-clock .decision")).to_have_text(decision)
    expect(page.locator("#player")).to_be_visible()
    expect(page.locator("#move-form")).to_be_hidden()
    expect(page.locator("#notice-line")).to_be_hidden()


def test_the_rating_list_page_shows_the_periods_list_and_links_its_csv(tmp_path: Path) -> None:
    # An event started two days ago; its first game ends today by Fool's mate, won by
    # Black. The list of the current period has the four players, nobody with six games: no
    # rating is published (E.III.3), each shown with the starting TER of 800 (E.VII.3), and
    # the winner with one game.
    event_file = tmp_path / "event.toml"
    event_file.write_text(EVENT, encoding="utf-8")
    db = migrated_sqlite(tmp_path / "ratings.db")
    with relay_serve(tmp_path, event_file, db) as (_, address), browser_page(1280, 900) as page:
        [arbiter] = hub_tokens(db, ("Tournament Secretary", "arbiter"))

        def call(method: str, path: str, body: object = None, token: str | None = arbiter) -> Any:
            return hub_call(address, method, path, body, token)

        event = event_of(call, today() - timedelta(days=2), PLAYERS)
        game = event["game"]
        keys = event["keys"]
        for ply, san in enumerate(["f3", "e5", "g4", "Qh4#"], start=1):
            side = game["white"] if ply % 2 else game["black"]
            call("POST", f"/api/correspondence/games/{game['id']}/moves",
                 {"ply": ply, "move": san}, keys[side["name"]])  # fmt: skip
        expected = call("GET", "/api/correspondence/ratings", None, None)
        page.goto(f"http://{address}ratings")
        rows = page.locator("#list tbody tr.player")
        expect(rows).to_have_count(4)
        expect(rows.locator("td.name")).to_have_text([line["name"] for line in expected["lines"]])
        expect(rows.locator("td.ter")).to_have_text(["800"] * 4)
        expect(rows.locator("td.rating")).to_have_text([""] * 4)
        winner = rows.filter(has_text=game["black"]["name"])
        expect(winner.locator("td.games")).to_have_text("1")
        expect(page.locator("#list-period")).to_contain_text(f"period {expected['period']}")
        expect(page.locator("#csv-link")).to_have_attribute(
            "href", f"/api/correspondence/ratings.csv?period={expected['period']}"
        )
        screenshot(page, "ratings")
        page.goto(f"http://{address}ratings?period=2199-6")
        expect(page.locator("#problem")).to_contain_text("has not begun")
        page.goto(f"http://{address}ratings?period=junk")
        expect(page.locator("#problem")).to_contain_text("Which period?")
