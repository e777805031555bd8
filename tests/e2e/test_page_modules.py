"""Every page's scripts load as ES modules, with no build step: each ``/static/*.js`` a page
imports is served with a JavaScript type, the page runs without an error in the console,
and every module in ``web/static/`` is one that some page loads (none is left behind when
a page is split into modules).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page, Response, expect

from relay.demo.pgn_round import bundled_games
from tests.browser import browser_page
from tests.hub_calls import hub_tokens
from tests.live_round import LiveRound, live_round

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
BOARDS = 2
BOARDSIM = ("--ply-seconds", "0.5")
WAIT_MS = 20_000
#: Browsers ask for it by themselves; a page without one is not at fault.
FAVICON = "/favicon.ico"


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[LiveRound]:
    folder = tmp_path_factory.mktemp("modules")
    with live_round(folder, bundled_games(), boards=BOARDS, boardsim=BOARDSIM) as live:
        yield live


def ready_checks(
    live: LiveRound,
) -> dict[str, tuple[str | Callable[[], str], Callable[[Page], None]]]:
    """Each page's address (or what makes it, when the page needs data of its own), and
    what it shows once its modules have run."""
    game = live.games[1]

    def viewer(page: Page) -> None:
        expect(page.locator("article.game")).to_have_count(BOARDS, timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

    def game_page(page: Page) -> None:
        expect(page.locator("#game-title")).to_contain_text("Board 1", timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

    def projector(page: Page) -> None:
        expect(page.locator("#caption")).to_contain_text("Board 1", timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

    # The live round's tournament starts today, so the edition in force today ranks it.
    edition = "FIDE C.07 tie-breaks, 2026 edition (in force when the tournament started)"

    def leaders(page: Page) -> None:
        expect(page.locator("#standings tbody tr")).to_have_count(2 * BOARDS, timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        expect(page.locator("#tie-break-note")).to_contain_text(edition)

    def bulletin(page: Page) -> None:
        expect(page.locator("#updated")).to_contain_text("Last updated", timeout=WAIT_MS)
        expect(page.locator("#standings tbody tr")).to_have_count(2 * BOARDS)
        expect(page.locator("#tie-break-note")).to_contain_text(edition)

    def scoresheet(page: Page) -> None:
        expect(page.locator("#title")).to_contain_text("Board 1", timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

    def arbiter(page: Page) -> None:
        expect(page.locator("#console")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#boards tbody tr")).to_have_count(BOARDS, timeout=WAIT_MS)
        expect(page.locator("#results tbody tr")).to_have_count(BOARDS)
        expect(page.locator("#pairings tbody tr")).to_have_count(BOARDS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        assert "token" not in page.url

    def input_desk(page: Page) -> None:
        expect(page.locator("#desk")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#games tbody tr")).to_have_count(BOARDS, timeout=WAIT_MS)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        assert "token" not in page.url

    def ladder(page: Page) -> None:
        expect(page.locator("#ladder-name")).to_have_text("Modules CC: Modules ladder")
        expect(page.locator("#empty")).to_be_visible()

    [admin] = hub_tokens(live.db, ("Ladder admin", "admin"))
    club = live.post("/api/clubs", {"name": "Modules CC"}, token=admin)["id"]
    rules = {"name": "Modules ladder", "rate": "all", "starts": "2024-09-01", "ends": "2025-06-30"}
    ladder_id = live.post(f"/api/clubs/{club}/ladders", rules, token=admin)["id"]

    def ratings(page: Page) -> None:
        expect(page.locator("#list-period")).to_contain_text("period", timeout=WAIT_MS)

    def correspondence(page: Page) -> None:
        expect(page.locator("#game-title")).to_contain_text("Post, Pat", timeout=WAIT_MS)
        expect(page.locator("#to-move")).to_contain_text("White", timeout=WAIT_MS)

    def correspondence_due(page: Page) -> None:
        expect(page.locator("#desk")).to_be_visible(timeout=WAIT_MS)
        assert "token" not in page.url

    def by_mail() -> tuple[int, int]:
        """A correspondence event (its own tournament and rounds), made only once the
        round's pages have been seen: the viewer, leaders and bulletin show the newest."""
        event = {
            "name": "Modules by mail",
            "control": "standard",
            "format": "class",
            "started": date.today().isoformat(),
            "players": [{"name": "Post, Pat"}, {"name": "Mail, Max"}],
        }
        made = live.post("/api/correspondence", event, token=admin)["tournament_id"]
        [first] = [r for r in live.get("/api/rounds") if r["tournament_id"] == made]
        [game] = live.get(f"/api/rounds/{first['id']}/games")
        return made, game["id"]

    made: list[tuple[int, int]] = []

    def by_mail_url(page: str) -> Callable[[], str]:
        def url() -> str:
            if not made:
                made.append(by_mail())
            event_id, game_id = made[0]
            if page == "correspondence":
                return live.url(page, game=game_id)
            return live.url(page, event=event_id, token=admin)

        return url

    return {
        "ladder": (live.url("ladder", id=ladder_id), ladder),
        "viewer": (live.url(), viewer),
        "game": (live.url("game", id=game), game_page),
        "projector": (live.url("projector", game=game), projector),
        "leaders": (live.url("leaders"), leaders),
        "bulletin": (live.url("bulletin"), bulletin),
        "scoresheet": (live.url("scoresheet", game=game), scoresheet),
        "arbiter": (live.url("arbiter", token=live.arbiter), arbiter),
        "input": (live.url("input", round=1, token=live.operator), input_desk),
        "ratings": (live.url("ratings"), ratings),
        # Last: the event they need is the hub's newest tournament once made.
        "correspondence": (by_mail_url("correspondence"), correspondence),
        "correspondence-due": (by_mail_url("correspondence-due"), correspondence_due),
    }


def local_path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url).split("?")[0]


def visit(url: str, ready: Callable[[Page], None]) -> tuple[list[str], list[Response]]:
    """Open a page until it is ready: the errors in its console, the scripts it loaded."""
    errors: list[str] = []
    scripts: list[Response] = []

    def on_console(message: ConsoleMessage) -> None:
        where = local_path(message.location.get("url", ""))
        if message.type == "error" and where != FAVICON:
            errors.append(f"{message.text} ({where})")

    def on_response(response: Response) -> None:
        if local_path(response.url).endswith(".js"):
            scripts.append(response)

    with browser_page(width=1400, height=1000) as page:
        page.on("console", on_console)
        page.on("response", on_response)
        page.goto(url)
        ready(page)
    return errors, scripts


@pytest.mark.browser
def test_every_page_loads_its_modules_without_an_error(live):
    loaded: set[str] = set()
    for name, (url, ready) in ready_checks(live).items():
        errors, scripts = visit(url if isinstance(url, str) else url(), ready)
        assert not errors, f"{name}: {errors}"
        assert scripts, f"{name} loads no script"
        for response in scripts:
            path = local_path(response.url)
            assert path.startswith("/static/"), (name, path)
            assert response.status == 200, (name, path, response.status)
            kind = response.headers.get("content-type", "")
            assert re.match(r"(text|application)/javascript\b", kind), (name, path, kind)
            loaded.add(path.removeprefix("/static/"))
    on_disk = {path.name for path in STATIC.glob("*.js")}
    assert on_disk - loaded == set(), "modules in web/static that no page loads"
    assert loaded - on_disk == set()
