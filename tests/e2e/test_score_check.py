"""The arbiter's corrections in a real Chromium, against ``relay serve`` following boardsim's
boards through the real DGT driver (docs/game-input.md):

* an e-board game with a spurious move at the end: the arbiter checks it against the
  scoresheet's move count on the console, the hub names the extra move and proposes its
  removal, the arbiter confirms; the viewer and the game page show the game amended, and its
  PGN has the mark and no variation;
* an illegal-position alert in the console: the hub finds the legal moves from the record
  that reach the board's position and shows the last legal position with the squares to
  set; the arbiter accepts the board's position. A live game reaches that alert only when a
  board's link drops for several moves, which boardsim cannot time, so the alert alone comes
  from a stand-in on the console's stream; what the hub finds and does is the live hub's;
* a wrong draw claim sent from the electronic scoresheet: the console names it and its
  penalty, and its Penalty button opens the Penalty card for the claimant.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser import browser_page, open_console, screenshot
from tests.live_round import LiveRound, live_round
from tests.pgn_check import pgn_extract_problems, read_all
from tests.pgn_files import write_games

pytestmark = pytest.mark.browser

BOARDSIM = ("--report-clock", "--wait-for-clock", "--ply-seconds", "0.3", "--touch-seconds", "0.02")
WAIT_MS = 30_000
#: Board 1: the scoresheet ends with Black's 4th move; the e-board also recorded 5. O-O.
SPURIOUS = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O"
#: Board 2, and the four plies the board showed beyond it while its link was down.
QUEENS_GAMBIT = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7"
AHEAD = ("e3", "c6", "Bd3", "Qa5")  # in no other order, and in no fewer plies


def games_pgn(folder: Path) -> Path:
    return write_games(
        folder / "games.pgn",
        [
            ("Sheet, Sam", 2100, "Board, Bea", 2080, f"{SPURIOUS} *"),
            ("Gambit, Gus", 1990, "Declined, Dora", 2010, f"{QUEENS_GAMBIT} *"),
        ],
    )


@dataclass
class Round:
    live: LiveRound
    played: bool = False

    def play(self) -> None:
        """Start the clocks centrally; wait until both boards have played their moves."""
        if self.played:
            return
        live = self.live
        started = live.post("/api/rounds/1/clocks/start", token=live.arbiter)
        assert [r["outcome"] for r in started["reports"]] == ["started", "started"]
        live.sim.wait_until(lambda: live.sim.finished == {1, 2}, 120, "both games played")
        self.played = True


@pytest.fixture(scope="module")
def round_(tmp_path_factory) -> Iterator[Round]:
    folder = tmp_path_factory.mktemp("score-check")
    with live_round(folder, games_pgn(folder), boards=2, boardsim=BOARDSIM) as live:
        yield Round(live)


@pytest.fixture
def page() -> Iterator[Page]:
    with browser_page(width=1400, height=1000) as page:
        yield page


def sign_in(page: Page, live: LiveRound) -> None:
    open_console(page, live.url("arbiter"), live.arbiter)
    expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)


def pgn_text(live: LiveRound, game_id: int) -> str:
    with urllib.request.urlopen(live.url(f"api/games/{game_id}.pgn"), timeout=60) as reply:
        text: str = reply.read().decode()
    return text


def test_a_spurious_end_move_is_found_against_the_scoresheet_and_removed(round_, page):
    live = round_.live
    game_id = live.games[1]
    round_.play()
    # The viewer, open before the correction, shows the e-board's nine plies.
    viewer = page
    viewer.goto(live.url(""))
    card = viewer.locator(f"article.game[data-game-id='{game_id}']")
    expect(card).to_have_attribute("data-ply", "9", timeout=WAIT_MS)
    expect(card.locator(".amended-mark")).to_be_hidden()

    browser = page.context.browser
    assert browser is not None
    console = browser.new_page(viewport={"width": 1400, "height": 1100})
    sign_in(console, live)
    console.select_option("#correct-game", str(game_id))
    console.fill("#sheet-moves", "4")
    console.select_option("#sheet-last", "black")
    console.click("#check-score")
    extra = console.locator("#check-differences li[data-kind='extra']")
    expect(extra).to_have_text("the record has 1 ply more than the scoresheet at the end: 5. O-O")
    expect(extra).to_have_attribute("data-ply", "9")
    expect(console.locator("#check-words")).to_contain_text(
        "the e-board record (9 plies) and the scoresheet (8) differ"
    )
    expect(console.locator("#check-proposal")).to_have_text("Proposed: remove ply 9 (5.).")
    console.locator("#corrections-card").scroll_into_view_if_needed()
    screenshot(console, "arbiter-score-check")

    console.click("#apply-proposal")
    expect(console.locator("#correction-summary")).to_contain_text(
        "replace the moves from 5. (ply 9) on with nothing: they are removed. "
        "Reason: checked against the scoresheet."
    )
    console.click("#correction-ok")
    expect(console.locator("#correction-status")).to_have_text(
        "Corrected: the game has 8 plies now, marked amended."
    )

    # Every viewer: the game as amended, one event, no variation.
    expect(card).to_have_attribute("data-ply", "8", timeout=WAIT_MS)
    expect(card.locator(".amended-mark")).to_be_visible(timeout=WAIT_MS)
    expect(card.locator(".amended-mark")).to_have_attribute(
        "title", "amended by the arbiter from ply 9: checked against the scoresheet"
    )
    expect(card.locator(".last-move")).to_have_text("4... Nf6")
    screenshot(viewer, "viewer-amended")
    game_page = browser.new_page(viewport={"width": 1200, "height": 800})
    game_page.goto(live.url("game", id=game_id))
    expect(game_page.locator("#amended")).to_have_text(
        "Amended by the arbiter: moves removed from 5. (ply 9) (checked against the scoresheet)",
        timeout=WAIT_MS,
    )
    expect(game_page.locator("#moves button.move")).to_have_count(8)
    screenshot(game_page, "game-amended")

    text = pgn_text(live, game_id)
    assert '[Amended "ply 9"]' in text
    movetext = re.sub(r"\{[^}]*\}", "", text.split("\n\n", 1)[1])
    assert "(" not in movetext  # the mainline was replaced: no variation
    assert "O-O" not in movetext
    (game,) = read_all(text)
    assert len(list(game.mainline_moves())) == 8
    assert "amended by the arbiter: checked against the scoresheet" in " ".join(
        game.end().comment.split()
    )
    assert pgn_extract_problems(text) == ""
    trail = live.get("/api/audit", token=live.arbiter)
    assert (trail[0]["action"], trail[0]["target"], trail[0]["reason"]) == (
        "replace-moves",
        f"game {game_id}",
        "checked against the scoresheet",
    )

    # Checked again: the record and the scoresheet agree.
    console.click("#check-score")
    expect(console.locator("#check-result")).to_have_attribute("data-agrees", "true")


def board_ahead() -> chess.Board:
    board = chess.Board()
    for san in QUEENS_GAMBIT.split():
        if not san.endswith("."):
            board.push_san(san)
    for san in AHEAD:
        board.push_san(san)
    return board


def test_an_illegal_position_alert_is_corrected_from_the_console(round_, page):
    live = round_.live
    game_id = live.games[2]
    round_.play()
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # everything passes both ways; the test may add an alert
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/api/rounds/\d+/stream.*"), through)
    sign_in(page, live)
    expect(page.locator(f"#result-{game_id}")).to_be_visible()
    before = live.get(f"/api/games/{game_id}", token=live.arbiter)
    assert before["ply"] == 8
    shown = board_ahead()
    detail = f"board {shown.board_fen()} differs from the game on a5 c6 c7 d3 d8 e2 e3 f1"
    alert = {
        "type": "event",
        "game": game_id,
        "v": before["v"] + 1,
        "kind": "alert",
        "data": {"alert": "illegal-position", "detail": detail, "ply": 8, "at": before["v"]},
    }
    sockets[-1].send(json.dumps(alert))

    item = page.locator(f"#alerts li[data-kind='illegal-position'][data-game-id='{game_id}']")
    expect(item).to_contain_text("illegal position on the board")
    item.locator("button.correct").click()
    repair = page.locator("#repair")
    expect(repair).to_be_visible()
    expect(page.locator("#repair-words")).to_contain_text(
        "accept 5. e3 c6 6. Bd3 Qa5 as played; or to restore the last legal position (ply 8)"
    )
    # The way back: the last legal position, and the eight squares to set on the board.
    expect(page.locator("#repair-squares li")).to_have_count(8)
    expect(page.locator("#repair-squares li[data-square='f1']")).to_have_text(
        "f1: a white bishop (the board has it empty)"
    )
    expect(page.locator("#repair-squares li[data-square='a5']")).to_have_text(
        "a5: empty (the board has a black queen)"
    )
    expect(page.locator("#repair-game-board .sq.to-set")).to_have_count(8)
    expect(page.locator("#repair-board-board .sq.to-set")).to_have_count(8)
    expect(page.locator("#repair-fen")).to_have_text(before["fen"])
    repair.scroll_into_view_if_needed()
    screenshot(page, "arbiter-alert-repair")

    # The editor is one click away, with the moves from the last recorded ply.
    page.click("#repair-edit")
    expect(page.locator("#edit-ply")).to_have_value("8")
    expect(page.locator("#edit-san")).to_have_value("Be7")

    page.click("#accept-continuation")
    expect(page.locator("#correction-summary")).to_contain_text(
        "replace the moves from 5. (ply 9) on with e3 c6 Bd3 Qa5."
    )
    page.click("#correction-ok")
    expect(page.locator("#correction-status")).to_have_text(
        "Corrected: the game has 12 plies now, marked amended."
    )
    after = live.get(f"/api/games/{game_id}", token=live.arbiter)
    assert [move["san"] for move in after["moves"][8:]] == list(AHEAD)
    assert after["fen"] == shown.fen()
    assert after["amended"] == [
        {
            "ply": 9,
            "removed": 0,
            "added": 4,
            "by": "Chief Arbiter",
            "reason": "the board's position accepted (illegal-position alert)",
        }
    ]
    # The Laws' penalty stays one click further: the Penalty card, for the same game.
    expect(page.locator("#penalty-form")).to_be_visible()


def test_a_wrong_draw_claim_is_named_and_leads_to_its_penalty(round_, page):
    live = round_.live
    game_id = live.games[1]
    round_.play()
    sign_in(page, live)
    expect(page.locator(f"#result-{game_id}")).to_be_visible()
    game = live.get(f"/api/games/{game_id}", token=live.arbiter)
    # White, to move after 4...Nf6 (or after 5. O-O, Black), claims threefold repetition
    # on a position seen once: a wrong claim, made on the electronic scoresheet.
    claim = {"ply": game["ply"] + 1, "rule": "threefold"}
    answer = live.post(f"/api/games/{game_id}/claims", claim, token=live.operator)
    assert answer["correct"] is False
    claimant = answer["player"]
    item = page.locator(f"#alerts li[data-kind='wrong-claim'][data-game-id='{game_id}']")
    expect(item).to_contain_text("a wrong draw claim: two minutes to the opponent (9.5.3)")
    expect(item).to_contain_text(f"{claimant.capitalize()} claims a draw by threefold")
    item.locator("button", has_text="Penalty").click()
    expect(page.locator("#penalty-game")).to_have_value(str(game_id))
    expect(page.locator("#penalty-kind")).to_have_value("wrong-claim")
    expect(page.locator("#claimant-label")).to_be_visible()
    expect(page.locator("#penalty-claimant")).to_have_value(claimant)
