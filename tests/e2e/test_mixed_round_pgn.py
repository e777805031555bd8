"""One round with every way a game reaches the hub (seed 004 ch. 17-18): board 1 on an
electronic board (boardsim through the real driver), board 2 entered on the tablet beside
it (a device token), board 3 keyed at the desk from its paper scoresheet afterwards. The
round's PGN holds all three, as played, and passes pgn-extract; only the desk's game has
no clock times, as nobody timed its moves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlmodel import Session

from bench.boardsim_process import BoardsimProcess
from relay.demo.pgn_round import event_setup, load_pairings
from relay.domain.formats.event_file import render_event_file
from relay.store.access import create_token
from relay.store.engine import open_store
from relay.store.tournaments import list_games
from tests.e2e.test_kill_restart import follow
from tests.hub_calls import hub_call
from tests.pgn_check import pgn_extract_problems, read_all
from tests.pgn_files import write_games
from tests.relay_serve import relay_serve
from tests.stores import migrated_sqlite

ON_THE_BOARD = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *"
ON_THE_TABLET = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 1/2-1/2"
FROM_PAPER = "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 1-0"


def sans(movetext: str) -> list[str]:
    return [word for word in movetext.split()[:-1] if not word[0].isdigit()]


def test_a_round_of_eboard_tablet_and_desk_games_is_one_valid_pgn(tmp_path: Path) -> None:
    games = write_games(
        tmp_path / "games.pgn",
        [
            ("Board, Bea", 2100, "Sensor, Sid", 2050, ON_THE_BOARD),
            ("Tablet, Tom", 1990, "Touch, Tess", 2000, ON_THE_TABLET),
            ("Paper, Pam", 1900, "Pencil, Pete", 1950, FROM_PAPER),
        ],
    )
    boardsim = BoardsimProcess(
        games, 1, *("--ply-seconds", "0.2", "--touch-seconds", "0.02", "--seed", "3")
    )
    try:
        setup = event_setup(load_pairings(games, 3), boardsim.ports)  # board 1 only
        setup = replace(setup, tournament=replace(setup.tournament, time_control="90+30"))
        event = tmp_path / "event.toml"
        event.write_text(render_event_file(setup), encoding="utf-8")
        db = migrated_sqlite(tmp_path / "round.db")
        with relay_serve(tmp_path, event, db) as (_, address):
            engine = open_store(db)
            with Session(engine) as session:
                ids = {g.board: g.id or 0 for g in list_games(session, round_id=1)}
                tablet = create_token(session, user="Board 2 tablet", role="keyer", game_id=ids[2])
                desk = create_token(session, user="Desk Ann", role="keyer")
                arbiter = create_token(session, user="Chief", role="arbiter")
                session.commit()
            engine.dispose()
            # The arbiter starts the round's clocks: board 1's e-clock, the hub's own count
            # for the other two.
            started = hub_call(address, "POST", "/api/rounds/1/clocks/start", {}, arbiter)
            outcomes = [report["outcome"] for report in started["reports"]]
            assert outcomes[1:] == ["timed by the hub", "timed by the hub"]
            for ply, san in enumerate(sans(ON_THE_TABLET), start=1):
                hub_call(address, "POST", f"/api/games/{ids[2]}/entries",
                         {"ply": ply, "move": san}, tablet)  # fmt: skip
            for ply, san in enumerate(sans(FROM_PAPER), start=1):
                hub_call(address, "POST", f"/api/games/{ids[3]}/entries",
                         {"ply": ply, "move": san, "timed": False}, desk)  # fmt: skip
            for number, result in ((2, "1/2-1/2"), (3, "1-0")):
                hub_call(address, "POST", f"/api/games/{ids[number]}/result",
                         {"result": result, "reason": "scoresheets signed"}, arbiter)  # fmt: skip
            played = len(sans(ON_THE_BOARD))
            stream = f"ws://{address}api/rounds/1/stream"
            follow(stream, lambda plies: plies.get(1, 0) >= played, 120)
            text = hub_call(address, "GET", "/api/rounds/1/games.pgn")
    finally:
        boardsim.stop()
    assert pgn_extract_problems(text) == ""
    by_board = {game.headers["Board"]: game for game in read_all(text)}
    for name, movetext in (("1", ON_THE_BOARD), ("2", ON_THE_TABLET), ("3", FROM_PAPER)):
        game = by_board[name]
        moves = [node.san() for node in game.mainline()]
        assert moves == sans(movetext), name
        assert not any(node.variations[1:] for node in game.mainline())  # no variation
    assert (by_board["2"].headers["Result"], by_board["3"].headers["Result"]) == ("1/2-1/2", "1-0")
    clocks = {name: [node.clock() for node in game.mainline()] for name, game in by_board.items()}
    assert all(clock is not None for clock in clocks["2"])  # the tablet's moves are timed
    assert clocks["3"] == [None] * len(sans(FROM_PAPER))  # the desk's are not
