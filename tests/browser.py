"""A real Chromium (Debian's, driven by Playwright) for the page tests, and where their
screenshots go."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import chess
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.tiers import inner_loop, refuse

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


class _SharedBrowser:
    """One Chromium for the whole test process (one per pytest-xdist worker), launched on
    first use and closed when the session ends: starting Chromium costs about a second, a
    new context a few milliseconds.

    Playwright's synchronous API runs its own asyncio loop inside a greenlet of the main
    thread, and between two calls that loop stays registered as the thread's running loop.
    Left so, every later test of the process that runs a loop of its own (``asyncio.run``,
    anyio) would be refused ("already running asyncio in this thread"). So the loop is the
    thread's running loop only while a page is in use (:meth:`in_use`), and is set aside
    between pages; nothing of Playwright's runs in between, as it only runs inside a call.
    """

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def in_use(self) -> Iterator[Browser]:
        """The browser, with Playwright's loop as the thread's running loop meanwhile."""
        refuse_in_inner_loop()
        assert asyncio.events._get_running_loop() is None, "a browser page inside a loop"
        if self._browser is None or not self._browser.is_connected():
            assert Path(CHROMIUM).exists(), "install Debian chromium: make system-deps"
            self.close()
            self._playwright = sync_playwright().start()
            self._loop = asyncio.events._get_running_loop()
            self._browser = self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        else:
            asyncio.events._set_running_loop(self._loop)
        try:
            yield self._browser
        finally:
            asyncio.events._set_running_loop(None)

    def close(self) -> None:
        """Close the browser and stop Playwright, if they were started."""
        if self._playwright is None:
            return
        asyncio.events._set_running_loop(self._loop)
        try:
            if self._browser is not None:
                with contextlib.suppress(PlaywrightError):
                    self._browser.close()
            self._playwright.stop()
        finally:
            self._browser, self._playwright, self._loop = None, None, None
            asyncio.events._set_running_loop(None)


shared_browser = _SharedBrowser()


@contextlib.contextmanager
def browser_page(width: int = 1280, height: int = 900) -> Iterator[Page]:
    """A page in a fresh context (its own cookies, storage and cache) of this process's
    Chromium; an uncaught error in the page's scripts fails the test."""
    errors: list[str] = []
    with shared_browser.in_use() as browser:
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page
        finally:
            context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def refuse_in_inner_loop() -> None:
    if inner_loop():
        refuse("drives a browser", "browser")


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
