"""The arbiter's clock routes against scripted boards: commands out, the clock's answers
in, and what the game's log and views make of them."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import anyio
import chess
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from drivers.events import (
    BoardStatus,
    ClockCommandFailed,
    ClockCommandResult,
    ClockReading,
    ClockSide,
    Health,
    Lever,
    PositionSnapshot,
    RunMode,
    SetAndRun,
)
from drivers.fake import ScriptedBoard
from relay.bus.messages import Published as Message
from relay.bus.messages import game_topic
from relay.domain.game.events import ClocksStarted, GameEvent, IllegalMoveCompleted, MoveMade
from relay.store.access import read_audit
from relay.store.event_log import read_events
from tests.pairings import paired_round
from tests.pgn_check import pgn_extract_problems, read_all
from tests.relay.api.helpers import hub_of, play, token

START = SetAndRun(5400, 5400, RunMode.LEFT, lever_toggles=True)


def round_of(client: TestClient, games: int) -> tuple[int, list[int]]:
    """Round 2 of ``games`` games, each with an electronic board assigned (followed only
    once a test attaches one)."""
    ports = [f"/dev/ttyACM{n}" for n in range(games)]
    with Session(hub_of(client).engine) as session:
        return paired_round(session, games=games, number=2, ports=ports)


def attach(client: TestClient, game_id: int) -> ScriptedBoard:
    board = ScriptedBoard()
    hub = hub_of(client)

    async def go() -> None:
        await hub.attach_link(game_id=game_id, link=board)

    assert client.portal is not None
    client.portal.call(go)
    return board


def settle(client: TestClient) -> None:
    """Let the hub's loop handle what the scripted boards reported."""

    async def nothing() -> None:
        return None

    assert client.portal is not None
    for _ in range(5):
        client.portal.call(nothing)


def reading(left: int, right: int, *, left_to_move: bool = True) -> ClockReading:
    return ClockReading(
        left=ClockSide(left),
        right=ClockSide(right),
        running=True,
        left_to_move=left_to_move,
        right_to_move=not left_to_move,
        lever=Lever.RIGHT_UP if left_to_move else Lever.LEFT_UP,
        battery_low=False,
    )


def kinds(client: TestClient, game_id: int) -> list[str]:
    with Session(hub_of(client).engine) as session:
        return [item.kind for item in read_events(session, game_id=game_id)]


def test_starting_a_round_reports_every_board(client):
    round_id, (started, refused, silent, unplugged, absent) = round_of(client, 5)
    boards = {game_id: attach(client, game_id) for game_id in (started, refused, silent)}
    boards[started].expect(START, then=[ClockCommandResult(START, ok=True)])
    boards[refused].expect(START, then=[ClockCommandResult(START, ok=False)])
    boards[silent].expect(START, then=[ClockCommandFailed(START, "no acknowledgement after 3")])
    attach(client, unplugged).push(BoardStatus(Health.ACTIVE, clock_connected=False))
    settle(client)
    arbiter = token(client, "arbiter", user="Chief")
    answer = client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter)
    assert answer.status_code == 200
    outcomes = {r["game_id"]: r["outcome"] for r in answer.json()["reports"]}
    assert outcomes == {
        started: "started",
        refused: "refused",
        silent: "no acknowledgement",
        unplugged: "no clock",
        absent: "no board",
    }
    for board in boards.values():
        board.assert_done()
    assert kinds(client, started) == ["clocks-started"]
    assert kinds(client, refused) == kinds(client, silent) == []
    summary = client.get(f"/api/games/{started}").json()
    assert summary["clock"]["running"] == "white"
    assert (summary["clock"]["white"], summary["clock"]["black"]) == (540000, 540000)
    assert client.get(f"/api/rounds/{round_id}/clocks", headers=arbiter).json()["action"] == "start"
    with Session(hub_of(client).engine) as session:
        assert [e.action for e in read_audit(session)].count("start-clocks") == 1


