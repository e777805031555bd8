"""The game-input desk (``/input?round=ID``) in a real Chromium, against ``relay serve`` with a
round of three games and no electronic boards.

A keyer signs in and keys a real game from its scoresheet (Blazquez - Soubirou, Lille 2015)
at the keyboard: moves typed as written (``0-0`` included), completion taken with Tab once,
one slip (``Bg4`` for ``Bg5``) flagged with the legal moves that fit it and fixed by choosing
one of them, ← and → moving about the game, a note, the scoresheet's result proposed, the
game marked keyed. The same keyer's check is refused in words; a second keyer, in a browser
of their own, checks it, and the first keyer's round progress follows without a reload. The
round PGN passes pgn-extract with the note as a comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from relay.domain.formats.event_file import (
    EventSetup,
    PlayerSetup,
    RoundSetup,
    TournamentSetup,
    render_event_file,
)
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.tournaments import list_games
from tests.browser import browser_page, glyphs, screenshot
from tests.hub_calls import hub_call
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

#: The game on board 2 as its scoresheet has it, and as a keyer types it.
SCORESHEET = (
    "1. d4 a6 2. e4 e6 3. c4 b5 4. cxb5 axb5 5. Bxb5 Bb7 6. Nc3 Bb4 7. Qe2 Qh4 8. Bd3 f5 "
    "9. g3 Qf6 10. Nf3 c5 11. 0-0 Ne7 12. Bg5 Qf8 13. Nb5 Bxe4 14. Bxe4 fxe4 15. Qxe4 Nd5 "
    "16. Ne5 cxd4 17. Qxd5 Ra7 18. Qa8"
)
SCORE = tuple(re.sub(r"\d+\.", " ", SCORESHEET).split())
#: The ply of the slip: White's 12th move, Bg5 written so that it reads Bg4.
SLIP = 23
#: The ply where completion is used: White's 10th move, Nf3 ("Nf" then Tab).
COMPLETED = 19
WAIT_MS = 30_000


@dataclass
class Desk:
    address: str
    round_id: int
    games: dict[int, int]
    ann: str
    ben: str
    arbiter: str

    def url(self, page: str, query: str = "") -> str:
        return f"http://{self.address}{page.lstrip('/')}{'?' + query if query else ''}"

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        return hub_call(self.address, method, path, body, token)


def event_file(folder: Path) -> Path:
    names = [
        ("Moss, M", 2010, "Tufteland, V", 1950),
        ("Blazquez, Denis", 2083, "Soubirou, Oriane", 2135),
        ("Sleire, L", 1890, "Birdzo, A", 1920),
    ]
    players = []
    for board, (white, white_elo, black, black_elo) in enumerate(names, start=1):
        players.append(PlayerSetup(2 * board - 1, white, rating=white_elo))
        players.append(PlayerSetup(2 * board, black, rating=black_elo))
    setup = EventSetup(
        tournament=TournamentSetup(name="Lille Open", site="Lille FRA", time_control="90+30"),
        players=tuple(players),
        rounds=(RoundSetup(number=1, pairings=((1, 2), (3, 4), (5, 6))),),
    )
    path = folder / "event.toml"
    path.write_text(render_event_file(setup), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def desk(tmp_path_factory) -> Iterator[Desk]:
    folder = tmp_path_factory.mktemp("input-desk")
    db = migrated_sqlite(folder / "desk.db")
    with relay_serve(folder, event_file(folder), db) as (_, address):
        engine = open_store(db)
        try:
            with Session(engine) as session:
                games = {g.board: g.id or 0 for g in list_games(session, round_id=1)}
                tokens = [
                    create_token(session, user="Desk Ann", role="keyer"),
                    create_token(session, user="Desk Ben", role="keyer"),
                    create_token(session, user="Chief Arbiter", role="arbiter"),
                ]
                session.commit()
        finally:
            engine.dispose()
        yield Desk(address, 1, games, *tokens)


@pytest.fixture
def page() -> Iterator[Page]:
    with browser_page(width=1400, height=1000) as page:
        yield page


def sign_in(page: Page, token: str) -> None:
    page.fill("#token-input", token)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#desk")).to_be_visible(timeout=WAIT_MS)


def progress(page: Page, to_key: int, keyed: int, checked: int) -> None:
    expect(page.locator("#count-to-key")).to_have_text(str(to_key), timeout=WAIT_MS)
    expect(page.locator("#count-keyed")).to_have_text(str(keyed), timeout=WAIT_MS)
    expect(page.locator("#count-checked")).to_have_text(str(checked), timeout=WAIT_MS)


def keyed(page: Page, plies: int) -> None:
    """Wait until the score shows ``plies`` moves (the hub recorded the entry)."""
    expect(page.locator("#score .move:not(.empty)")).to_have_count(plies, timeout=WAIT_MS)


def test_a_game_is_keyed_from_its_scoresheet_and_checked_by_a_second_keyer(desk, page):
    game_id = desk.games[2]
    page.goto(desk.url("/input", f"round={desk.round_id}"))
    expect(page.locator("#login")).to_be_visible()
    sign_in(page, desk.ann)
    expect(page.locator("#round-title")).to_have_text("Lille Open · Round 1")
    expect(page.locator("#who")).to_have_text("Signed in · Desk Ann (keyer)")
    # The skeletons from the pairings: players, ratings, boards; nothing keyed yet.
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1).locator("td.player").first).to_have_text("Blazquez, Denis 2083")
    expect(rows.nth(1).locator("td.player").nth(1)).to_have_text("Soubirou, Oriane 2135")
    expect(page.locator("#games tbody td.status")).to_have_text(["to key"] * 3)
    progress(page, 3, 0, 0)

    rows.nth(1).click()
    expect(page.locator("#game-heading")).to_have_text(
        "Board 2: Blazquez, Denis (2083) \u2013 Soubirou, Oriane (2135)"
    )
    entry = page.locator("#entry")
    expect(entry).to_be_focused()
    board = chess.Board()
    # At typing speed: each move typed and Enter pressed without waiting for the hub, but
    # where completion is used and where the slip is flagged.
    for ply, san in enumerate(SCORE, start=1):
        if ply == COMPLETED:
            keyed(page, ply - 1)
            expect(page.locator("#entry-label")).to_have_text("Move 10, White")
            page.keyboard.type("Nf")
            expect(page.locator("#suggestions li")).to_have_text(["Nf3"])
            page.keyboard.press("Tab")
            expect(entry).to_have_value("Nf3")
            expect(entry).to_be_focused()
        elif ply == SLIP:
            keyed(page, ply - 1)
            expect(page.locator("#entry-label")).to_have_text("Move 12, White")
            page.keyboard.type("Bg4")
            page.keyboard.press("Enter")
            flagged = page.locator("#entry-error")
            expect(flagged).to_be_visible(timeout=WAIT_MS)
            expect(page.locator("#entry-error-text")).to_have_text(
                "'Bg4' is not a legal move here: did you mean Bf4, Bg5, g4, Ba6, Bb1, Bb5?"
            )
            fits = page.locator("#fitting li")
            expect(fits.locator("button.fit")).to_have_text(
                ["Bf4", "Bg5", "g4", "Ba6", "Bb1", "Bb5"]
            )
            expect(fits.nth(1).locator(".words")).to_have_text("the bishop from c1 to g5")
            expect(entry).to_have_class("wrong")
            expect(entry).to_have_value("Bg4")
            screenshot(page, "input-desk-slip")
            page.locator("#fitting button.fit", has_text="Bg5").click()
            keyed(page, ply)
            expect(flagged).to_be_hidden()
            expect(entry).to_be_focused()
            board.push_san(san)
            continue
        else:
            page.keyboard.type(san)
        page.keyboard.press("Enter")
        board.push_san(san)
    keyed(page, len(SCORE))
    expect(page.locator("#entry-label")).to_have_text("Move 18, Black")
    expect(page.locator("#score .move.current")).to_have_text("Qa8")
    assert [c or "" for c in page.locator("#position .sq").all_text_contents()] == glyphs(board)

    # ← and → move about the game (the entry box is empty).
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#position-label")).to_have_text("After 17. Qxd5 (33 of 35)")
    before = board.copy()
    before.pop()
    before.pop()
    assert [c or "" for c in page.locator("#position .sq").all_text_contents()] == glyphs(before)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#position-label")).to_have_text("After 18. Qa8 (35 of 35)")
    # A slip found late: back one move, the last one taken back and keyed again.
    expect(page.locator("#take-back")).to_be_hidden()
    page.keyboard.press("ArrowLeft")
    page.click("#take-back")
    expect(page.locator("#action-state")).to_have_text(
        "The moves after ply 34 were taken back: key them again."
    )
    keyed(page, len(SCORE) - 1)
    entry.click()
    page.keyboard.type("Qa8")
    page.keyboard.press("Enter")
    keyed(page, len(SCORE))

    # A note after the last move, the scoresheet's result, the game keyed.
    page.click("button.quick[data-note='time']")
    expect(page.locator("#action-state")).to_have_text("Note added: time")
    expect(page.locator("#score .note")).to_have_text(["{ time }"])
    page.click("button.result-choice[data-result='0-1']")
    expect(page.locator("#result-state")).to_have_text(
        "proposed 0-1: the arbiter enters and verifies it"
    )
    page.click("#mark-keyed")
    expect(page.locator("#game-status")).to_have_text("keyed by Desk Ann")
    progress(page, 2, 1, 0)
    # The keyer who keyed the game cannot check it.
    page.click("#mark-checked")
    expect(page.locator("#action-state")).to_have_text(
        "Desk Ann keyed this game: a different keyer checks it against the scoresheet"
    )
    screenshot(page, "input-desk-keyed")

    # A second keyer, in a browser of their own, checks it; Ann's progress follows.
    browser = page.context.browser
    assert browser is not None
    ben = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        ben.goto(desk.url("/input", f"round={desk.round_id}&game={game_id}"))
        sign_in(ben, desk.ben)
        progress(ben, 2, 1, 0)
        expect(ben.locator("#game-heading")).to_contain_text("Board 2")
        expect(ben.locator("#score .move:not(.empty)")).to_have_count(len(SCORE))
        ben.click("#mark-checked")
        expect(ben.locator("#game-status")).to_have_text(
            "checked by Desk Ben (keyed by Desk Ann)", timeout=WAIT_MS
        )
        progress(ben, 2, 0, 1)
        screenshot(ben, "input-desk-checked")
    finally:
        ben.close()
    progress(page, 2, 0, 1)
    expect(page.locator("#games tbody tr").nth(1).locator("td.status")).to_have_text("checked")

    # The arbiter enters and verifies the proposed result; the round PGN is clean.
    desk.call("POST", f"/api/games/{game_id}/result", {"result": "0-1"}, desk.arbiter)
    desk.call("POST", f"/api/games/{game_id}/verify", {"result": "0-1"}, desk.arbiter)
    expect(page.locator("#result-state")).to_have_text("result 0-1, verified", timeout=WAIT_MS)
    text = desk.call("GET", "/api/rounds/1/games.pgn")
    assert pgn_extract_problems(text) == ""
    games = read_all(text)
    assert len(games) == 3
    keyed_game = games[1]
    assert keyed_game.headers["White"] == "Blazquez, Denis"
    assert keyed_game.headers["Result"] == "0-1"
    sans = [node.san() for node in keyed_game.mainline()]
    assert sans == [san.replace("0-0", "O-O") for san in SCORE]
    assert keyed_game.end().comment.strip().startswith("time")
