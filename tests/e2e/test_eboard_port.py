"""A board replugged during a weekend, in a real Chromium against ``relay serve`` and
boardsim on a pseudo-terminal: the event file names a port the board is no longer on, the
console shows the board not followed, the arbiter gives its new port in the Assign
dialog and the game follows the board there, its moves coming in; the alert that said the
board was not followed goes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from tests.browser import browser_page, open_console, screenshot
from tests.hub_calls import hub_call, hub_tokens
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.browser


def test_the_operator_gives_a_replugged_board_its_new_port(tmp_path: Path) -> None:
    games = write_games(
        tmp_path / "games.pgn",
        [("Port, Pia", 2000, "Plug, Per", 2010, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *")],
    )
    sim = BoardsimProcess(games, 1, "--ply-seconds", "0.5")
    try:
        gone = str(tmp_path / "ttyACM0")  # where the board was before it was replugged
        event = tmp_path / "event.toml"
        event.write_text(render_event_file(event_setup(load_pairings(games, 1), [gone])))
        db = migrated_sqlite(tmp_path / "ports.db")
        with relay_serve(tmp_path, event, db) as (_, address), browser_page(1400, 900) as page:
            (arbiter,) = hub_tokens(db, ("Chief Arbiter", "arbiter"))
            open_console(page, f"http://{address}arbiter", arbiter)
            row = page.locator("#boards tbody tr").first
            expect(row.locator("td.link")).to_have_text("not followed", timeout=15_000)
            not_followed = page.locator("#alerts li", has_text="board not followed")
            expect(not_followed).to_have_count(1)
            row.get_by_role("button", name="Assign…").click()
            dialog = page.locator("#assign")
            expect(dialog.locator("#assign-port-title")).to_have_text("Port of e-board 1")
            expect(dialog.locator("#assign-port")).to_have_value(gone)
            dialog.locator("#assign-port").fill(sim.ports[0])
            dialog.locator("#assign-port-save").click()
            expect(row.locator("td.link")).to_have_text("connected", timeout=15_000)
            expect(not_followed).to_have_count(0)  # the trouble is gone, and its alert
            game_id = int(row.get_attribute("data-game-id") or 0)
            expect(row.locator("td.eboard")).to_have_attribute("title", sim.ports[0])
            screenshot(page, "arbiter-board-port")
            deadline = time.monotonic() + 20
            while not hub_call(address, "GET", f"/api/games/{game_id}")["moves"]:
                assert time.monotonic() < deadline, "no move came from the board's new port"
                time.sleep(0.2)
            (listed,) = hub_call(address, "GET", "/api/tournaments/1/eboards", None, arbiter)
            assert listed["url"] == sim.ports[0]
    finally:
        sim.stop()
