"""Clocks placed both ways in one round, the hub on ``auto``, end to end: ``relay serve``
following boardsim's boards on pseudo-terminals through the real DGT driver, White's time on
the left of the clock on boards 1 and 3 and on the right on boards 2 and 4 (boardsim's
``--clock-side mixed``).

The players start their clocks themselves, Black pressing to start White's: the hub sees
each clock running, before the first move, on White's side, and so decides which side is
White's. The arbiter's central start then runs White's side on every board (while White is
still thinking about the first move), a time change for White reaches White's side, and
every move's
``%clk`` in the round PGN is its mover's time as the simulated clock counted it, from what
boardsim reports: the sides and times each clock was set to, and when each move was made.
"""

from __future__ import annotations

import contextlib
import io
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess.pgn
from websockets.sync.client import ClientConnection, connect

from tests.live_round import LiveRound, live_round

BOARDS = 4
WHITE_ON = {1: "left", 2: "right", 3: "left", 4: "right"}  # --clock-side mixed
MOVES = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 *"
PLIES = 8
START_SECONDS = 5400
INCREMENT = 30
WHITE_SET_TO = 3000
#: Black starts White's time, as players do; White's first move waits for the arbiter's
#: central start (``--wait-for-clock``); 1.5 to 4.5 s of thought a move leaves the time
#: change that follows the start room to land between two presses.
OPTIONS = ["--clock-side", "mixed", "--report-clock", "--report-moves"]
OPTIONS += ["--wait-for-clock", "--black-starts"]
OPTIONS += ["--ply-seconds", "3", "--touch-seconds", "0.05", "--seed", "17"]
#: Between a move's last touch and its press (boardsim: at most 1.5 touch pauses).
PRESS_AFTER = 0.05


def games_pgn(folder: Path) -> Path:
    game = chess.pgn.read_game(io.StringIO(MOVES))
    assert game is not None
    game.headers.update(White="Left, Lena", Black="Right, Rolf", Result="*")
    path = folder / "sides.pgn"
    path.write_text(f"{game}\n\n", encoding="utf-8")
    return path


def until(stream: ClientConnection, what: str, seconds: float, check: Callable[[], Any]) -> Any:
    """Check again at every message of the round's stream until ``check`` gives something
    true; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        left = deadline - time.monotonic()
        assert left > 0, f"no {what} within {seconds:g} s"
        with contextlib.suppress(TimeoutError):
            stream.recv(timeout=left)
    return found


def decided_sides(live: LiveRound) -> dict[int, str] | None:
    """White's side of each board's clock, once the hub has decided every one."""
    rows = live.get("/api/rounds/1/boards", token=live.arbiter)
    sides = {
        row["board"]: row["orientation"]["white_on"]
        for row in rows
        if row.get("orientation", {}).get("decided")
    }
    return sides if len(sides) == BOARDS else None


def all_moves_in(live: LiveRound) -> bool:
    games = live.get("/api/rounds/1/games", token=live.arbiter)
    return len(games) == BOARDS and all(game["ply"] == PLIES for game in games)


@dataclass
class SimClock:
    """A board's clock as boardsim's reports let it be counted again."""

    left: float
    right: float
    running: str | None
    since: float

    def set(self, report: dict[str, Any]) -> None:
        self.left, self.right = float(report["left"]), float(report["right"])
        self.running = report["run"] if report["run"] in ("left", "right") else None
        self.since = report["at"]

    def shown(self, side: str, at: float) -> float:
        left = self.left if side == "left" else self.right
        return left - (at - self.since) if side == self.running else left

    def press(self, side: str, at: float) -> tuple[float, float]:
        """The presser's time just before and just after their press at ``at``."""
        before = self.shown(side, at)
        after = before + INCREMENT if side == self.running else before
        if side == "left":
            self.left = after
        else:
            self.right = after
        if side == self.running:
            self.running, self.since = ("right" if side == "left" else "left"), at
        return before, after


