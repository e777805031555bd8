"""Every output of an event file fed at once by ``relay serve`` (docs/outputs.md): a
lichess broadcast round (a local server that plays lichess' push endpoint), an export
folder in LiveChess' layout and the LiveChess JSON feed, while a fourth output, a folder
that cannot be written, fails in words and is retried without holding up the others. The
console's status lines say which is which."""

from __future__ import annotations

import io
import json
import time
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import chess.pgn
from sqlmodel import Session

from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.domain.formats.output_setup import FolderSetup, LichessSetup, LiveChessSetup
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.tournaments import list_games
from tests.fake_lichess import ROUND_1, TOKEN, fake_lichess
from tests.hub_calls import hub_call
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

FIRST = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0"
SECOND = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 1/2-1/2"


def sans(movetext: str) -> list[str]:
    return [word for word in movetext.split()[:-1] if not word[0].isdigit()]


def games_in(text: str) -> list[tuple[list[str], str]]:
    """Each game's moves and result, in the order the text holds them."""
    found = []
    read = io.StringIO(text)
    while (game := chess.pgn.read_game(read)) is not None:
        found.append(([node.san() for node in game.mainline()], game.headers["Result"]))
    return found


def wait_for(what: str, check: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.2)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read())


def test_every_output_is_fed_and_a_broken_one_is_named(tmp_path: Path) -> None:
    played = [("Kasparov, Garry", 2800, "Karpov, Anatoly", 2750, FIRST)]
    played.append(("Anand, Viswanathan", 2780, "Kramnik, Vladimir", 2770, SECOND))
    games = write_games(tmp_path / "games.pgn", played)
    export = tmp_path / "export"
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where a folder should be\n")
    with fake_lichess() as lichess:
        setup = event_setup(load_pairings(games, 2), [])
        outputs = (
            LichessSetup(rounds=((1, ROUND_1),), url=lichess.url),
            FolderSetup(path=str(export)),
            FolderSetup(path=str(blocked)),
            LiveChessSetup(),
        )
        event = tmp_path / "event.toml"
        event.write_text(render_event_file(replace(setup, outputs=outputs)), encoding="utf-8")
        db = migrated_sqlite(tmp_path / "round.db")
        with relay_serve(tmp_path, event, db, LICHESS_TOKEN=TOKEN) as (_, address):
            engine = open_store(db)
            with Session(engine) as session:
                ids = {g.board: g.id or 0 for g in list_games(session, round_id=1)}
                desk = create_token(session, user="Desk Ann", role="keyer")
                arbiter = create_token(session, user="Chief", role="arbiter")
                session.commit()
            engine.dispose()
            for board, movetext in ((1, FIRST), (2, SECOND)):
                for ply, san in enumerate(sans(movetext), start=1):
                    hub_call(address, "POST", f"/api/games/{ids[board]}/entries",
                             {"ply": ply, "move": san, "timed": False}, desk)  # fmt: skip
                hub_call(address, "POST", f"/api/games/{ids[board]}/result",
                         {"result": movetext.split()[-1], "reason": "signed"}, arbiter)  # fmt: skip
            expected = [(sans(FIRST), "1-0"), (sans(SECOND), "1/2-1/2")]

            def pushed() -> bool:
                return (
                    bool(lichess.pushes) and games_in(lichess.pushes[-1].body.decode()) == expected
                )

            wait_for("the push of the finished round to lichess", pushed)
            push = lichess.pushes[-1]
            assert (push.method, push.path) == ("POST", f"/api/broadcast/round/{ROUND_1}/push")
            assert push.headers["authorization"] == f"Bearer {TOKEN}"

            round_file = export / "tournament-1" / "round-1" / "games.pgn"

            def exported() -> bool:
                return round_file.exists() and games_in(round_file.read_text()) == expected

            wait_for("the round in the export folder", exported)
            for board, (moves, result) in enumerate(expected, start=1):
                one = (export / "tournament-1" / "round-1" / f"game-{board}.pgn").read_text()
                assert games_in(one) == [(moves, result)]

            feed = f"http://{address}livechess/1/round-1/game-2.json"
            game = get_json(feed)
            assert [move.split()[0] for move in game["moves"]] == sans(SECOND)
            assert game["result"] == "DRAW"
            index = get_json(f"http://{address}livechess/1/round-1/index.json")
            assert [p["white"]["lname"] for p in index["pairings"]] == ["Kasparov", "Anand"]

            statuses = {
                (line["kind"], line["target"]): line
                for line in hub_call(address, "GET", "/api/outputs", None, arbiter)
            }
            target = f"lichess round {ROUND_1} at {lichess.url}"
            assert statuses[("lichess", target)]["state"] == "ok"
            assert statuses[("lichess", target)]["line"].startswith("round 1: pushed")
            assert statuses[("folder", str(export))]["state"] == "ok"
            broken = statuses[("folder", str(blocked))]
            assert broken["state"] == "retrying"
            assert broken["failures"] >= 1
            assert "is a file, not a folder" in broken["error"]
            served = statuses[("livechess", "/livechess/1/tournament.json")]
            assert (served["state"], served["delivered"]) == ("ok", 2)