def test_clock_routes_need_an_arbiter(client):
    round_id, _ = round_of(client, 1)
    assert client.post(f"/api/rounds/{round_id}/clocks/start").status_code == 401
    operator = token(client, "operator")
    answer = client.post(f"/api/rounds/{round_id}/clocks/pause", headers=operator)
    assert answer.status_code == 403


def test_a_time_change_waits_for_confirmation_then_reaches_the_clock(client):
    round_id, (game_id,) = round_of(client, 1)
    board = attach(client, game_id)
    board.expect(START, then=[ClockCommandResult(START, ok=True)])
    arbiter = token(client, "arbiter", user="Chief")
    client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter)
    board.push(reading(5390, 5400))
    settle(client)
    asked = client.post(
        f"/api/games/{game_id}/clock/changes",
        json={"player": "white", "change": "set", "seconds": 600, "reason": "clock set wrong"},
        headers=arbiter,
    )
    assert asked.status_code == 200
    change = asked.json()
    assert (change["before"], change["after"], change["asked_by"]) == (5390, 600, "Chief")
    assert kinds(client, game_id) == ["clocks-started"]  # nothing changed yet
    sent = SetAndRun(600, 5400, RunMode.LEFT, lever_toggles=True)
    board.expect(sent, then=[ClockCommandResult(sent, ok=True)])
    confirmed = client.post(f"/api/clock-changes/{change['token']}/confirm", headers=arbiter)
    assert confirmed.status_code == 200
    assert confirmed.json()["clock"]["outcome"] == "changed"
    board.assert_done()
    assert kinds(client, game_id) == ["clocks-started", "time"]
    clock = client.get(f"/api/games/{game_id}").json()["clock"]
    # White's time runs from ``since``: what a view shows now is 600 s, give or take.
    shown = clock["white"] / 100 - (time.time() - clock["since"])
    assert shown == pytest.approx(600, abs=1)
    again = client.post(f"/api/clock-changes/{change['token']}/confirm", headers=arbiter)
    assert again.status_code == 409
    with Session(hub_of(client).engine) as session:
        (entry,) = [e for e in read_audit(session) if e.action == "change-time"]
    assert (entry.user, entry.reason) == ("Chief", "clock set wrong")


def test_a_time_change_is_checked_before_anything_happens(client):
    _, (game_id,) = round_of(client, 1)
    arbiter = token(client, "arbiter")
    url = f"/api/games/{game_id}/clock/changes"
    body = {"player": "white", "change": "add", "seconds": 60, "reason": "penalty"}
    not_started = client.post(url, json=body, headers=arbiter)
    assert not_started.status_code == 409
    assert "not been started" in not_started.json()["detail"]
    no_reason = client.post(url, json={**body, "reason": ""}, headers=arbiter)
    assert no_reason.status_code == 422
    wrong_cause = client.post(url, json={**body, "cause": "mood"}, headers=arbiter)
    assert wrong_cause.status_code == 422  # not a cause: the schema lists them


def test_pause_and_resume_send_the_times_the_clock_shows(client):
    round_id, (game_id,) = round_of(client, 1)
    board = attach(client, game_id)
    board.push(reading(5000, 5100, left_to_move=False))
    settle(client)
    pause = SetAndRun(5000, 5100, RunMode.STOPPED, lever_toggles=True)
    board.expect(pause, then=[ClockCommandResult(pause, ok=True)])
    arbiter = token(client, "arbiter")
    paused = client.post(
        f"/api/rounds/{round_id}/clocks/pause", json={"reason": "fire alarm"}, headers=arbiter
    )
    assert [r["outcome"] for r in paused.json()["reports"]] == ["paused"]
    resume = SetAndRun(5000, 5100, RunMode.LEFT, lever_toggles=True)  # no move yet: White's
    board.expect(resume, then=[ClockCommandResult(resume, ok=True)])
    resumed = client.post(f"/api/rounds/{round_id}/clocks/resume", headers=arbiter)
    assert [r["outcome"] for r in resumed.json()["reports"]] == ["resumed"]
    board.assert_done()
    assert kinds(client, game_id) == ["clocks-paused", "clocks-resumed"]


