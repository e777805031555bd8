"""The demo as a visitor meets it, and the whole slice under it: boardsim on ptys -> DGT
driver -> hub -> SQLite -> websockets and PGN.

A believable event: sixteen distinct players with normalised names, ratings and
federations; round 1 paired by the hub's own Swiss pairing; every move of the real games
streamed; each result entered and verified as its game ends, so that the standings fill in;
a banner saying it is a simulation.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import urllib.request
from itertools import islice
from typing import Any

import anyio
import chess.pgn
import pytest
import websockets

from relay.config import Settings
from relay.demo.pgn_round import bundled_games
from relay.demo.run import Demo, DemoOptions
from relay.domain.results import Result
from tests.stores import migrated_sqlite

BOARDS = 8
#: "Family, Given", as FIDE writes names (a family name may have several words).
NORMALISED_NAME = re.compile(r"[A-Z][\w' -]*[a-z], [A-Z][\w' -]*[a-z]")


def source_games(count: int) -> list[chess.pgn.Game]:
    with bundled_games().open(encoding="utf-8") as handle:
        games = iter(lambda: chess.pgn.read_game(handle), None)
        return [game for game in islice(games, count) if game is not None]


async def follow(ws_url: str, plies: int) -> list[str]:
    """Moves of one game as the websocket delivers them, until ``plies`` have arrived."""
    moves: list[str] = []
    async with websockets.connect(ws_url, compression=None) as ws:
        while len(moves) < plies:
            message = json.loads(await ws.recv())
            assert message["type"] == "event"
            if message["kind"] == "move":
                assert message["data"]["ply"] == len(moves) + 1
                moves.append(message["data"]["uci"])
    return moves


async def until_verified(ws_url: str) -> dict[str, Any]:
    """The game's stream until its result is verified; the ``verified`` event's data."""
    async with websockets.connect(ws_url, compression=None) as ws:
        while True:
            message = json.loads(await ws.recv())
            if message.get("kind") == "verified":
                data: dict[str, Any] = message["data"]
                return data


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
    return body.decode()


async def get_json(url: str) -> Any:
    return json.loads(await asyncio.to_thread(fetch, url))


@pytest.mark.anyio
async def test_the_demo_is_a_believable_event_relayed_move_by_move(tmp_path):
    sources = source_games(BOARDS)
    options = DemoOptions(
        boards=BOARDS,
        ply_seconds=0.2,
        touch_seconds=0.02,
        seed=7,
        db_url=migrated_sqlite(tmp_path / "demo.db"),
    )
    demo = Demo(Settings(port=0), options)
    url = await demo.start()
    try:
        ws_base = url.replace("http://", "ws://")
        (tournament,) = await get_json(f"{url}api/tournaments")
        players = await get_json(f"{url}api/tournaments/{tournament['id']}/players")
        pairings = await get_json(f"{url}api/rounds/{demo.round_id}/pairings")

        # Sixteen distinct people, each with a normalised name, a rating and a federation.
        assert len(players) == 2 * BOARDS
        assert len({p["name"] for p in players}) == len(players)
        for player in players:
            assert NORMALISED_NAME.fullmatch(player["name"]), player["name"]
            assert player["rating"] > 1000
            assert re.fullmatch(r"[A-Z]{3}", player["federation"])
        # Nobody twice in the round; the Dutch system's round 1: the top half (by rating)
        # against the bottom half, 1 v 9, 2 v 10, ..., colours alternating down the boards.
        paired = [number for game in pairings["games"] for number in (game["white"], game["black"])]
        assert sorted(paired) == sorted(p["start_number"] for p in players)
        by_rating = [p["start_number"] for p in sorted(players, key=lambda p: -p["rating"])]
        top, bottom = by_rating[:BOARDS], by_rating[BOARDS:]
        assert [{g["white"], g["black"]} for g in pairings["games"]] == [
            {a, b} for a, b in zip(top, bottom, strict=True)
        ]
        assert len({g["white"] in top for g in pairings["games"][:2]}) == 2
        assert pairings["warnings"] == []

        # The clocks were started centrally: every board's clock runs, White's first.
        summaries = await get_json(f"{url}api/rounds/{demo.round_id}/games")
        assert all(s["clock"]["running"] in ("white", "black") for s in summaries)

        page = await asyncio.to_thread(fetch, url)
        assert 'class="site-banner"' in page
        assert "Simulation" in page

        expected = [[move.uci() for move in game.mainline_moves()] for game in sources]
        with anyio.fail_after(240):
            streamed, verified = await asyncio.gather(
                asyncio.gather(
                    *(
                        follow(f"{ws_base}api/games/{board.game_id}/stream", len(moves))
                        for board, moves in zip(demo.boards, expected, strict=True)
                    )
                ),
                asyncio.gather(
                    *(
                        until_verified(f"{ws_base}api/games/{board.game_id}/stream")
                        for board in demo.boards
                    )
                ),
            )
        assert streamed == expected
        assert [v["result"] for v in verified] == [g.headers["Result"] for g in sources]

        names = {p["start_number"]: p["name"] for p in players}
        round_pgn = await asyncio.to_thread(fetch, f"{url}api/rounds/{demo.round_id}/games.pgn")
        handle = io.StringIO(round_pgn)
        stored = [chess.pgn.read_game(handle) for _ in range(BOARDS)]
        assert chess.pgn.read_game(handle) is None
        for board, game, source, pairing in zip(
            demo.boards, stored, sources, pairings["games"], strict=True
        ):
            assert game is not None
            assert not game.errors
            assert game.headers["Round"] == f"1.{board.board}"
            assert game.headers["White"] == names[pairing["white"]]
            assert game.headers["Black"] == names[pairing["black"]]
            assert game.headers["Result"] == source.headers["Result"]
            assert list(game.mainline_moves()) == list(source.mainline_moves())

        # The public standings count verified results only: every game is in them.
        standings = await get_json(f"{url}api/tournaments/{tournament['id']}/standings")
        points = {row["start_number"]: row["points"] for row in standings}
        for pairing, source in zip(pairings["games"], sources, strict=True):
            result = Result.parse(source.headers["Result"])
            assert points[pairing["white"]] == result.white_points
            assert points[pairing["black"]] == result.black_points
        assert all(row["played"] == 1 for row in standings)
    finally:
        await demo.stop()


@pytest.mark.anyio
async def test_a_demo_database_kept_with_db_holds_one_tournament_per_run(tmp_path):
    """``relay demo --db`` run twice: the second run is a tournament of its own, on the
    boards its own simulator opened, not on the first run's ports."""
    db_url = migrated_sqlite(tmp_path / "kept.db")
    seen: list[tuple[int, list[str]]] = []
    for _ in range(2):
        demo = Demo(Settings(port=0), DemoOptions(boards=2, ply_seconds=0.5, db_url=db_url))
        url = await demo.start()
        try:
            tournaments = await get_json(f"{url}api/tournaments")
            games = await get_json(f"{url}api/rounds/{demo.round_id}/games")
            assert [g["board"] for g in games] == [1, 2]
            seen.append((len(tournaments), [board.port for board in demo.boards]))
            health = await get_json(f"{url}api/rounds/{demo.round_id}/boards")
            assert all(row["attached"] for row in health)
        finally:
            await demo.stop()
    (first_count, _), (second_count, _) = seen
    assert (first_count, second_count) == (1, 2)
