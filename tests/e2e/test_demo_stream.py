"""The whole slice: boardsim on ptys -> DGT driver -> hub -> SQLite -> websockets and PGN."""

from __future__ import annotations

import asyncio
import io
import json
import urllib.request
from itertools import islice

import anyio
import chess.pgn
import pytest
import websockets

from relay.config import Settings
from relay.demo.run import Demo, DemoOptions, bundled_games

BOARDS = 8


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


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
    return body.decode()


@pytest.mark.anyio
async def test_demo_streams_every_move_and_stores_the_source_games(tmp_path):
    sources = source_games(BOARDS)
    options = DemoOptions(
        boards=BOARDS,
        ply_seconds=0.2,
        touch_seconds=0.02,
        seed=7,
        db_url=f"sqlite:///{tmp_path / 'demo.db'}",
    )
    demo = Demo(Settings(port=0), options)
    url = await demo.start()
    try:
        ws_base = url.replace("http://", "ws://")
        expected = [[move.uci() for move in game.mainline_moves()] for game in sources]
        with anyio.fail_after(180):
            streamed = await asyncio.gather(
                *(
                    follow(f"{ws_base}api/games/{board.game_id}/stream", len(moves))
                    for board, moves in zip(demo.boards, expected, strict=True)
                )
            )
        assert streamed == expected

        round_pgn = await asyncio.to_thread(fetch, f"{url}api/rounds/{demo.round_id}/games.pgn")
        handle = io.StringIO(round_pgn)
        stored = [chess.pgn.read_game(handle) for _ in range(BOARDS)]
        assert chess.pgn.read_game(handle) is None
        for board, game, source in zip(demo.boards, stored, sources, strict=True):
            assert game is not None
            assert not game.errors
            assert game.headers["Round"] == f"1.{board.board}"
            assert game.headers["White"] == source.headers["White"]
            assert game.headers["Black"] == source.headers["Black"]
            assert list(game.mainline_moves()) == list(source.mainline_moves())
    finally:
        await demo.stop()