def test_a_scheduled_start_happens_at_its_time(client):
    round_id, (game_id,) = round_of(client, 1)
    board = attach(client, game_id)
    board.expect(START, then=[ClockCommandResult(START, ok=True)])
    arbiter = token(client, "arbiter")
    # Far enough ahead that a loaded machine still answers before the time comes.
    at = datetime.now(UTC) + timedelta(seconds=3)
    answer = client.post(
        f"/api/rounds/{round_id}/clocks/start", json={"at": at.isoformat()}, headers=arbiter
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["scheduled_at"] == pytest.approx(at.timestamp())
    assert kinds(client, game_id) == []
    task = hub_of(client).clocks.rounds[round_id].scheduled
    assert task is not None

    async def wait() -> None:
        await task

    assert client.portal is not None
    client.portal.call(wait)
    assert time.time() >= at.timestamp()
    state = client.get(f"/api/rounds/{round_id}/clocks", headers=arbiter).json()
    assert state["scheduled_at"] is None
    assert [r["outcome"] for r in state["reports"]] == ["started"]
    assert kinds(client, game_id) == ["clocks-started"]
    naive = client.post(
        f"/api/rounds/{round_id}/clocks/start",
        json={"at": "2030-01-01T10:00:00"},
        headers=arbiter,
    )
    assert naive.status_code == 422


def test_an_illegal_move_penalty_is_proposed_from_the_log(client):
    round_id, (game_id,) = round_of(client, 1)
    board = attach(client, game_id)
    board.expect(START, then=[ClockCommandResult(START, ok=True)])
    arbiter = token(client, "arbiter")
    client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter)
    board.push(reading(5380, 5400, left_to_move=False))
    hub = hub_of(client)

    async def offend() -> None:
        event = IllegalMoveCompleted("white", 1, "add-time", 120, "king left in check", 3.0)
        await hub.recorder.record(round_id=round_id, game_id=game_id, events=[event])

    assert client.portal is not None
    client.portal.call(offend)
    url = f"/api/games/{game_id}/clock/penalties"
    proposed = client.post(url, json={"kind": "illegal-move"}, headers=arbiter).json()["changes"]
    # paired_round's 40/5400+30: standard chess, two minutes; White's 30 s back.
    assert [(c["player"], c["change"], c["seconds"], c["cause"]) for c in proposed] == [
        ("black", "add", 120, "illegal-move"),
        ("white", "subtract", 30, "increment"),
    ]
    assert [(c["before"], c["after"]) for c in proposed] == [(5400, 5520), (5380, 5350)]
    wrong = client.post(url, json={"kind": "wrong-claim", "claimant": "black"}, headers=arbiter)
    assert [c["player"] for c in wrong.json()["changes"]] == ["white"]
    assert kinds(client, game_id) == ["clocks-started", "illegal-move"]  # nothing confirmed


@pytest.mark.processes
def test_round_pgn_carries_clk_and_emt_from_the_game_clock(client):
    round_id, (game_id,) = round_of(client, 1)
    hub = hub_of(client)
    events: list[GameEvent] = [
        ClocksStarted(white=5400, black=5400, by="arbiter", at=100.0),
        MoveMade(ply=1, uci="e2e4", san="e4", fen="", at=110.0),
        MoveMade(ply=2, uci="e7e5", san="e5", fen="", at=125.0, clock=5412.0),
    ]

    async def record() -> None:
        await hub.recorder.record(round_id=round_id, game_id=game_id, events=events)

    assert client.portal is not None
    client.portal.call(record)
    text = client.get(f"/api/rounds/{round_id}/games.pgn").text
    (game,) = read_all(text)
    assert game.headers["TimeControl"] == "40/5400+30"
    # White: 90 min - 10 s + 30 s; Black: the e-clock's 5412 s, 15 s spent.
    movetext = " ".join(text.split("\n\n")[1].split())
    assert (
        movetext
        == "1. e4 { [%clk 1:30:20] [%emt 0:00:10] } 1... e5 { [%clk 1:30:12] [%emt 0:00:15] } *"
    )
    assert [node.clock() for node in game.mainline()] == [5420, 5412]
    assert pgn_extract_problems(text) == ""
    detail = client.get(f"/api/games/{game_id}").json()
    assert detail["clock"]["drift"] == {"white": None, "black": 5412 - (5400 - 15 + 30)}


