"""A hub killed with SIGKILL in the middle of a 50-board round loses no stored move, and
after a restart the boards carry on: every game ends up stored move for move.

boardsim plays 50 real games on pseudo-terminals in a process of its own; the hub is
``relay serve`` with an event file naming the 50 ports. The test follows the round's stream:
once it has shown a few hundred moves (each committed before it was published) the hub is
killed; the boards play on; the hub is started again on the same database and followed
until every game has been shown to its end.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlmodel import Session
from websockets.sync.client import connect

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import bundled_games
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.store.engine import open_store
from relay.store.event_log import read_round_events
from relay.store.tournaments import list_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite
from tests.venue_round import games_of, round_event

BOARDS = 50
#: Moves shown (so stored) before the kill.
KILL_AFTER_PLIES = 400
#: Moves the boards make while no hub listens.
PLIES_WHILE_DOWN = 100
FINISH_SECONDS = 420


def source_games() -> list[list[str]]:
    return games_of(bundled_games())


def event_file(ports: list[str]) -> str:
    """The demo's round 1 on these ports: board n plays the n-th bundled game."""
    return round_event(bundled_games(), ports)


@contextlib.contextmanager
def hub(tmp_path: Path, event: Path, db: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    with relay_serve(tmp_path, event, db) as (process, address):
        yield process, f"ws://{address}api/rounds/1/stream"


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


def follow(url: str, done: Callable[[dict[int, int]], bool], seconds: float) -> dict[int, int]:
    """Read the round's stream until ``done(plies by board)``; AssertionError after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    with connect(url, max_size=None) as stream:
        snapshot: dict[str, Any] = json.loads(stream.recv(timeout=30))
        board_of = {game["id"]: game["board"] for game in snapshot["games"]}
        plies = {game["board"]: game["ply"] for game in snapshot["games"]}
        while not done(plies):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the stream stopped short: {sum(plies.values())} plies")
            try:
                message = json.loads(stream.recv(timeout=left))
            except TimeoutError:
                quiet = f"the stream went quiet: {sum(plies.values())} plies"
                raise AssertionError(quiet) from None
            if message.get("kind") in {"move", "correction", "takeback"}:
                plies[board_of[message["game"]]] = message["data"]["ply"]
    return plies


def test_kill_9_mid_round_loses_no_stored_move_and_the_boards_carry_on(tmp_path):
    sources = source_games()
    boardsim = BoardsimProcess(
        bundled_games(),
        BOARDS,
        *("--ply-seconds", "0.3", "--touch-seconds", "0.03", "--seed", "17", "--report-moves"),
    )
    expected = {board: sources[(board - 1) % len(sources)] for board in range(1, BOARDS + 1)}
    try:
        event = tmp_path / "event.toml"
        event.write_text(event_file(boardsim.ports))
        db = migrated_sqlite(tmp_path / "round.db")
        with hub(tmp_path, event, db) as (first, stream):
            follow(stream, lambda plies: sum(plies.values()) >= KILL_AFTER_PLIES, 120)
            first.kill()  # SIGKILL: no shutdown, no flush
            first.wait(timeout=30)
        made = len(boardsim.moved)
        before = stored_moves(db)
        assert sum(map(len, before.values())) >= KILL_AFTER_PLIES
        for board, moves in before.items():
            assert moves == expected[board][: len(moves)], f"board {board}"
        # The boards play on while no hub listens.
        boardsim.wait_until(lambda: len(boardsim.moved) >= made + PLIES_WHILE_DOWN, 60, "moves")
        with hub(tmp_path, event, db) as (_, stream):
            finished = {board: len(moves) for board, moves in expected.items()}
            with contextlib.suppress(AssertionError):  # the comparison below says what differs
                follow(stream, lambda plies: plies == finished, FINISH_SECONDS)
        after = stored_moves(db)
        assert after == expected, differences(after, expected)
        for board, moves in before.items():
            assert after[board][: len(moves)] == moves  # nothing stored was lost
    finally:
        boardsim.stop()
