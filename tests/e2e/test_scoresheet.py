"""The electronic scoresheet beside a board (seed 004 ch. 17 items 3, 5-7, 10-12) in a real
Chromium, against ``relay serve`` following boardsim's boards through the real DGT driver:

* board 1 brings the start position back a third time: the scoresheet shows the repetition
  claimable as the hub reports it (a ``claims`` event); with the operator token its draw
  buttons record an offer, a withdrawal and an acceptance;
* board 2's White is left two seconds by a confirmed time change: the flag falls, the times
  freeze, the result is 0-1 and provisional;
* the print view holds four copies (White, Black, Administration, Press), a page each, with
  the moves in numbered rows and lines for both players and the arbiter to sign;
* what no short live game reaches (a completed illegal move, 50 moves, a locked position,
  checkmate) from a stand-in hub that Playwright plays, the stream included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import pytest
from playwright.sync_api import Locator, Page, Route, WebSocketRoute, expect

from tests.browser import ARTIFACTS, ROOT, browser_page, glyphs, screenshot
from tests.live_round import LiveRound, live_round
from tests.pgn_files import write_games

pytestmark = pytest.mark.browser

REPETITION = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *"
SHORT = "1. e4 e5 2. Nf3 Nc6 *"
BOARDSIM = ("--report-clock", "--wait-for-clock", "--ply-seconds", "0.3", "--touch-seconds", "0.02")
HALF_HALF = "\u00bd\u2013\u00bd"  # a draw as the page shows it
# Generous: the hub, boardsim and Chromium share a small, busy machine.
WAIT_MS = 30_000


def games_pgn(folder: Path) -> Path:
    return write_games(
        folder / "games.pgn",
        [
            ("Repeat, Rita", 2210, "Again, Arno", 2195, REPETITION),
            ("Flagger, Fast", 1980, "Patient, Paula", 2050, SHORT),
        ],
    )


@dataclass
class Round:
    """The live round, played on demand so that each test may run alone."""

    live: LiveRound
    played: bool = False
    flagged: bool = False

    def game(self, board: int) -> Any:
        return self.live.get(f"/api/games/{self.live.games[board]}")

    def play(self) -> None:
        """Start the clocks centrally; wait for both games to be played."""
        if self.played:
            return
        live = self.live
        started = live.post("/api/rounds/1/clocks/start", token=live.arbiter)
        assert [r["outcome"] for r in started["reports"]] == ["started", "started"]
        live.sim.wait_until(lambda: live.sim.finished == {1, 2}, 120, "both games played")
        self.played = True

    def flag_white_on_board_2(self) -> None:
        """Leave White two seconds on board 2 (White to move): its flag falls."""
        if self.flagged:
            return
        self.play()
        live = self.live
        change = {"player": "white", "change": "set", "seconds": 2, "reason": "test"}
        asked = live.post(f"/api/games/{live.games[2]}/clock/changes", change, live.arbiter)
        confirmed = live.post(f"/api/clock-changes/{asked['token']}/confirm", token=live.arbiter)
        assert confirmed["clock"]["outcome"] == "changed"
        live.sim.wait_until(lambda: bool(live.sim.clock_events("flag", 2)), 30, "White's flag")
        self.flagged = True


@pytest.fixture(scope="module")
def round_(tmp_path_factory) -> Iterator[Round]:
    folder = tmp_path_factory.mktemp("scoresheet")
    with live_round(folder, games_pgn(folder), boards=2, boardsim=BOARDSIM) as live:
        yield Round(live)


@pytest.fixture
def page() -> Iterator[Page]:
    # A tablet on its side, as beside a board. The page must run without a script error.
    with browser_page(width=1280, height=800) as page:
        yield page


def side(page: Page, colour: str) -> Locator:
    return page.locator(f'#sheet .side[data-side="{colour}"]')


def still(page: Page, name: str) -> Path:
    """A screenshot once new warnings have stopped flashing."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running')", timeout=WAIT_MS
    )
    return screenshot(page, name)


