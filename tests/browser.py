"""A real Chromium (Debian's, driven by Playwright) for the page tests, and where their
screenshots go."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import chess
from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "build" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
# Flags for a root user on a machine with no outside network (see the machine notes).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextlib.contextmanager
def browser_page(width: int = 1280, height: int = 900) -> Iterator[Page]:
    """A page in a fresh Chromium; an uncaught error in the page's scripts fails the test."""
    assert Path(CHROMIUM).exists(), "install Debian chromium: make system-deps"
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page
        finally:
            browser.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def screenshot(page: Page, name: str) -> Path:
    """Save the page as ``build/artifacts/NAME.png`` (a test artefact to look at)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def glyphs(board: chess.Board) -> list[str]:
    """The squares a8 to h1 as the pages draw them: solid glyphs for both colours."""
    return [
        ""
        if (piece := board.piece_at(chess.square(file, rank))) is None
        else chess.UNICODE_PIECE_SYMBOLS[piece.symbol().lower()]
        for rank in range(7, -1, -1)
        for file in range(8)
    ]


def open_console(page: Page, url: str, token: str) -> None:
    """The arbiter console at ``url`` (``http://host:port/arbiter``), signed in with
    ``token``, once it shows."""
    page.goto(url)
    page.fill("#token-input", token)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#console")).to_be_visible()
