"""Durability: a move the hub has acknowledged survives SIGKILL, and is stored once.

``relay serve`` runs as an organiser runs it, on SQLite and on PostgreSQL. One writer per
board enters its game's moves through the API as fast as the hub takes them
(``POST /api/games/{id}/moves``, one ply a request, each answered only once committed); at
a random moment the hub is killed with SIGKILL, in the middle of whatever it was doing,
and started again on the same database; the writers carry on from what the restarted hub
shows. After the last restart every acknowledged move is looked for in the stored logs:

* lost: acknowledged (200, with its ply) but not in the game as stored;
* duplicated: stored more than once (a log entry that puts a move where the same move
  already stood).

Both must be 0. Prints, per database: kills, acknowledged moves, lost, duplicated, and the
rate of acknowledged moves. ``bench.durability_boards`` does the same with moves from
simulated boards. Never fails.

    .venv/bin/python -m bench.durability [--kills 10] [--boards 64] [--databases sqlite postgresql]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn
from sqlmodel import Session

from relay.demo.pgn_round import bundled_games, event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.domain.game.events import MovesReplaced, event_from_data
from relay.domain.game.record import GameRecord
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.event_log import read_round_events
from relay.store.tournaments import list_games, list_rounds
from tests.relay_serve import relay_serve
from tests.stores import empty_store

#: Seconds the hub runs between its start and its kill, drawn uniformly.
UP_SECONDS = (0.3, 1.5)


@dataclass
class Figures:
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    seconds_up: float = 0.0
    #: (game id, ply) -> the move acknowledged there, in UCI.
    acks: dict[tuple[int, int], str] = field(default_factory=dict)


def source_games(boards: int) -> list[list[str]]:
    """The bundled games' moves in SAN, board by board (cycling through the file)."""
    games: list[list[str]] = []
    with bundled_games().open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            sans = []
            for move in game.mainline_moves():
                sans.append(board.san(move))
                board.push(move)
            games.append(sans)
    return [games[n % len(games)] for n in range(boards)]


class Writer(threading.Thread):
    """Enters one game's moves, one request each, until the hub goes away."""

    def __init__(
        self,
        address: str,
        token: str,
        game_id: int,
        sans: list[str],
        start: int,
        figures: Figures,
        lock: threading.Lock,
    ) -> None:
        super().__init__(daemon=True)
        self.host, _, port = address.rstrip("/").partition(":")
        self.port = int(port)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.game_id = game_id
        self.sans = sans
        self.ply = start + 1
        self.figures = figures
        self.lock = lock

    def run(self) -> None:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        board = chess.Board()
        for san in self.sans[: self.ply - 1]:
            board.push_san(san)
        try:
            while self.ply <= len(self.sans):
                san = self.sans[self.ply - 1]
                body = json.dumps({"ply": self.ply, "san": [san], "reason": "durability"})
                connection.request("POST", f"/api/games/{self.game_id}/moves", body, self.headers)
                answer = connection.getresponse()
                data = json.loads(answer.read())
                if answer.status != 200 or data.get("ply") != self.ply:
                    return
                uci = board.push_san(san).uci()
                with self.lock:
                    self.figures.acks[(self.game_id, self.ply)] = uci
                self.ply += 1
        except (OSError, http.client.HTTPException, ValueError):
            return  # the hub was killed mid-request: that move was never acknowledged


def stored_moves(db_url: str) -> dict[int, tuple[list[str], int]]:
    """Per game: its moves as stored (UCI), and how many log entries put a move where the
    same move already stood."""
    engine = open_store(db_url)
    try:
        with Session(engine) as session:
            (round_,) = list_rounds(session)
            assert round_.id is not None
            logs = read_round_events(session, round_id=round_.id)
    finally:
        engine.dispose()
    games: dict[int, tuple[list[str], int]] = {}
    for game_id, events in logs.items():
        record = GameRecord()
        repeated = 0
        for item in events:
            event = event_from_data(item.kind, item.data)
            if isinstance(event, MovesReplaced) and event.uci:
                standing = [move.uci for move in record.moves]
                at = event.ply - 1
                repeated += standing[at : at + len(event.uci)] == list(event.uci)
            record.apply(event)
        games[game_id] = ([move.uci for move in record.moves], repeated)
    return games


def prepare(folder: Path, db_url: str, boards: int) -> tuple[Path, str, list[int]]:
    """The event file, an arbiter token, and the games' ids."""
    event = folder / "event.toml"
    setup = event_setup(load_pairings(bundled_games(), boards), [])
    event.write_text(render_event_file(setup), encoding="utf-8")
    engine = open_store(db_url)
    try:
        with Session(engine) as session:
            token = create_token(session, user="durability", role="arbiter")
            session.commit()
    finally:
        engine.dispose()
    return event, token, []


def game_ids(db_url: str) -> list[int]:
    engine = open_store(db_url)
    try:
        with Session(engine) as session:
            (round_,) = list_rounds(session)
            assert round_.id is not None
            return [game.id or 0 for game in list_games(session, round_id=round_.id)]
    finally:
        engine.dispose()


def run(db_url: str, folder: Path, *, kills: int, boards: int, seed: int) -> Figures:
    chance = random.Random(seed)
    figures = Figures()
    lock = threading.Lock()
    event, token, _ = prepare(folder, db_url, boards)
    games = source_games(boards)
    for _ in range(kills + 1):
        with relay_serve(folder, event, db_url) as (process, address):
            ids = game_ids(db_url)
            stored = stored_moves(db_url)
            writers = [
                Writer(address, token, game_id, sans, len(stored[game_id][0]), figures, lock)
                for game_id, sans in zip(ids, games, strict=True)
            ]
            started = time.perf_counter()
            for writer in writers:
                writer.start()
            if figures.kills == kills:  # the last start: the hub only has to come back
                for writer in writers:
                    writer.join(timeout=0.5)
                process.send_signal(signal.SIGINT)
                process.wait(timeout=30)
                break
            time.sleep(chance.uniform(*UP_SECONDS))
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
            figures.seconds_up += time.perf_counter() - started
            figures.kills += 1
            for writer in writers:
                writer.join(timeout=15)
    final = stored_moves(db_url)
    figures.acknowledged = len(figures.acks)
    for (game_id, ply), uci in figures.acks.items():
        moves, _ = final[game_id]
        if len(moves) < ply or moves[ply - 1] != uci:
            figures.lost += 1
    figures.duplicated = sum(repeated for _, repeated in final.values())
    return figures


def trial_options(parser: argparse.ArgumentParser) -> None:
    """The options the durability benches share: kills, seed, databases."""
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs per database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--databases", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    trial_options(parser)
    parser.add_argument("--boards", type=int, default=64, help="games entered at once")
    args = parser.parse_args()
    for kind in args.databases:
        with (
            tempfile.TemporaryDirectory() as name,
            empty_store(kind, Path(name), "durability.db") as url,
        ):
            figures = run(url, Path(name), kills=args.kills, boards=args.boards, seed=args.seed)
        rate = figures.acknowledged / figures.seconds_up if figures.seconds_up else 0.0
        print(
            f"{kind}: {figures.kills} SIGKILLs, {figures.acknowledged} moves acknowledged "
            f"({rate:.0f}/s while up, {args.boards} writers), {figures.lost} lost, "
            f"{figures.duplicated} duplicated",
            flush=True,
        )


if __name__ == "__main__":
    main()
