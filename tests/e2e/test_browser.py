"""`relay demo` as a user runs it, watched in a real Chromium."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator

import chess
import pytest
from playwright.sync_api import expect

from tests.browser import glyphs, screenshot

BOARDS = 8


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
    return body.decode()


@pytest.fixture
def demo_url(tmp_path) -> Iterator[str]:
    """Run `relay demo` in its own process and yield the URL it prints."""
    command = [sys.executable, "-m", "relay.cli", "demo", "--port", "0", "--ply-seconds", "0.4"]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        try:
            url = None
            for line in process.stdout:
                found = re.search(r"Open (http://\S+) in a browser", line)
                if found:
                    url = found.group(1)
                    break
            assert url is not None, process.stderr.read()
            yield url
        finally:
            # Ctrl-C, as a user stops the demo: it must stop cleanly.
            process.send_signal(signal.SIGINT)
            try:
                code = process.wait(timeout=30)
            finally:
                if process.poll() is None:
                    process.kill()
        errors = process.stderr.read()
        assert code == 0, errors
        assert "relay: stopped" in errors
        assert "Traceback" not in errors, errors
        assert "WARNING" not in errors, errors  # e.g. boards lost before the hub let go


@pytest.mark.browser
def test_viewer_shows_the_boards_moving(demo_url, page):
    page.goto(demo_url)
    boards = page.locator("article.game")
    expect(boards).to_have_count(BOARDS, timeout=20_000)
    expect(page.locator("#status")).to_have_text("live")
    expect(page.locator("#round-title")).to_have_text("Round 1")
    first = boards.first
    # Board 1 of a Swiss round 1: the top seed against the first of the lower half.
    summaries = json.loads(fetch(f"{demo_url}api/rounds"))
    games = json.loads(fetch(f"{demo_url}api/rounds/{summaries[-1]['id']}/games"))
    white = games[0]["white"]
    shown_name = " ".join(filter(None, (white["title"], white["name"])))
    expect(first.locator(".white .name")).to_have_text(shown_name)
    expect(page.locator(".site-banner")).to_contain_text("Simulation")
    start_ply = int(first.get_attribute("data-ply") or "0")
    # Moves arrive live: the board's ply count goes up and its squares change.
    page.wait_for_function(
        f"Number(document.querySelector('article.game').dataset.ply) >= {start_ply + 3}",
        timeout=30_000,
    )
    expect(first.locator(".last-move")).to_have_text(re.compile(r"^\d+\.(\.\.)? \S+$"))
    # What the page shows is the stored game at the ply it says it shows.
    shown = first.evaluate(
        "card => ({ply: Number(card.dataset.ply), id: card.dataset.gameId,"
        " squares: [...card.querySelectorAll('.sq')].map(c => c.textContent)})"
    )
    assert shown["ply"] >= start_ply + 3
    detail = json.loads(fetch(f"{demo_url}api/games/{shown['id']}"))
    board = chess.Board()
    for move in detail["moves"][: shown["ply"]]:
        board.push_uci(move["uci"])
    assert shown["squares"] == glyphs(board)
    shot = screenshot(page, "viewer-demo")
    assert shot.stat().st_size > 10_000


@pytest.mark.browser
def test_the_bulletin_fills_in_as_the_demos_games_end(demo_url, page):
    """Nobody verifies the demo's results by hand: the bulletin shows each one as its game
    ends, verified, with the standings and crosstable counting it."""
    (tournament,) = json.loads(fetch(f"{demo_url}api/tournaments"))
    page.goto(f"{demo_url}bulletin?tournament={tournament['id']}")
    verified = page.locator('#latest td.result[data-verified="true"]')
    expect(verified.first).to_be_visible(timeout=90_000)
    cell = verified.first
    expect(cell.locator(".score")).to_have_text(re.compile(r"^(1-0|0-1|½-½)$"))
    scored = page.locator("#standings td.pts").filter(has_text=re.compile(r"^(1|½)$"))
    expect(scored.first).to_be_visible(timeout=10_000)
    expect(
        page.locator("#crosstable td").filter(has_text=re.compile(r"[wb]\s*[1½]"))
    ).not_to_have_count(0)
    expect(page.locator(".site-banner")).to_contain_text("Simulation")
    screenshot(page, "bulletin-demo")
