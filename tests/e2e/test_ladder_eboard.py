"""A club night on an electronic board (seed 002 with ch. 17 of seed 004): a ladder game is
played on boardsim's board through the real driver into ``relay serve``; the club's officer
tags it for the ladder, and when the board's game ends by checkmate, the ladder table has
the result, with the points seed 002's table moves."""

from __future__ import annotations

import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from tests.e2e.test_kill_restart import follow
from tests.hub_calls import hub_call, hub_tokens
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

#: Fool's mate: the board shows Qh4 and the hub ends the game 0-1 by itself.
FOOLS_MATE = "1. f3 e5 2. g4 Qh4# 0-1"


def test_a_ladder_game_on_the_eboard_reaches_the_ladder_table(tmp_path: Path) -> None:
    games = write_games(tmp_path / "club.pgn", [("Cole, Cat", 1500, "Able, Ann", 1600, FOOLS_MATE)])
    boardsim = BoardsimProcess(
        games, 1, *("--ply-seconds", "0.3", "--touch-seconds", "0.02", "--seed", "5")
    )
    try:
        event = tmp_path / "event.toml"
        event.write_text(
            render_event_file(event_setup(load_pairings(games, 1), boardsim.ports)),
            encoding="utf-8",
        )
        db = migrated_sqlite(tmp_path / "club.db")
        with relay_serve(tmp_path, event, db) as (_, address):
            [admin] = hub_tokens(db, ("Club secretary", "admin"))

            def call(method: str, path: str, body: object = None) -> Any:
                return hub_call(address, method, path, body, admin)

            club = call("POST", "/api/clubs", {"name": "Hexham CC"})["id"]
            members = {
                name: call("POST", f"/api/clubs/{club}/members", {"name": name})["id"]
                for name in ("Able, Ann", "Cole, Cat")
            }
            today = date.today()
            ladder = call(
                "POST",
                f"/api/clubs/{club}/ladders",
                {
                    "name": "Club night",
                    "rate": "all",
                    "starts": (today - timedelta(days=30)).isoformat(),
                    "ends": (today + timedelta(days=30)).isoformat(),
                },
            )["id"]
            [game] = call("GET", "/api/rounds/1/games")
            tagged = {
                "played_on": today.isoformat(),
                "rate": "standard",
                "white": members["Cole, Cat"],
                "black": members["Able, Ann"],
                "game_id": game["id"],
            }
            call("POST", f"/api/clubs/{club}/games", tagged)
            follow(f"ws://{address}api/rounds/1/stream", lambda plies: plies.get(1, 0) >= 4, 120)
            deadline = time.monotonic() + 30
            while (table := call("GET", f"/api/ladders/{ladder}"))["lines"] == []:
                assert time.monotonic() < deadline, "the ladder never had the board's result"
                time.sleep(0.2)
            result = call("GET", f"/api/games/{game['id']}")["result"]
    finally:
        boardsim.stop()
    # Ann (Black) mated Cat: both started on 50 points, level, so the winner takes 10
    # (seed 002's table, difference 0-3).
    shown = [(line["name"], line["points"], line["games"]) for line in table["lines"]]
    assert shown == [("Able, Ann", 60, 1), ("Cole, Cat", 40, 1)]
    assert result == "0-1"