def move_rows(half: Locator) -> list[list[str]]:
    rows: list[list[str]] = half.locator(".moves tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    return rows


def test_the_scoresheet_shows_a_repetition_claimable(round_, page):
    live = round_.live
    page.goto(live.url("scoresheet", game=live.games[1]))
    white, black = side(page, "white"), side(page, "black")
    expect(white.locator(".clock-box.own .name")).to_have_text("Repeat, Rita")
    expect(black.locator(".clock-box.own .name")).to_have_text("Again, Arno")
    # Without the operator token the draw buttons are there, disabled, with a hint.
    offer = white.locator('button[data-action="offer"]')
    expect(offer).to_be_disabled()
    expect(white.locator(".draw-hint")).to_contain_text("operator token")

    # The moves arrive live as the hub stores them (after each clock press).
    round_.play()
    expect(page.locator("body")).to_have_attribute("data-ply", "8", timeout=WAIT_MS)
    expect(white.locator(".move-no")).to_have_text("Move 5")
    expect(white.locator(".to-move")).to_have_text("White to move")
    assert move_rows(white) == [
        ["1", "Nf3", "Nf6"],
        ["2", "Ng1", "Ng8"],
        ["3", "Nf3", "Nf6"],
        ["4", "Ng1", "Ng8"],
    ]
    # The hub reports the third occurrence as a claim for the player to move (9.2.2).
    detail = round_.game(1)
    assert detail["claims"] == [{"rule": "threefold", "now": True, "moves": []}]
    assert detail["result"] == "*"
    for half in (white, black):
        claim = half.locator('.warning[data-kind="threefold"]')
        expect(claim).to_have_count(1)
        expect(claim).to_contain_text("claimable now")
        expect(claim).to_contain_text("White may claim a draw")
        expect(half.locator(".result")).to_be_hidden()
        squares = half.locator(".board .sq").evaluate_all("cells => cells.map(c => c.textContent)")
        assert squares == glyphs(chess.Board())
    # White's clock runs (White to move), Black's stands.
    expect(white.locator('.clock-box[data-player="white"]')).to_have_class(re.compile("running"))
    expect(white.locator('.clock-box[data-player="black"]')).not_to_have_class(
        re.compile("running")
    )
    # Black's half faces Black, across the board.
    turned = black.evaluate("node => getComputedStyle(node).transform")
    assert turned.replace(" ", "").startswith("matrix(-1,")
    assert turned.replace(" ", "").endswith(",-1,0,0)")
    assert white.evaluate("node => getComputedStyle(node).transform") == "none"

    # Scrolling back shows an earlier position on that half only.
    white.locator('button[data-ply="1"]').click()
    expect(white.locator(".viewing")).to_contain_text("After 1. Nf3")
    after_nf3 = chess.Board()
    after_nf3.push_san("Nf3")
    assert white.locator(".board .sq").evaluate_all(
        "cells => cells.map(c => c.textContent)"
    ) == glyphs(after_nf3)
    expect(black.locator(".viewing")).to_be_hidden()
    white.locator(".latest").click()
    expect(white.locator(".viewing")).to_be_hidden()
    assert still(page, "scoresheet").stat().st_size > 10_000

    # A tablet upright: each half a column of its own, nothing cut off.
    page.set_viewport_size({"width": 800, "height": 1280})
    expect(white.locator('.warning[data-kind="threefold"]')).to_be_in_viewport()
    still(page, "scoresheet-portrait")
    page.set_viewport_size({"width": 1280, "height": 800})

    # The normal layout: one half, upright, with both players' draw buttons.
    page.locator("#layout").click()
    expect(black).to_be_hidden()
    expect(white.locator(".draw-player")).to_have_count(2)
    assert "layout=normal" in page.url
    still(page, "scoresheet-normal")


def test_draw_buttons_record_an_offer_and_an_acceptance(round_, page):
    round_.play()
    live = round_.live
    page.goto(live.url("scoresheet", game=live.games[1], token=live.operator))
    expect(page.locator("body")).to_have_attribute("data-ply", "8", timeout=WAIT_MS)
    assert "token" not in page.url  # kept for the tab, not shown on the device
    white, black = side(page, "white"), side(page, "black")
    expect(white.locator(".draw-hint")).to_be_hidden()
    assert round_.game(1)["draw_offer"] is None

    white.locator('button[data-player="white"][data-action="offer"]').click()
    for half in (white, black):
        expect(half.locator(".draw-status")).to_contain_text("White offers")
    assert round_.game(1)["draw_offer"] == "white"
    # The offerer may withdraw; the opponent may accept or decline.
    expect(white.locator("button[data-action]")).to_have_count(1)
    expect(black.locator("button[data-action]")).to_have_count(2)

    white.locator('button[data-player="white"][data-action="withdraw"]').click()
    expect(white.locator(".draw-status")).to_have_text("No draw offer")
    assert round_.game(1)["draw_offer"] is None

    white.locator('button[data-player="white"][data-action="offer"]').click()
    black.locator('button[data-player="black"][data-action="accept"]').click()
    for half in (white, black):
        expect(half.locator(".draw-status")).to_contain_text("Draw agreed")
        result = half.locator(".result")
        expect(result).to_be_visible()
        expect(result).to_have_attribute("data-state", "proposed")
        expect(result.locator(".score")).to_have_text(HALF_HALF)
    detail = round_.game(1)
    assert (detail["draw_offer"], detail["proposed_result"], detail["result"]) == (
        None,
        "1/2-1/2",
        "*",
    )
    still(page, "scoresheet-draw")


def test_the_scoresheet_shows_a_flag_fall(round_, page):
    round_.play()
    live = round_.live
    page.goto(live.url("scoresheet", round=1, board=2))
    white = side(page, "white")
    expect(white.locator(".clock-box.own .name")).to_have_text("Flagger, Fast", timeout=WAIT_MS)
    expect(page.locator("body")).to_have_attribute("data-ply", "4", timeout=WAIT_MS)
    expect(white.locator('.clock-box[data-player="white"]')).to_have_class(re.compile("running"))

    round_.flag_white_on_board_2()
    for colour in ("white", "black"):
        half = side(page, colour)
        flag = half.locator('.warning[data-kind="flag"]')
        expect(flag).to_contain_text("White's flag has fallen", timeout=WAIT_MS)
        expect(flag).to_contain_text("frozen")
        expect(half.locator(".result .score")).to_have_text("0-1")
        expect(half.locator(".result")).to_have_attribute("data-state", "provisional")
        expect(half.locator(".result .standing")).to_contain_text("Provisional")
        fallen = half.locator('.clock-box[data-player="white"]')
        expect(fallen).to_have_class(re.compile("flag"))
        expect(fallen.locator(".clock")).to_have_text("0:00.0")
        expect(half.locator(".clock-box.running")).to_have_count(0)
    detail = round_.game(2)
    assert (detail["result"], detail["verified"]) == ("0-1", False)
    assert detail["termination"].startswith("flag fall")
    assert detail["clock"]["flag"]["player"] == "white"
    # Black's time stands where the hub froze it.
    black_left = detail["clock"]["black"] / 100
    shown = white.locator('.clock-box[data-player="black"] .clock')
    expect(shown).to_have_text(clock_text(black_left))
    still(page, "scoresheet-flag")


def clock_text(seconds: float) -> str:
    """relay.js clockText for times of ten seconds and more: h:mm:ss."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def test_the_print_view_has_four_copies_to_sign(round_, page):
    round_.flag_white_on_board_2()
    live = round_.live
    page.goto(live.url("scoresheet", game=live.games[2], print=1))
    copies = page.locator("#copies .copy")
    expect(copies).to_have_count(4, timeout=WAIT_MS)
    expect(copies.locator(".copy-title")).to_have_text(
        ["White", "Black", "Administration", "Press"]
    )
    for index in range(4):
        copy = copies.nth(index)
        expect(copy.locator(".printed-result .score")).to_have_text("0-1", timeout=WAIT_MS)
        expect(copy.locator(".printed-result")).to_contain_text("provisional")
        expect(copy.locator(".players .name")).to_have_text(["Flagger, Fast", "Patient, Paula"])
        expect(copy.locator(".players")).to_contain_text("1980")
        # The moves in numbered rows: at least two paper columns of 30.
        rows = copy.locator(".printed-moves tbody tr")
        expect(rows).to_have_count(60)
        played = copy.locator(".printed-moves tbody tr.played").evaluate_all(
            "rows => rows.map(r => [...r.children].map(c => c.textContent))"
        )
        assert played == [["1", "e4", "e5"], ["2", "Nf3", "Nc6"]]
        signatures = copy.locator(".signature")
        expect(signatures).to_have_count(3)
        expect(signatures.locator(".caption")).to_have_text(
            ["White: Flagger, Fast", "Black: Patient, Paula", "Arbiter"]
        )
        expect(signatures.locator(".line")).to_have_count(3)
    expect(page.locator("#sheet")).to_be_hidden()
    screenshot(page, "scoresheet-print")

    # As printed on A4 (190 x 277 mm inside the margins): a copy a page.
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1047})
    expect(page.locator(".print-tools")).to_be_hidden()
    breaks = copies.evaluate_all("cs => cs.map(c => getComputedStyle(c).breakAfter)")
    assert breaks == ["page", "page", "page", "auto"]
    heights = copies.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().height)")
    assert all(height <= 1047 for height in heights), heights
    screenshot(page, "scoresheet-print-media")
    copies.first.screenshot(path=str(ARTIFACTS / "scoresheet-print-page.png"))
    pdf = ARTIFACTS / "scoresheet-print.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf.read_bytes())) == 4

    # Printing the live scoresheet prints the same four copies, not the live view.
    page.goto(live.url("scoresheet", game=live.games[2]))
    expect(copies).to_have_count(4, timeout=WAIT_MS)
    expect(page.locator("#sheet")).to_be_hidden()
    expect(copies.first).to_be_visible()


# The warnings no short live game reaches (a completed illegal move, 50 moves, a locked
# position, checkmate), from a stand-in hub: the page's files, two game snapshots, and a
# game stream that sends what the test tells it to.
FAKE = "http://relay.test"
LOCKED = "8/8/4k3/1p1p1p2/1P1P1P2/4K3/8/8 w - - 99 80"
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def snapshot(game_id: int, **fields: Any) -> dict[str, Any]:
    players = {"title": None, "rating": 2000, "fide_id": None, "federation": None, "team": None}
    clock = {"white": 60_000, "black": 45_000, "running": "white", "since": None, "delay": 0}
    clock |= {"paused": False, "flag_at": None, "flag": None, "drift": {}}
    game = {
        "id": game_id,
        "round_id": 1,
        "board": game_id,
        "white": {**players, "name": "Able, Ann"},
        "black": {**players, "name": "Baker, Bob"},
        "fen": LOCKED,
        "ply": 0,
        "last_move": None,
        "last_san": None,
        "check": False,
        "result": "*",
        "termination": None,
        "verified": False,
        "proposed_result": None,
        "draw_offer": None,
        "clock": clock,
        "v": 5,
        "moves": [],
        "claims": [],
        "illegal_moves": 0,
        "alerts": [],
    }
    return game | fields


def stand_in_hub(page: Page, games: dict[int, dict[str, Any]]) -> list[WebSocketRoute]:
    streams: list[WebSocketRoute] = []

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix(FAKE).split("?")[0]
        if path == "/scoresheet":
            route.fulfill(path=ROOT / "web" / "scoresheet.html")
        elif path.startswith("/static/"):
            route.fulfill(path=ROOT / "web" / path.lstrip("/"))
        elif found := re.fullmatch(r"/api/games/(\d+)", path):
            route.fulfill(json=games[int(found[1])])
        elif path == "/api/rounds/1":
            route.fulfill(json={"id": 1, "tournament_id": 1, "number": 3})
        elif path == "/api/tournaments":
            route.fulfill(json=[{"id": 1, "name": "Stand-in Open", "site": "Here"}])
        else:
            route.fulfill(status=404, json={"detail": "not here"})

    page.route(f"{FAKE}/**", serve)

    def connected(stream: WebSocketRoute) -> None:
        streams.append(stream)  # nothing goes to a server: the test speaks for the hub

    page.route_web_socket(re.compile(r".*/stream.*"), connected)
    return streams


def event(v: int, kind: str, **data: Any) -> str:
    return json.dumps({"type": "event", "game": 9, "v": v, "kind": kind, "data": data})


def test_warnings_for_what_the_laws_say(page):
    fifty = {"rule": "fifty-moves", "now": False, "moves": ["Kd2", "Kf2"]}
    games = {
        9: snapshot(9, claims=[fifty], alerts=["dead-position"]),
        10: snapshot(
            10,
            fen=MATED,
            ply=4,
            moves=[
                {"ply": ply, "uci": uci, "san": san, "at": 0, "clock": None}
                for ply, uci, san in (
                    (1, "f2f3", "f3"),
                    (2, "e7e5", "e5"),
                    (3, "g2g4", "g4"),
                    (4, "d8h4", "Qh4#"),
                )
            ],
            last_move="d8h4",
            last_san="Qh4#",
            result="0-1",
            termination="checkmate",
            verified=True,
        ),
    }
    streams = stand_in_hub(page, games)
    page.goto(f"{FAKE}/scoresheet?game=9")
    white = side(page, "white")
    fifty_moves = white.locator('.warning[data-kind="fifty-moves"]')
    expect(fifty_moves).to_contain_text("50 moves: claimable with move Kd2 or Kf2")
    expect(fifty_moves).to_contain_text("White may claim by writing Kd2 or Kf2")
    expect(white.locator('.warning[data-kind="no-mate"]')).to_contain_text("No checkmate possible?")
    expect(white.locator(".warning")).to_have_count(2)

    # A completed illegal move, live: an alarm with the penalty the Laws propose.
    expect(page.locator("#status")).to_have_text("live")
    assert len(streams) == 1
    penalty = {"penalty": "add-time", "seconds": 120, "reason": "7.5.5", "at": 1.0}
    streams[0].send(event(6, "illegal-move", player="white", count=1, **penalty))
    illegal = white.locator('.warning[data-kind="illegal"]')
    expect(illegal).to_contain_text("Illegal move completed by White (1st)")
    expect(illegal).to_contain_text("+2 min for Black")
    expect(illegal).to_have_class(re.compile("alarm"))
    # The game ends in a dead position: no more claims, the result.
    streams[0].send(event(7, "end", result="1/2-1/2", termination="insufficient material", at=2))
    expect(white.locator('.warning[data-kind="no-mate"]')).to_contain_text("a draw (5.2.2)")
    expect(white.locator('.warning[data-kind="fifty-moves"]')).to_have_count(0)
    expect(white.locator(".result .score")).to_have_text(HALF_HALF)
    expect(white.locator(".result")).to_have_attribute("data-state", "provisional")
    # The illegal move stays on record, counted per player, no longer an alarm.
    expect(illegal).to_have_class(re.compile("info"))
    expect(illegal).to_contain_text("White 1, Black 0")
    still(page, "scoresheet-warnings")

    page.goto(f"{FAKE}/scoresheet?game=10")
    mate = white.locator('.warning[data-kind="checkmate"]')
    expect(mate).to_contain_text("Checkmate")
    expect(mate).to_contain_text("Black wins")
    expect(white.locator(".result .score")).to_have_text("0-1")
    expect(white.locator(".result")).to_have_attribute("data-state", "verified")
    expect(white.locator(".result .standing")).to_have_text("Result verified by the arbiter")
    assert move_rows(white) == [["1", "f3", "e5"], ["2", "g4", "Qh4#"]]