def test_the_scoresheet_records_draw_offers(client):
    _, (game_id,) = round_of(client, 1)
    operator = token(client, "operator", user="board 1 scoresheet")
    url = f"/api/games/{game_id}/draw"
    offered = client.post(url, json={"player": "white", "action": "offer"}, headers=operator)
    assert offered.json()["draw_offer"] == "white"
    assert client.get(f"/api/games/{game_id}").json()["draw_offer"] == "white"
    wrong = client.post(url, json={"player": "white", "action": "accept"}, headers=operator)
    assert wrong.status_code == 409
    accepted = client.post(url, json={"player": "black", "action": "accept"}, headers=operator)
    assert accepted.json() == {"game_id": game_id, "draw_offer": None, "proposed_result": "1/2-1/2"}
    assert kinds(client, game_id) == ["draw", "draw"]
    assert client.post(url, json={"player": "white", "action": "offer"}).status_code == 401


def test_board_health_shows_what_the_driver_reports(client):
    round_id, (game_id,) = round_of(client, 1)
    board = attach(client, game_id)
    board.push(
        BoardStatus(Health.ACTIVE, serial="12345", battery_percent=40, clock_connected=True),
        reading(5400, 5390),
    )
    settle(client)
    (health,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert (health["health"], health["serial"], health["battery_percent"]) == (
        "active",
        "12345",
        40,
    )
    assert health["rotated"] is False
    assert health["clock"] == {"left": 5400, "right": 5390, "running": True, "battery_low": False}
    assert 0 <= health["last_seen_seconds"] < 5


# Which side of each board's clock is White's


def boards_round(client: TestClient, games: int) -> tuple[int, list[int], list[int]]:
    """A round whose games have electronic boards: round id, game ids, electronic board ids."""
    with Session(hub_of(client).engine) as session:
        ports = [f"scripted-{n}" for n in range(1, games + 1)]
        round_id, game_ids = paired_round(session, games=games, number=2, ports=ports)
    rows = client.get(f"/api/rounds/{round_id}/boards").json()
    return round_id, game_ids, [row["eboard_id"] for row in rows]


def by_side(
    white: int, black: int, *, white_on: str, white_to_move: bool, running: bool = True
) -> ClockReading:
    """A clock with White's time on ``white_on``; the lever up on the mover's side."""
    left, right = (white, black) if white_on == "left" else (black, white)
    left_to_move = white_to_move == (white_on == "left")
    return ClockReading(
        left=ClockSide(left),
        right=ClockSide(right),
        running=running,
        left_to_move=left_to_move,
        right_to_move=not left_to_move,
        lever=Lever.LEFT_UP if left_to_move else Lever.RIGHT_UP,
        battery_low=False,
    )


START_SQUARES = tuple(
    None if (piece := chess.Board().piece_at(square)) is None else piece.symbol()
    for square in chess.SQUARES
)


def obey(board: ScriptedBoard, command: SetAndRun) -> None:
    board.expect(command, then=[ClockCommandResult(command, ok=True)])


class Published:
    """The kinds of event the hub publishes for a game (once they are committed)."""

    def __init__(self, client: TestClient, game_id: int) -> None:
        self.client = client
        self.kinds: list[str] = []
        self.changed: asyncio.Event | None = None

        async def listen() -> None:
            changed = self.changed = asyncio.Event()

            def heard(message: Message) -> None:
                self.kinds.append(message.kind)
                changed.set()

            hub_of(client).bus.subscribe(game_topic(game_id), heard)

        assert client.portal is not None
        client.portal.call(listen)

    def wait_for(self, *kinds: str) -> None:
        """Wait until the hub has published this many events; they must be these kinds."""

        async def until() -> None:
            changed = self.changed
            assert changed is not None
            with anyio.fail_after(5):
                while len(self.kinds) < len(kinds):
                    changed.clear()
                    await changed.wait()
            assert self.kinds == list(kinds)

        assert self.client.portal is not None
        self.client.portal.call(until)


def test_an_operator_sets_each_boards_clock_side(client):
    round_id, (game_id,), (eboard,) = boards_round(client, 1)
    operator = token(client, "operator", user="Board crew")
    url = f"/api/eboards/{eboard}/clock"
    answer = client.put(url, json={"clock": "white-right"}, headers=operator)
    assert answer.status_code == 200
    assert answer.json() == {"id": eboard, "number": 1, "clock": "white-right"}
    (listed,) = client.get("/api/tournaments/1/eboards", headers=operator).json()
    assert listed["clock"] == "white-right"
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert row["clock_setting"] == "white-right"
    assert (
        client.put("/api/eboards/999/clock", json={"clock": "auto"}, headers=operator).status_code
        == 404
    )
    for bad in ({"clock": "sideways"}, {"clock": None}, {}, {"clock": "auto", "side": "left"}):
        assert client.put(url, json=bad, headers=operator).status_code == 422
    assert client.put(url, json={"clock": "auto"}).status_code == 401
    with Session(hub_of(client).engine) as session:
        (entry,) = [e for e in read_audit(session) if e.action == "set-clock-side"]
    assert (entry.user, entry.target) == ("Board crew", f"eboard {eboard}")
    assert kinds(client, game_id) == []  # no board followed the game: nothing to record


@pytest.mark.parametrize("white_on", ["left", "right"])
def test_a_fixed_placement_starts_whites_side_and_changes_the_players_own_time(client, white_on):
    round_id, (game_id,), (eboard,) = boards_round(client, 1)
    operator, arbiter = token(client, "operator"), token(client, "arbiter")
    client.put(
        f"/api/eboards/{eboard}/clock", json={"clock": f"white-{white_on}"}, headers=operator
    )
    published = Published(client, game_id)
    board = attach(client, game_id)  # the game's electronic board's setting
    published.wait_for("clock-side")
    run_white, run_black = (
        (RunMode.LEFT, RunMode.RIGHT) if white_on == "left" else (RunMode.RIGHT, RunMode.LEFT)
    )
    obey(board, SetAndRun(5400, 5400, run_white, lever_toggles=True))
    started = client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter).json()
    assert [r["outcome"] for r in started["reports"]] == ["started"]
    assert kinds(client, game_id) == ["clock-side", "clocks-started"]
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert row["orientation"]["white_on"] == white_on
    assert (row["orientation"]["source"], row["orientation"]["setting"]) == (
        "setting",
        f"white-{white_on}",
    )

    # White thinks; a time change for White reaches White's side, and only it.
    board.push(by_side(5390, 5400, white_on=white_on, white_to_move=True))
    settle(client)
    asked = client.post(
        f"/api/games/{game_id}/clock/changes",
        json={"player": "white", "change": "set", "seconds": 600, "reason": "set wrong"},
        headers=arbiter,
    ).json()
    assert asked["before"] == 5390
    times = (600, 5400) if white_on == "left" else (5400, 600)
    obey(board, SetAndRun(*times, run_white, lever_toggles=True))
    confirmed = client.post(f"/api/clock-changes/{asked['token']}/confirm", headers=arbiter)
    assert confirmed.json()["clock"]["outcome"] == "changed"
    board.push(by_side(600, 5400, white_on=white_on, white_to_move=True))
    settle(client)

    # Pause, resume: White's side runs again while White is to move, Black's after a move.
    obey(board, SetAndRun(*times, RunMode.STOPPED, lever_toggles=True))
    client.post(f"/api/rounds/{round_id}/clocks/pause", json={"reason": "noise"}, headers=arbiter)
    obey(board, SetAndRun(*times, run_white, lever_toggles=True))
    client.post(f"/api/rounds/{round_id}/clocks/resume", headers=arbiter)
    play(client, round_id, game_id, "e4")
    obey(board, SetAndRun(*times, RunMode.STOPPED, lever_toggles=True))
    client.post(f"/api/rounds/{round_id}/clocks/pause", json={"reason": "noise"}, headers=arbiter)
    obey(board, SetAndRun(*times, run_black, lever_toggles=True))
    resumed = client.post(f"/api/rounds/{round_id}/clocks/resume", headers=arbiter).json()
    assert [r["outcome"] for r in resumed["reports"]] == ["resumed"]
    board.assert_done()


