"""The electronic scoresheet as an input device (issue 22 item 1) in a real Chromium, on a
tablet-sized screen, against ``relay serve`` with a round whose boards have no electronic
board; each tablet holds its game's device token (a keyer's, bound to the game).

* Board 1: a whole real game (Sleire - Birdzo, 27 plies) entered by tapping squares and by
  typing SAN: a slip refused with the legal moves that fit it and one of them tapped, a draw
  offer declined, a threefold claim with the move to be played found wrong (the move stands,
  the arbiter is alerted), and the result agreed by two taps, White's then Black's. The
  round PGN holds the game and passes pgn-extract.
* Board 3: a correct threefold claim with the move tapped and not played proposes the
  draw.
* Board 2: a short game with a promotion, mostly entered with the network cut: the entries
  wait on the tablet and go once, in order, when it returns; an answer lost on the way is
  acknowledged as a repeat, not played twice; an entry for a ply another keyer filled
  meanwhile is refused in words shown to the player.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import chess
import pytest
from playwright.sync_api import Page, Route, expect
from sqlmodel import Session

from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.event_log import read_events
from relay.store.tournaments import list_games
from tests.browser import browser_page, screenshot
from tests.hub_calls import hub_call
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser

#: A real game (Sample Invitational 2023, round 1), 27 plies; White resigned.
REAL = (
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 Qe7 5. Bxf7+ Kd8 6. Bc4 h6 7. Nf7+ Ke8 "
    "8. Nxh8 Nxe4 9. Qh5+ Kd8 10. Nf7+ Ke8 11. Nxe5+ Kd8 12. Nf7+ Ke8 13. Na3 Nb4 14. c3"
)
#: A short game for the promotion: 5. bxa8=Q.
PROMOTING = "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=Q"
PLAYERS = [
    ("Sleire, L", 1850, "Birdzo, A", 1905, "0-1"),
    ("Pawnpusher, Per", 1700, "Rookless, Rita", 1720, "*"),
    ("Shuffle, Sam", 1600, "Again, Anna", 1610, "*"),
]
#: Board 3: after 4. Ng1 Black claims with 4... Ng8, the start position a third time.
SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
#: Generous: the hub and Chromium share a small, busy machine.
WAIT_MS = 30_000
TABLET = {"width": 1280, "height": 800}
DASH = "\u2013"  # between the squares of a tapped move


def sans(movetext: str) -> list[str]:
    return [word for word in movetext.split() if not word[0].isdigit()]


def moves_of(movetext: str) -> list[chess.Move]:
    board = chess.Board()
    return [board.push_san(san) for san in sans(movetext)]


@dataclass
class HandRound:
    """Round 1, two games, no electronic boards; a device token for each game."""

    address: str
    db: str
    games: dict[int, int]
    devices: dict[int, str]
    arbiter: str
    keyer: str

    def url(self, page: str = "", **query: Any) -> str:
        suffix = f"?{urllib.parse.urlencode(query)}" if query else ""
        return f"http://{self.address}{page}{suffix}"

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        return hub_call(self.address, method, path, body, token)

    def kinds(self, board: int) -> list[tuple[str, dict[str, Any]]]:
        """The game's log, as stored."""
        engine = open_store(self.db)
        try:
            with Session(engine) as session:
                return [
                    (item.kind, item.data)
                    for item in read_events(session, game_id=self.games[board])
                ]
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def hand_round(tmp_path_factory) -> Iterator[HandRound]:
    folder = tmp_path_factory.mktemp("esc-input")
    pgn = folder / "players.pgn"
    pgn.write_text(
        "".join(
            f'[White "{white}"]\n[Black "{black}"]\n[WhiteElo "{we}"]\n[BlackElo "{be}"]\n'
            f'[Result "{result}"]\n\n{result}\n\n'
            for white, we, black, be, result in PLAYERS
        ),
        encoding="utf-8",
    )
    setup = event_setup(load_pairings(pgn, len(PLAYERS)), [])  # no electronic boards
    setup = replace(setup, tournament=replace(setup.tournament, time_control="90+30"))
    event = folder / "event.toml"
    event.write_text(render_event_file(setup), encoding="utf-8")
    db = migrated_sqlite(folder / "hand.db")
    with relay_serve(folder, event, db) as (_, address):
        engine = open_store(db)
        try:
            with Session(engine) as session:
                games = {g.board: g.id or 0 for g in list_games(session, round_id=1)}
                devices = {
                    board: create_token(
                        session, user=f"Board {board} tablet", role="keyer", game_id=game_id
                    )
                    for board, game_id in games.items()
                }
                arbiter = create_token(session, user="Chief Arbiter", role="arbiter")
                keyer = create_token(session, user="Input desk", role="keyer")
                session.commit()
        finally:
            engine.dispose()
        yield HandRound(address, db, games, devices, arbiter, keyer)


