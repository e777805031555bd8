"""The arbiter's console and the bulletin in a real Chromium, against ``relay serve``
following boardsim's boards through the real DGT driver.

* The arbiter signs in with a token, starts every clock (each board's outcome shown, each
  simulated DGT 3000 told), changes a time with a confirmation that shows the time before
  and after (cancelling changes nothing; confirming reaches the clock), follows an alert to
  its board, enters and verifies a result, and the bulletin, open in another tab, shows it
  in the round's results, the standings and the crosstable without being reloaded.
* A token that is not valid, or one without the arbiter role, is refused in words; signing
  out forgets the token.
* The bulletin shows the standings' tie-breaks as columns.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from relay.demo.pgn_round import bundled_games
from tests.browser import browser_page, screenshot
from tests.live_round import LiveRound, live_round

BOARDS = 4
BOARDSIM = ("--report-clock", "--wait-for-clock", "--ply-seconds", "0.5", "--touch-seconds", "0.05")
#: 90+30: both clocks start at 90 minutes.
START_SECONDS = 5400
#: Board 2 replays a game that repeats moves 28-30: a threefold repetition becomes claimable.
REPEATING_BOARD = 2
#: When each alert in the feed happened (seconds), top to bottom.
ALERT_TIMES = "items => items.map(item => item.dataset.at)"


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[LiveRound]:
    folder = tmp_path_factory.mktemp("arbiter")
    with live_round(folder, bundled_games(), boards=BOARDS, boardsim=BOARDSIM) as live:
        yield live


@pytest.fixture
def page() -> Iterator[Page]:
    with browser_page(width=1400, height=1000) as page:
        yield page


def clock_text(seconds: float) -> str:
    """As the pages write a time of 10 s or more: h:mm:ss."""
    whole = math.floor(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def sign_in(page: Page, token: str) -> None:
    page.fill("#token-input", token)
    page.click("#login-form button[type=submit]")


@pytest.mark.browser
def test_arbiter_runs_the_round_and_the_bulletin_follows(live, page):
    board_one = live.games[1]
    page.goto(live.url("arbiter"))
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    sign_in(page, live.arbiter)
    expect(page.locator("#console")).to_be_visible()
    expect(page.locator("#who")).to_have_text("Signed in · arbiter")
    expect(page.locator("#round-title")).to_contain_text("Round 1")
    expect(page.locator("#status")).to_have_text("live", timeout=15_000)

    # Every board, followed and connected; nobody has moved (the players wait for the clock).
    links = page.locator("#boards tbody td.link")
    expect(links).to_have_text(["connected"] * BOARDS, timeout=20_000)
    expect(page.locator("#boards tbody th")).to_have_text([str(n) for n in range(1, BOARDS + 1)])
    expect(page.locator("#boards tbody td.health")).to_have_text(["active"] * BOARDS)
    expect(page.locator("#results tbody td.status")).to_have_text(["not started"] * BOARDS)

    # The bulletin, open in a spectator's browser of its own, before anything happens.
    browser = page.context.browser
    assert browser is not None
    bulletin = browser.new_page(viewport={"width": 1100, "height": 900})
    bulletin.goto(live.url("bulletin"))
    pairings = bulletin.locator("#latest-round tbody tr")
    expect(pairings).to_have_count(BOARDS, timeout=15_000)
    expect(bulletin.locator("#updated")).to_contain_text("Last updated")
    first_stamp = int(bulletin.locator("#updated").get_attribute("data-updated") or "0")
    expect(bulletin.locator("#standings tbody td.pts")).to_have_text(["0"] * 2 * BOARDS)

    # Start all clocks: every board's outcome, and every simulated clock told 90 minutes each.
    before = time.time()
    page.click("#start-all")
    expect(page.locator("#outcomes tbody td.outcome")).to_have_text(["started"] * BOARDS)
    expect(page.locator("#outcomes caption")).to_contain_text(f"{BOARDS} of {BOARDS} boards")
    live.sim.wait_until(
        lambda: len(live.sim.clock_events("clock-set")) >= BOARDS, 10, "every clock set"
    )
    told = live.sim.clock_events("clock-set")
    assert sorted(record["board"] for record in told) == list(range(1, BOARDS + 1))
    assert {(r["left"], r["right"], r["run"]) for r in told} == {
        (START_SECONDS, START_SECONDS, "left")
    }
    assert all(record["at"] >= before for record in told)
    expect(page.locator("#results tbody td.status").first).to_contain_text(
        "in play", timeout=20_000
    )
    # Which side of each clock is White's: auto, decided once the players pressed.
    expect(page.locator("#boards tbody td.clocks .clock-side").first).to_have_text(
        "clock: auto (decided: White left)", timeout=20_000
    )

    # A time change: the dialog shows before and after; Cancel changes nothing.
    page.select_option("#change-game", str(board_one))
    page.select_option("#change-player", "black")
    page.select_option("#change-kind", "add")
    page.fill("#change-seconds", "2:00")
    page.select_option("#change-cause", "illegal-move")
    page.fill("#change-reason", "White completed an illegal move (7.5.5)")
    page.click("#change-form button[type=submit]")
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    page.click("#confirm-cancel")
    expect(dialog).to_be_hidden()
    expect(page.locator("#change-status")).to_have_text("Cancelled: nothing was changed.")

    page.click("#change-form button[type=submit]")
    expect(dialog).to_be_visible()
    change = dialog.locator("tr.change")
    expect(change).to_have_count(1)
    expect(change.locator(".player")).to_contain_text("Black (Nepomniachtchi, Ian)")
    expect(change.locator(".amount")).to_have_text("add 2:00")
    shown_before = float(change.locator(".before").get_attribute("data-seconds") or "nan")
    shown_after = float(change.locator(".after").get_attribute("data-seconds") or "nan")
    # A few moves in: some seconds used, 30 s back for each move made.
    assert START_SECONDS - 60 < shown_before < START_SECONDS + 120
    assert shown_after == pytest.approx(shown_before + 120)
    expect(change.locator(".before")).to_have_text(clock_text(shown_before))
    expect(change.locator(".after")).to_have_text(clock_text(shown_after))
    expect(page.locator("#confirm-expiry")).to_contain_text("Confirm within")
    screenshot(page, "arbiter-confirm")
    page.click("#confirm-ok")
    expect(dialog).to_be_hidden()
    expect(page.locator("#change-status")).to_contain_text(
        f"Black (Nepomniachtchi, Ian) now {clock_text(shown_after)} (clock: changed)"
    )
    # The clock got the confirmed time, once: the cancelled change never reached it.
    live.sim.wait_until(
        lambda: len(live.sim.clock_events("clock-set", 1)) >= 2, 10, "the changed time"
    )
    sets = live.sim.clock_events("clock-set", 1)
    assert len(sets) == 2
    assert sets[-1]["right"] == math.ceil(shown_after)

    # A result entered for board 1: provisional, then verified.
    row = page.locator(f"#result-{board_one}")
    row.locator("select.result-choice").select_option("0-1")
    row.locator("input.result-reason").fill("White resigned; both scoresheets signed")
    row.locator("button.enter").click()
    expect(row.locator("td.result")).to_have_text("0-1")
    expect(row.locator("td.status")).to_have_text("provisional")
    expect(row.locator("button.verify")).to_have_text("Verify 0-1")
    row.locator("button.verify").click()
    expect(row.locator("td.status")).to_have_text("verified")
    expect(row.locator("button.verify")).to_be_disabled()
    game = live.get(f"/api/games/{board_one}", token=live.arbiter)
    assert (game["result"], game["verified"]) == ("0-1", True)

    # The bulletin caught up by itself: round results, standings, crosstable, its stamp.
    result = bulletin.locator(f"#latest-round tr[data-game-id='{board_one}'] td.result")
    expect(result).to_have_attribute("data-verified", "true", timeout=15_000)
    expect(result).to_have_text("0-1")
    leader = bulletin.locator("#standings tbody tr").first
    expect(leader).to_have_attribute("data-start-number", "2")
    expect(leader.locator("td.name")).to_have_text("Nepomniachtchi, Ian")
    expect(leader.locator("td.pts")).to_have_text("1")
    expect(bulletin.locator("#standings tr[data-start-number='1'] td.pts")).to_have_text("0")
    crosstable = bulletin.locator("#crosstable")
    expect(crosstable.locator("tr[data-start-number='1'] td.rd")).to_have_text("2w0")
    expect(crosstable.locator("tr[data-start-number='2'] td.rd")).to_have_text("1b1")
    expect(crosstable.locator("tr[data-start-number='2'] td.pts")).to_have_text("1")
    expect(crosstable.locator("tr[data-start-number='3'] td.rd")).to_have_text("4w")
    assert int(bulletin.locator("#updated").get_attribute("data-updated") or "0") > first_stamp
    screenshot(bulletin, "bulletin")
    # On paper: the same tables, without the page's controls.
    bulletin.emulate_media(media="print")
    expect(bulletin.locator("nav.sections")).to_be_hidden()
    expect(bulletin.locator("#crosstable")).to_be_visible()
    screenshot(bulletin, "bulletin-print")
    bulletin.emulate_media(media="screen")

    # An alert from the round's stream (board 2's game repeats itself), newest first, and
    # its jump to the board's row.
    repeating = live.games[REPEATING_BOARD]
    claim = page.locator(f"#alerts li[data-kind='claims'][data-game-id='{repeating}']")
    expect(claim.first).to_be_visible(timeout=90_000)
    expect(claim.first).to_contain_text("threefold repetition claimable")
    arrived = [float(at) for at in page.locator("#alerts li").evaluate_all(ALERT_TIMES)]
    assert all(newer >= older - 2 for newer, older in itertools.pairwise(arrived)), arrived
    claim.first.locator("button.jump").click()
    expect(page.locator(f"#board-{repeating}")).to_have_class(re.compile(r"\bhighlight\b"))
    expect(page.locator(f"#board-{repeating}")).to_be_focused()
    expect(page.locator("tr.highlight")).to_have_count(2)  # its board row and result row
    screenshot(page, "arbiter")

    # Publishing: hidden from spectators, then shown again.
    expect(page.locator("#published-state")).to_have_text("published")
    page.click("#publish")
    expect(page.locator("#published-state")).to_have_text("not published")
    assert live.get("/api/rounds/1", token=live.arbiter)["published"] is False
    page.click("#publish")
    expect(page.locator("#published-state")).to_have_text("published")
    assert live.get("/api/rounds/1", token=live.arbiter)["published"] is True


@pytest.mark.browser
def test_a_wrong_token_is_refused_in_words(live, page):
    page.goto(live.url("arbiter"))
    sign_in(page, "rly_this-is-not-a-token")
    error = page.locator("#login-error")
    expect(error).to_have_text(
        "Token refused: the token is not valid (unknown or revoked) in this hub's database "
        "live.db. "
        "Check that it was copied whole, or ask for a new one."
    )
    expect(page.locator("#console")).to_be_hidden()
    assert page.evaluate("sessionStorage.getItem('relay-token')") is None

    # A real token without the arbiter's role: who it is, and what the console needs.
    sign_in(page, live.operator)
    expect(error).to_have_text(
        "This token cannot use the arbiter console: Scoresheets is operator; this needs arbiter."
    )
    expect(page.locator("#console")).to_be_hidden()

    # The right token opens the console; signing out forgets it.
    sign_in(page, live.arbiter)
    expect(page.locator("#console")).to_be_visible()
    expect(error).to_have_text("")
    page.click("#sign-out")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    expect(error).to_have_text("Signed out.")
    assert page.evaluate("sessionStorage.getItem('relay-token')") is None

    # A token in the address is checked the same way, and leaves the address bar.
    page.goto(live.url("arbiter", token="rly_wrong"))
    expect(error).to_contain_text("Token refused")
    assert "token" not in page.url


def as_shown(value: float) -> str:
    """How the bulletin writes a score: halves as ½ (1½, ½), anything else to 2 places."""
    if (value * 2).is_integer():
        whole = int(value)
        return f"{whole or ''}½" if value - whole else str(whole)
    return f"{value:.2f}"


@pytest.mark.browser
def test_the_bulletin_shows_the_standings_tie_breaks(live, page):
    """The standings' tie-breaks (FIDE C.07) are columns in their order, and the places are
    the hub's: shared ("2=") only by players equal on points and every tie-break."""
    for board, result in ((2, "1-0"), (3, "1/2-1/2")):
        game = live.games[board]
        live.post(f"/api/games/{game}/result", {"result": result, "reason": "t"}, live.arbiter)
        live.post(f"/api/games/{game}/verify", {"result": result}, live.arbiter)
    rows = live.get("/api/tournaments/1/standings")
    page.goto(live.url("bulletin"))
    standings = page.locator("#standings")
    # No ARO beside them: the field has unrated players, and C.07 article 10 drops the
    # rating-based tie-breaks then.
    assert any(row["rating"] is None for row in rows)
    expect(standings.locator("thead th")).to_have_text(
        ["Rk", "No.", "Name", "Rtg", "Pts", "Games", "BH-C1", "BH", "SB", "WIN", "BPG"]
    )
    first = [as_shown(value) for value in rows[0]["tie_breaks"].values()]
    expect(standings.locator("tbody tr").first.locator("td.tb")).to_have_text(first)
    # The hub's places (the domain's rule: tests/relay/domain/tournament), shown as they are.
    places = [row["place"] for row in rows]
    assert any(place.endswith("=") for place in places)  # some places are shared,
    assert not all(place.endswith("=") for place in places)  # some are not
    expect(standings.locator("td.rank")).to_have_text(places)