def test_an_auto_board_starts_the_side_its_first_press_showed_to_be_whites(client):
    round_id, (game_id,), _ = boards_round(client, 1)
    published = Published(client, game_id)
    board = attach(client, game_id)
    board.push(
        PositionSnapshot(START_SQUARES),
        # The clock stands with the lever up on the left; Black presses it: White's runs.
        by_side(5400, 5400, white_on="right", white_to_move=False, running=False),
        by_side(5400, 5400, white_on="right", white_to_move=True),
    )
    published.wait_for("clock-side")
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert row["orientation"] == {
        "setting": "auto",
        "white_on": "right",
        "decided": True,
        "source": "auto",
        "reason": "White on the right: Black pressed the left side before the first move, "
        "starting White's clock",
        "against": 0,
    }
    obey(board, SetAndRun(5400, 5400, RunMode.RIGHT, lever_toggles=True))
    arbiter = token(client, "arbiter")
    started = client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter).json()
    assert [r["outcome"] for r in started["reports"]] == ["started"]
    board.assert_done()
    assert kinds(client, game_id) == ["clock-side", "clocks-started"]


def test_a_setting_changed_while_a_board_is_followed_is_recorded_in_its_game(client):
    round_id, (game_id,), (eboard,) = boards_round(client, 1)
    published = Published(client, game_id)
    attach(client, game_id)
    settle(client)
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert (row["orientation"]["white_on"], row["orientation"]["decided"]) == ("left", False)
    operator = token(client, "operator")
    client.put(f"/api/eboards/{eboard}/clock", json={"clock": "white-right"}, headers=operator)
    published.wait_for("clock-side")
    assert kinds(client, game_id) == ["clock-side"]
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert (row["orientation"]["white_on"], row["orientation"]["source"]) == ("right", "setting")


def test_a_board_attached_again_goes_on_with_the_sides_its_game_recorded(client):
    round_id, (game_id,), _ = boards_round(client, 1)
    published = Published(client, game_id)
    board = attach(client, game_id)
    board.push(
        PositionSnapshot(START_SQUARES),
        by_side(5400, 5400, white_on="right", white_to_move=False, running=False),
        by_side(5400, 5400, white_on="right", white_to_move=True),
    )
    published.wait_for("clock-side")
    hub = hub_of(client)

    async def detach() -> None:
        await hub.detach(game_id)

    assert client.portal is not None
    client.portal.call(detach)
    board = attach(client, game_id)  # as a hub that restarts: the game's log is read again
    settle(client)
    (row,) = client.get(f"/api/rounds/{round_id}/boards").json()
    assert (row["orientation"]["white_on"], row["orientation"]["decided"]) == ("right", True)
    assert kinds(client, game_id) == ["clock-side"]  # nothing new to record
    obey(board, SetAndRun(5400, 5400, RunMode.RIGHT, lever_toggles=True))
    arbiter = token(client, "arbiter")
    client.post(f"/api/rounds/{round_id}/clocks/start", headers=arbiter)
    board.assert_done()