@pytest.fixture
def page() -> Iterator[Page]:
    with browser_page(**TABLET) as page:
        yield page


def open_tablet(page: Page, hand_round: HandRound, board: int) -> None:
    game_id = hand_round.games[board]
    page.goto(
        hand_round.url("scoresheet", game=game_id, token=hand_round.devices[board], input="1")
    )
    expect(page.locator("#input")).to_be_visible()
    expect(page.locator("#input-turn")).to_contain_text("enters a move", timeout=WAIT_MS)


def tap(page: Page, move: chess.Move, promotion: str | None = None) -> None:
    board = page.locator("#tap-board")
    board.locator(f'[data-square="{chess.square_name(move.from_square)}"]').click()
    board.locator(f'[data-square="{chess.square_name(move.to_square)}"]').click()
    if promotion:
        page.locator(f'#promotion button[data-piece="{promotion}"]').click()
    page.locator("#input-send").click()


def type_move(page: Page, san: str) -> None:
    page.locator("#san-input").fill(san)
    page.locator("#san-input").press("Enter")


def at_ply(page: Page, ply: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-ply", str(ply), timeout=WAIT_MS)


def draw_button(page: Page, player: str, action: str):
    return white_half(page).locator(
        f'.draw-player[data-player="{player}"] button[data-action="{action}"]'
    )


def white_half(page: Page):
    """The scoresheet's one upright half (Black's, turned to face Black, is not shown)."""
    return page.locator(".side[data-side='white']")


def test_a_whole_real_game_entered_on_the_tablet(hand_round, page):
    open_tablet(page, hand_round, 1)
    # Nothing but this game: no links (no print view, no other boards), no evaluation.
    expect(page.locator("a:visible")).to_have_count(0)
    expect(page.locator("#input-turn")).to_have_text("Move 1: White enters a move")
    expect(page.locator(".side[data-side='white'] .clock-box.own .name")).to_have_text("Sleire, L")
    moves, words = moves_of(REAL), sans(REAL)
    board = chess.Board()
    for ply, (move, san) in enumerate(zip(moves, words, strict=True), start=1):
        if ply == 5:
            # A slip: the bishop written to d4. The hub refuses it with the moves that fit.
            type_move(page, "Bd4")
            expect(page.locator("#input-words")).to_contain_text("'Bd4' is not a legal move")
            fitting = page.locator("#fitting button")
            expect(fitting.first).to_have_text("Bc4")
            expect(page.locator("#fitting")).to_contain_text("the bishop from f1 to c4")
            screenshot(page, "esc-input-fitting")
            fitting.first.click()
        elif ply == 24:
            # Black writes 12... Ke8 and claims a third repetition with it: it is not one.
            page.locator("#san-input").fill(san)
            expect(page.locator("#claim-how")).to_contain_text("Black claims with 12... Ke8")
            page.locator("#claim-threefold").click()
            message = page.locator("#input-words")
            expect(message).to_contain_text("Claim not correct", timeout=WAIT_MS)
            expect(message).to_contain_text(
                "Black claims a draw by threefold repetition with 12... Ke8: wrong"
            )
            expect(message).to_contain_text("the move stands and the arbiter gives White time")
            screenshot(page, "esc-input-claim")
        elif ply % 3 == 0:
            type_move(page, san)
        else:
            if ply == 7:  # a tap shows the square chosen before the second one
                page.locator('#tap-board [data-square="e1"]').click()
                expect(page.locator("#input-chosen")).to_contain_text("e1 → ?")
                screenshot(page, "esc-input-chosen")
                page.locator("#input-clear").click()
            tap(page, move)
        at_ply(page, ply)
        board.push(move)
        if ply == 11:
            # 6. Bc4: White offers a draw after the move; Black declines it.
            draw_button(page, "white", "offer").click()
            expect(white_half(page).locator(".draw-status")).to_contain_text("White offers")
            draw_button(page, "black", "decline").click()
            expect(white_half(page).locator(".draw-status")).to_have_text("No draw offer")

    # White resigned: both players confirm 0-1, White first, then Black.
    page.locator('#agree-choices button[data-result="0-1"]').click()
    confirm = page.locator("#agree-confirm")
    expect(confirm).to_have_text("White (Sleire, L): confirm 0-1")
    confirm.click()
    expect(confirm).to_have_text("Black (Birdzo, A): confirm 0-1")
    expect(page.locator("#agree-signed")).to_have_text("White confirmed 0-1; now Black")
    screenshot(page, "esc-input-confirm")
    assert hand_round.call("GET", f"/api/games/{hand_round.games[1]}")["proposed_result"] is None
    confirm.click()
    expect(page.locator("#agree-message")).to_contain_text("0-1 agreed by both players")
    result = page.locator(".side[data-side='white'] .result")
    expect(result).to_have_attribute("data-state", "proposed", timeout=WAIT_MS)
    expect(result.locator(".how")).to_have_text("proposed by the players")
    screenshot(page, "esc-input-agreed")
    page.set_viewport_size({"width": 800, "height": 1280})
    expect(page.locator("#tap-board")).to_be_in_viewport()
    expect(page.locator("#agree")).to_be_in_viewport()
    screenshot(page, "esc-input-portrait")

    # The log: each move once, the draw offer and its refusal, the claim, the agreement.
    log = hand_round.kinds(1)
    assert [data["san"] for kind, data in log if kind == "move"] == words
    assert [(d["player"], d["action"]) for k, d in log if k == "draw"] == [
        ("white", "offer"),
        ("black", "decline"),
    ]
    assert [d["alert"] for k, d in log if k == "alert"] == ["wrong-claim"]
    assert [(d["result"], d["gesture"]) for k, d in log if k == "result-proposed"] == [
        ("0-1", "agreed")
    ]
    detail = hand_round.call("GET", f"/api/games/{hand_round.games[1]}")
    assert (detail["fen"], detail["proposed_result"]) == (board.fen(), "0-1")
    assert detail["clock"]["black"] is not None  # the hub times the game

    # The arbiter confirms the result the players agreed; the round PGN has the game.
    game_id = hand_round.games[1]
    body = {"result": "0-1", "reason": "agreed on the scoresheet"}
    hand_round.call("POST", f"/api/games/{game_id}/result", body, hand_round.arbiter)
    hand_round.call("POST", f"/api/games/{game_id}/verify", {"result": "0-1"}, hand_round.arbiter)
    pgn = hand_round.call("GET", "/api/rounds/1/games.pgn")
    assert pgn_extract_problems(pgn) == ""
    games = {game.headers["White"]: game for game in read_all(pgn)}
    entered = games["Sleire, L"]
    assert entered.headers["Result"] == "0-1"
    assert list(entered.mainline_moves()) == moves


def test_entries_made_offline_go_once_when_the_network_returns(hand_round, page):
    open_tablet(page, hand_round, 2)
    moves, words = moves_of(PROMOTING), sans(PROMOTING)
    tap(page, moves[0])  # 1. e4, online
    at_ply(page, 1)

    # The network goes: four moves tapped, one typed; each waits on the tablet.
    page.context.set_offline(True)
    for move in moves[1:5]:
        tap(page, move)
    type_move(page, words[5])  # 3... Nf6
    queue = page.locator("#queue-status")
    expect(queue).to_have_attribute("data-count", "5")
    expect(queue).to_have_attribute("data-offline", "true", timeout=WAIT_MS)
    expect(queue).to_contain_text("5 waiting on this tablet (no network")
    expect(queue).to_contain_text(f"1... d7{DASH}d5, 2. e4{DASH}d5")  # tapped: from-to
    expect(page.locator("#input-words")).to_contain_text("No network: your entries wait")
    # The typed move's position is the hub's to tell: the tap board waits for it.
    expect(page.locator("#tap-board")).to_have_class("board tap-board unknown")
    saved = page.evaluate(f"localStorage.getItem('relay-esc-queue:{hand_round.games[2]}')")
    assert [(item["ply"], item["move"]) for item in json.loads(saved)] == [
        (2, "d7d5"),
        (3, "e4d5"),
        (4, "c7c6"),
        (5, "d5c6"),
        (6, "Nf6"),
    ]
    at_ply(page, 1)
    screenshot(page, "esc-input-offline")

    # Back: they go in order, once each.
    page.context.set_offline(False)
    at_ply(page, 6)
    expect(queue).to_have_attribute("data-count", "0", timeout=WAIT_MS)
    assert page.evaluate(f"localStorage.getItem('relay-esc-queue:{hand_round.games[2]}')") is None

    # An answer lost on its way back: the hub has the move, the tablet sends it again.
    lost: list[str] = []

    def lose_the_answer(route: Route) -> None:
        if lost:
            route.continue_()
            return
        reply = route.fetch()  # the hub records the move...
        lost.append(reply.text())
        route.abort()  # ...and the tablet never hears of it

    page.route("**/api/games/*/entries", lose_the_answer)
    tap(page, moves[6])  # 4. cxb7
    expect(page.locator("#input-words")).to_contain_text(
        "4. cxb7 was recorded already", timeout=WAIT_MS
    )
    page.unroute("**/api/games/*/entries")
    assert json.loads(lost[0])["repeated"] is False
    type_move(page, words[7])  # 4... Nbd7
    at_ply(page, 8)
    # 5. bxa8=Q: the pawn tapped to the last rank asks for the new piece.
    board = page.locator("#tap-board")
    board.locator('[data-square="b7"]').click()
    board.locator('[data-square="a8"]').click()
    expect(page.locator("#promotion")).to_be_visible()
    expect(page.locator("#input-send")).to_be_disabled()
    screenshot(page, "esc-input-promotion")
    page.locator('#promotion button[data-piece="q"]').click()
    page.locator("#input-send").click()
    at_ply(page, 9)

    log = hand_round.kinds(2)
    assert [data["san"] for kind, data in log if kind == "move"] == words

    # Offline again: the tablet enters Black's 5th move while the input desk keys another.
    page.context.set_offline(True)
    expect(queue).to_have_attribute("data-offline", "true", timeout=WAIT_MS)
    type_move(page, "Nb6")
    expect(queue).to_have_attribute("data-count", "1")
    desk = {"ply": 10, "move": "e6"}
    hand_round.call("POST", f"/api/games/{hand_round.games[2]}/entries", desk, hand_round.keyer)
    page.context.set_offline(False)
    words_shown = page.locator("#input-words")
    expect(words_shown).to_contain_text(
        "Not recorded: 5... Nb6: ply 10 already holds e6; this entry says Nb6", timeout=WAIT_MS
    )
    expect(queue).to_have_attribute("data-count", "0")
    at_ply(page, 10)
    screenshot(page, "esc-input-conflict")
    final = [data["san"] for kind, data in hand_round.kinds(2) if kind == "move"]
    assert final == [*words, "e6"]
    pgn = hand_round.call("GET", "/api/rounds/1/games.pgn")
    assert pgn_extract_problems(pgn) == ""
    promoted = {g.headers["White"]: g for g in read_all(pgn)}["Pawnpusher, Per"]
    assert [m.uci() for m in promoted.mainline_moves()][8] == "b7a8q"


def test_a_correct_claim_with_a_tapped_move_proposes_the_draw(hand_round, page):
    open_tablet(page, hand_round, 3)
    moves = moves_of(SHUFFLE)
    for ply, move in enumerate(moves[:7], start=1):
        tap(page, move)
        at_ply(page, ply)
    # The hub has told the tablet what Black may claim, as it does for boards.
    claim_warning = white_half(page).locator('.warning[data-kind="threefold"]')
    expect(claim_warning).to_contain_text("claimable with move Ng8", timeout=WAIT_MS)
    board = page.locator("#tap-board")
    board.locator('[data-square="f6"]').click()
    board.locator('[data-square="g8"]').click()
    expect(page.locator("#claim-how")).to_contain_text(
        f"Black claims with 4... f6{DASH}g8, written and not played"
    )
    page.locator("#claim-threefold").click()
    message = page.locator("#input-words")
    expect(message).to_contain_text("Claim correct", timeout=WAIT_MS)
    expect(message).to_contain_text("the position occurs for the third time")
    result = white_half(page).locator(".result")
    expect(result).to_have_attribute("data-state", "proposed", timeout=WAIT_MS)
    expect(result.locator(".score")).to_have_text("\u00bd\u2013\u00bd")
    at_ply(page, 7)  # the move claimed with is written, not played
    expect(page.locator("#input-turn")).to_have_text(
        "\u00bd\u2013\u00bd proposed: the arbiter confirms it"
    )
    screenshot(page, "esc-input-correct-claim")
    log = hand_round.kinds(3)
    assert [kind for kind, _ in log][-2:] == ["alert", "result-proposed"]
    assert log[-2][1]["alert"] == "draw-claim"
    assert log[-1][1]["gesture"] == "claim"
    assert len([kind for kind, _ in log if kind == "move"]) == 7
