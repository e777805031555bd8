"""A hub killed with SIGKILL in the middle of a 50-board round loses no stored move, and
after a restart the boards carry on: every game ends up stored move for move.

boardsim plays 50 real games on pseudo-terminals in a process of its own; the hub is
``relay serve`` with an event file naming the 50 ports. The hub is killed once a few hundred
moves are stored, while the boards keep playing, then started again on the same database.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import chess.pgn
from sqlmodel import Session

from bench.boardsim_process import BoardsimProcess
from relay.demo.run import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.store.engine import open_store
from relay.store.event_log import read_round_events
from relay.store.tournaments import list_games

BOARDS = 50
#: Moves stored before the kill.
KILL_AFTER_PLIES = 400
FINISH_SECONDS = 420


def source_games() -> list[list[str]]:
    games = []
    with bundled_games().open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append([move.uci() for move in game.mainline_moves()])
    return games


def event_file(ports: list[str]) -> str:
    """The demo's round 1 on these ports: board n plays the n-th bundled game."""
    setup = event_setup(load_pairings(bundled_games(), len(ports)), ports)
    return render_event_file(setup)


@contextlib.contextmanager
def hub(tmp_path: Path, event: Path, db: str) -> Iterator[subprocess.Popen[str]]:
    env = {
        **os.environ,
        "RELAY_SETTLE_SECONDS": "0.06",
        "RELAY_BOARD_SWEEP_SECONDS": "0",
        "RELAY_RATE_LIMIT": "0",
    }
    command = [sys.executable, "-m", "relay.cli", "serve", str(event), "--port", "0"]
    command += ["--db", db]
    # The hub's log goes to a file: a pipe nobody reads would stall it once full.
    with (
        (tmp_path / "hub.log").open("a") as log,
        subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log, text=True, cwd=tmp_path, env=env
        ) as process,
    ):
        assert process.stdout is not None
        while (line := process.stdout.readline()) and "hub on" not in line:
            pass
        assert re.search(r"hub on http://", line), line + (tmp_path / "hub.log").read_text()
        try:
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=30)


def stored_moves(db: str) -> dict[int, list[str]]:
    """The stored moves of round 1, by board number."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            logs = read_round_events(session, round_id=1)
            boards = {game.id: game.board for game in list_games(session, round_id=1)}
    finally:
        engine.dispose()
    return {
        boards[game_id]: [
            move.uci
            for move in GameRecord.from_events(
                event_from_data(item.kind, item.data) for item in events
            ).moves
        ]
        for game_id, events in logs.items()
    }


def differences(after: dict[int, list[str]], expected: dict[int, list[str]]) -> str:
    lines = []
    for board, moves in sorted(expected.items()):
        got = after.get(board, [])
        if got != moves:
            same = next(
                (i for i, (a, b) in enumerate(zip(got, moves, strict=False)) if a != b), None
            )
            lines.append(
                f"board {board}: stored {len(got)} plies, played {len(moves)}, "
                f"first difference at ply {same if same is None else same + 1}"
            )
    return "\n".join(lines)


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.5)


def test_kill_9_mid_round_loses_no_stored_move_and_the_boards_carry_on(tmp_path):
    sources = source_games()
    boardsim = BoardsimProcess(
        bundled_games(), BOARDS, "--ply-seconds", "0.3", "--touch-seconds", "0.03", "--seed", "17"
    )
    try:
        event = tmp_path / "event.toml"
        event.write_text(event_file(boardsim.ports))
        db = f"sqlite:///{tmp_path / 'round.db'}"
        with hub(tmp_path, event, db) as first:

            def enough() -> bool:
                return sum(map(len, stored_moves(db).values())) >= KILL_AFTER_PLIES

            wait_for(enough, 120, f"{KILL_AFTER_PLIES} stored moves")
            first.kill()  # SIGKILL: no shutdown, no flush
            first.wait(timeout=30)
        before = stored_moves(db)
        assert sum(map(len, before.values())) >= KILL_AFTER_PLIES
        for board, moves in before.items():
            source = sources[(board - 1) % len(sources)]
            assert moves == source[: len(moves)], f"board {board}"
        time.sleep(2)  # the boards play on while no hub listens
        with hub(tmp_path, event, db):
            wait_for(lambda: len(boardsim.finished) == BOARDS, FINISH_SECONDS, "every game")
            expected = {board: sources[(board - 1) % len(sources)] for board in before}
            with contextlib.suppress(AssertionError):
                wait_for(lambda: stored_moves(db) == expected, 30, "the last moves")
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        for board, moves in before.items():
            assert after[board][: len(moves)] == moves  # nothing stored was lost
    finally:
        boardsim.stop()