def expected_clocks(
    sets: list[dict[str, Any]], moved: dict[int, float], white_on: str
) -> list[tuple[float, float]]:
    """Per ply, the mover's time just before and just after their press."""
    clock = SimClock(0.0, 0.0, None, 0.0)
    black_on = "right" if white_on == "left" else "left"
    events: list[tuple[float, dict[str, Any] | int]] = [(r["at"], r) for r in sets]
    events += [(at + PRESS_AFTER, ply) for ply, at in moved.items()]
    out: dict[int, tuple[float, float]] = {}
    for at, item in sorted(events, key=lambda event: event[0]):
        if isinstance(item, dict):
            clock.set(item)
        else:
            out[item] = clock.press(white_on if item % 2 == 1 else black_on, at)
    return [out[ply] for ply in sorted(out)]


def test_clocks_placed_both_ways_are_read_started_and_changed_by_their_sides(tmp_path):
    with (
        live_round(tmp_path, games_pgn(tmp_path), boards=BOARDS, boardsim=OPTIONS) as live,
        connect(
            f"ws://{live.address}api/rounds/1/stream?token={live.arbiter}", ping_interval=None
        ) as stream,
    ):
        sim = live.sim
        # Black started White's clock: the hub saw it run before the first move.
        sides = until(stream, "decision on every board", 20, lambda: decided_sides(live))
        assert sides == WHITE_ON

        # The central start runs White's side on each board.
        answer = live.post("/api/rounds/1/clocks/start", token=live.arbiter)
        assert [r["outcome"] for r in answer["reports"]] == ["started"] * BOARDS
        starts = {r["board"]: r for r in sim.clock_events("clock-set")}
        assert {b: (r["left"], r["right"], r["run"]) for b, r in starts.items()} == {
            board: (START_SECONDS, START_SECONDS, side) for board, side in WHITE_ON.items()
        }

        # White's time set to 3000 s on every board, all at once: White's side takes it.
        def change(board: int) -> Any:
            asked = live.post(
                f"/api/games/{live.games[board]}/clock/changes",
                {"player": "white", "change": "set", "seconds": WHITE_SET_TO, "reason": "test"},
                token=live.arbiter,
            )
            return live.post(f"/api/clock-changes/{asked['token']}/confirm", token=live.arbiter)

        with ThreadPoolExecutor(BOARDS) as pool:
            confirmed = list(pool.map(change, range(1, BOARDS + 1)))
        assert [c["clock"]["outcome"] for c in confirmed] == ["changed"] * BOARDS
        sim.wait_until(lambda: len(sim.clock_events("clock-set")) == 2 * BOARDS, 10, "changes")
        for board, side in WHITE_ON.items():
            changed = sim.clock_events("clock-set", board)[-1]
            black_side = "right" if side == "left" else "left"
            assert changed[side] == WHITE_SET_TO
            assert START_SECONDS - 20 <= changed[black_side] <= START_SECONDS

        sim.wait_until(lambda: sim.finished == set(WHITE_ON), 240, "every game played")
        until(stream, "every move recorded", 30, lambda: all_moves_in(live))
        with urllib.request.urlopen(live.url("api/rounds/1/games.pgn"), timeout=30) as reply:
            pgn = io.StringIO(reply.read().decode())
        recorded = {}
        while (game := chess.pgn.read_game(pgn)) is not None:
            recorded[int(game.headers["Board"])] = [node.clock() for node in game.mainline()]
        final = decided_sides(live)
        sets = {board: sim.clock_events("clock-set", board) for board in WHITE_ON}
        moved = {
            board: {ply: sim.moved[(board, ply)] for ply in range(1, PLIES + 1)}
            for board in WHITE_ON
        }
    assert final == WHITE_ON
    for board, side in WHITE_ON.items():
        # The start came before the first move (White waited for it).
        assert sets[board][0]["at"] < moved[board][1]
        expected = expected_clocks(sets[board], moved[board], side)
        clocks = recorded[board]
        assert len(clocks) == PLIES
        for ply, (clk, (before, after)) in enumerate(zip(clocks, expected, strict=True), 1):
            assert clk is not None, f"board {board}, ply {ply}: no %clk"
            # The clock as read when the move was decided: just before the press or after.
            near = min(abs(clk - before), abs(clk - after))
            assert near <= 2, f"board {board}, ply {ply}: %clk {clk}, mover had {before}/{after}"
