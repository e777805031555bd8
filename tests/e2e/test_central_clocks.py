"""The arbiter's clock control end to end: ``relay serve`` following boardsim's boards on
pseudo-terminals through the real DGT driver, driven through the HTTP API, checked on the
simulator's side (what each simulated DGT 3000 was told, and when its flag fell).

* 50 boards: one call starts every clock of the round; every clock but one receives the
  right set-and-run and the players, who wait for it, begin; the clock that never
  acknowledges is reported as such; a confirmed time change reaches its clock.
* Two games played to a chosen position: a time change leaves the side to move two seconds;
  its flag falls; one game is lost on time, the other drawn because the opponent has a bare
  king (Laws 6.9).
"""

from __future__ import annotations

import io
import json
import math
import time
from pathlib import Path
from typing import Any

import chess.pgn
from websockets.sync.client import connect

from relay.demo.pgn_round import bundled_games
from tests.data_files import DATA
from tests.live_round import LiveRound, live_round

BOARDS = 50
SILENT_BOARD = 7
FAST = ("--ply-seconds", "1", "--touch-seconds", "0.05", "--seed", "3")


def change_time(live: LiveRound, game_id: int, **change: Any) -> Any:
    """Both steps of a time change: ask, then confirm what was shown."""
    asked = live.post(f"/api/games/{game_id}/clock/changes", change, token=live.arbiter)
    return live.post(f"/api/clock-changes/{asked['token']}/confirm", token=live.arbiter)


def test_fifty_clocks_started_centrally(tmp_path):
    options = ["--report-clock", "--report-moves", "--wait-for-clock", *FAST]
    options += ["--faults", f"noack:board={SILENT_BOARD}"]
    with live_round(
        tmp_path,
        bundled_games(),
        boards=BOARDS,
        time_control="90 min + 30 s/move",
        boardsim=options,
    ) as live:
        sim = live.sim
        before = time.time()
        answer = live.post("/api/rounds/1/clocks/start", token=live.arbiter)
        outcomes = {report["board"]: report["outcome"] for report in answer["reports"]}
        expected = {board: "started" for board in range(1, BOARDS + 1)}
        expected[SILENT_BOARD] = "no acknowledgement"
        assert outcomes == expected

        # Every clock that listens was told: 90 minutes each, White's side running.
        told = sim.clock_events("clock-set")
        assert sorted(record["board"] for record in told) == [
            board for board in range(1, BOARDS + 1) if board != SILENT_BOARD
        ]
        assert {(r["left"], r["right"], r["run"]) for r in told} == {(5400, 5400, "left")}
        assert all(r["at"] >= before for r in told)

        # The players waited for the start; then they began. The silent clock's never ran.
        sim.wait_until(lambda: (1, 1) in sim.moved, 60, "a first move on board 1")
        assert sim.moved[(1, 1)] > told[0]["at"] - 1
        assert not any(board == SILENT_BOARD for board, _ in sim.moved)

        # White completed an illegal move: two minutes more for Black, on Black's side.
        confirmed = change_time(
            live,
            live.games[1],
            player="black",
            change="add",
            seconds=120,
            cause="illegal-move",
            reason="White completed an illegal move (7.5.5)",
        )
        assert confirmed["clock"]["outcome"] == "changed"
        assert confirmed["after"] == confirmed["before"] + 120
        sim.wait_until(lambda: len(sim.clock_events("clock-set", 1)) == 2, 10, "the changed time")
        assert sim.clock_events("clock-set", 1)[-1]["right"] == math.ceil(confirmed["after"])


def positions_pgn(folder: Path) -> Path:
    """Two games to play up to a chosen position, both unfinished:

    board 1, four plies of a Ruy Lopez, White to move with all pieces on the board;
    board 2, a real game (``real-games.pgn``, Michoel - Le) up to the 119th ply, where White
    has a bare king and Black, to move, has a rook and pawns.
    """
    with (DATA / "real-games.pgn").open(encoding="utf-8") as handle:
        for _ in range(23):
            source = chess.pgn.read_game(handle)
    assert source is not None
    bare = chess.pgn.Game()
    bare.headers.update(White=source.headers["White"], Black=source.headers["Black"])
    node: chess.pgn.GameNode = bare
    for move in list(source.mainline_moves())[:119]:
        node = node.add_variation(move)
    board = node.board()
    assert board.occupied_co[chess.WHITE] == chess.BB_SQUARES[board.king(chess.WHITE) or 0]
    assert board.turn == chess.BLACK
    short = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Nf3 Nc6 *"))
    assert short is not None
    short.headers.update(White="Flagger, Fast", Black="Patient, Paula")
    for game in (short, bare):
        game.headers["Result"] = "*"
    path = folder / "positions.pgn"
    path.write_text(f"{short}\n\n{bare}\n\n", encoding="utf-8")
    return path


def test_a_flag_fall_loses_or_draws_as_the_laws_say(tmp_path):
    games_pgn = positions_pgn(tmp_path)
    options = ["--report-clock", "--wait-for-clock", "--ply-seconds", "0.2", "--seed", "5"]
    options += ["--touch-seconds", "0.02"]
    with live_round(tmp_path, games_pgn, boards=2, boardsim=options) as live:
        started = live.post("/api/rounds/1/clocks/start", token=live.arbiter)
        assert [r["outcome"] for r in started["reports"]] == ["started", "started"]
        live.sim.wait_until(lambda: live.sim.finished == {1, 2}, 240, "both games played")
        with connect(f"ws://{live.address}api/rounds/1/stream", max_size=None) as stream:
            json.loads(stream.recv(timeout=30))  # the snapshot
            for board, player in ((1, "white"), (2, "black")):
                confirmed = change_time(
                    live,
                    live.games[board],
                    player=player,
                    change="set",
                    seconds=2,
                    reason="test: let the flag fall",
                )
                assert confirmed["clock"]["outcome"] == "changed"
            ended = follow_until_ended(stream, set(live.games.values()), 60)
        flags = live.sim.clock_events("flag")
    games = live.games
    assert sorted((r["board"], r["side"]) for r in flags) == [(1, "left"), (2, "right")]
    assert ended[games[1]]["flag"] == "white"
    assert (ended[games[1]]["result"], ended[games[1]]["termination"]) == (
        "0-1",
        "flag fall (white)",
    )
    assert ended[games[2]]["flag"] == "black"
    assert ended[games[2]]["result"] == "1/2-1/2"
    assert ended[games[2]]["termination"].startswith("flag fall, opponent cannot checkmate")


def follow_until_ended(stream: Any, game_ids: set[int], seconds: float) -> dict[int, Any]:
    """Read the round's stream until every game has ended: who flagged, result, termination."""
    deadline = time.monotonic() + seconds
    ended: dict[int, dict[str, Any]] = {game_id: {} for game_id in game_ids}
    while not all("result" in game for game in ended.values()):
        left = deadline - time.monotonic()
        assert left > 0, f"games not ended: {ended}"
        message = json.loads(stream.recv(timeout=left))
        if message.get("kind") == "flag":
            ended[message["game"]]["flag"] = message["data"]["player"]
        elif message.get("kind") == "end":
            ended[message["game"]].update(
                result=message["data"]["result"], termination=message["data"]["termination"]
            )
    return ended
