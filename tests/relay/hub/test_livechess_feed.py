"""The LiveChess-Cloud-style feed's mapping: a game's log, as the views fold it, turned into
DGT's ``game-N.json``, ``index.json`` and ``tournament.json`` shapes, with worked examples."""

from __future__ import annotations

from datetime import datetime

import chess
import pytest

from relay.domain.formats.pgn import PgnMove
from relay.domain.game.events import (
    ClocksPaused,
    ClocksStarted,
    GameEnded,
    LoggedEvent,
    MoveMade,
    ResultSet,
    event_data,
)
from relay.domain.results import Result
from relay.hub import livechess_feed as feed
from relay.hub.game_views import GameView
from relay.store.event_log import StoredEvent
from relay.store.models import EBoard, Game, Player, Round, Tournament
from relay.store.tournaments import Pairing

START = 1_700_000_000.0


def pairing(time_control: str | None = "40/5400+30", eboard: int | None = 7) -> Pairing:
    tournament = Tournament(id=1, name="Oslo Open", site="Oslo NOR", time_control=time_control)
    round_ = Round(id=3, tournament_id=1, number=2, published=True)
    white = Player(
        id=1,
        tournament_id=1,
        start_number=1,
        name="Carlsen, Magnus",
        title="GM",
        federation="NOR",
        fide_id=1503014,
    )
    black = Player(id=2, tournament_id=1, start_number=2, name="Tari", federation="NOR")
    game = Game(id=9, round_id=3, board=1, white_id=1, black_id=2)
    board = None if eboard is None else EBoard(id=1, tournament_id=1, number=eboard, url="x")
    return Pairing(game, round_, tournament, white, black, board)


def view_of(events: list[LoggedEvent], **options: object) -> GameView:
    stored = [
        StoredEvent(9, seq, event.kind, event_data(event), event.at)
        for seq, event in enumerate(events, start=1)
    ]
    return GameView(pairing(**options), stored)  # type: ignore[arg-type]


def played(*moves: tuple[str, float], started: bool = True) -> list[LoggedEvent]:
    """The clocks started at START (90 minutes each), then each move ``spent`` seconds after
    the one before."""
    events: list[LoggedEvent] = []
    if started:
        events.append(ClocksStarted(white=5400, black=5400, by="arb", at=START))
    board, at = chess.Board(), START
    for san, spent in moves:
        at += spent
        move = board.push_san(san)
        events.append(MoveMade(ply=board.ply(), uci=move.uci(), san=san, fen=board.fen(), at=at))
    return events


OPENING = played(("e4", 12), ("e5", 3.5), ("Nf3", 100))


def test_each_move_is_san_then_whole_seconds_left_then_whole_seconds_spent():
    view = view_of(OPENING)
    # 40/5400+30: 5400 - 12 + 30 = 5418 after e4; Black 5400 - 3.5 + 30 = 5426.5, cut down.
    assert feed.game_json(view, view.version, now=START + 200)["moves"] == [
        "e4 5418+12",
        "e5 5426+3",
        "Nf3 5348+100",
    ]
    # The same times as the PGN's %clk and %emt.
    assert "e4 { [%clk 1:30:18] [%emt 0:00:12] }" in view.pgn(view.version)


def test_a_time_not_known_is_left_out_of_the_move():
    assert feed.move_text(PgnMove("Ne2", clock=4922.9)) == "Ne2 4922"
    assert feed.move_text(PgnMove("Rxd7", spent=13.2)) == "Rxd7 +13"
    assert feed.move_text(PgnMove("exd7")) == "exd7"
    assert feed.move_text(PgnMove("e4", clock=5400.0, spent=0.0)) == "e4 5400+0"
    assert feed.move_text(PgnMove("Kh1", clock=-0.4, spent=2.0)) == "Kh1 0+2"


def test_without_a_time_control_or_clock_the_moves_carry_only_the_time_they_took():
    view = view_of(played(("e4", 12), ("e5", 3.5), started=False), time_control=None)
    answer = feed.game_json(view, view.version, now=START + 100)
    assert answer["moves"] == ["e4", "e5 +3"]
    assert answer["clock"] is None


def test_a_live_game_with_its_clock_reading():
    view = view_of(OPENING)
    assert feed.game_json(view, view.version, now=START + 200) == {
        "live": True,
        "serialNr": "7",
        "firstMove": round((START + 12) * 1000),
        "chess960": 518,
        "result": None,
        "comment": None,
        # Black's clock runs since Nf3 (START + 115.5), with 5426 s left.
        "clock": {"white": 5348, "black": 5426, "run": False, "time": 1_700_000_115_500},
        "moves": ["e4 5418+12", "e5 5426+3", "Nf3 5348+100"],
    }


def test_run_is_true_while_whites_clock_runs_and_null_while_paused():
    started = view_of(OPENING[:1])
    clock = feed.game_json(started, 1, now=START + 5)["clock"]
    assert clock == {"white": 5400, "black": 5400, "run": True, "time": 1_700_000_000_000}
    paused = view_of([*OPENING, ClocksPaused(by="arb", reason="dispute", at=START + 150)])
    reading = feed.game_json(paused, paused.version, now=START + 200)["clock"]
    assert reading["run"] is None
    # Black had 5426.5 s at START + 115.5 and used 34.5 s more before the pause.
    assert (reading["white"], reading["black"]) == (5348, 5392)


def test_a_delayed_viewers_clock_runs_from_its_start_plus_the_delay():
    view = view_of(OPENING)
    # The public of a 900 s delay sees the log as of version 2 (e4 only).
    answer = feed.game_json(view, 2, now=START + 912 + 5, shift=900)
    assert answer["moves"] == ["e4 5418+12"]
    assert answer["clock"] == {
        "white": 5418,
        "black": 5400,
        "run": False,
        "time": round((START + 12 + 900) * 1000),
    }


def test_a_game_not_begun_is_not_live():
    view = view_of([])
    answer = feed.game_json(view, 0, now=START)
    assert (answer["live"], answer["firstMove"], answer["moves"]) == (False, None, [])
    assert answer["clock"] == {"white": 5400, "black": 5400, "run": None, "time": START * 1000}
    assert feed.pairing_json(view, 0)["live"] is False


@pytest.mark.parametrize(
    ("result", "forfeit", "words", "pgn"),
    [
        (Result.WHITE_WINS, False, "WHITEWIN", "1-0"),
        (Result.BLACK_WINS, False, "BLACKWIN", "0-1"),
        (Result.DRAW, False, "DRAW", "1/2-1/2"),
        (Result.WHITE_WINS, True, "WHITEFORFAIT", "1-0"),
        (Result.BLACK_WINS, True, "BLACKFORFAIT", "0-1"),
    ],
)
def test_results_in_the_clouds_words_and_in_the_pairings(result, forfeit, words, pgn):
    ended = ResultSet(result=result, by="arb", reason="r", at=START + 200, forfeit=forfeit)
    view = view_of([*OPENING, ended])
    answer = feed.game_json(view, view.version, now=START + 300)
    assert (answer["result"], answer["live"], answer["clock"]) == (words, False, None)
    assert feed.pairing_json(view, view.version)["result"] == pgn


def test_an_open_game_has_no_result_and_its_pairing_a_star():
    view = view_of(OPENING)
    assert feed.game_json(view, view.version, now=START)["result"] is None
    assert feed.pairing_json(view, view.version)["result"] == "*"


def test_a_game_ended_on_the_board_is_over():
    mate = GameEnded(result=Result.BLACK_WINS, termination="checkmate", at=START + 300)
    view = view_of([*OPENING, mate])
    answer = feed.game_json(view, view.version, now=START + 400)
    assert (answer["result"], answer["live"], answer["clock"]) == ("BLACKWIN", False, None)


def test_the_game_is_standard_chess_without_an_eboard_serial_when_none_plays_it():
    view = view_of(OPENING, eboard=None)
    answer = feed.game_json(view, view.version, now=START)
    assert (answer["chess960"], answer["serialNr"], answer["comment"]) == (518, None, None)


def test_names_are_split_from_family_comma_given():
    assert feed.split_name("Carlsen, Magnus") == ("Magnus", "Carlsen")
    assert feed.split_name("Player 1, Player A") == ("Player A", "Player 1")
    assert feed.split_name("Tari") == (None, "Tari")
    assert feed.split_name("de la Cruz, Juan, Jr.") == ("Juan, Jr.", "de la Cruz")
    assert feed.split_name(" , ") == (None, None)


def test_a_pairing_as_index_json_shows_it():
    view = view_of(OPENING)
    assert feed.pairing_json(view, view.version) == {
        "white": {
            "fname": "Magnus",
            "mname": None,
            "lname": "Carlsen",
            "title": "GM",
            "federation": "NOR",
            "gender": None,
            "fideid": 1503014,
        },
        "black": {
            "fname": None,
            "mname": None,
            "lname": "Tari",
            "title": None,
            "federation": "NOR",
            "gender": None,
            "fideid": None,
        },
        "result": "*",
        "live": True,
    }


def test_a_rounds_index_and_tally_at_a_cut():
    view = view_of(OPENING)
    round_ = Round(id=3, tournament_id=1, number=2, starts_at=datetime(2026, 5, 2, 15, 0))
    # Recorded times are the events' own here: before START nothing had happened.
    assert feed.index_json(round_, [view], START - 1)["pairings"][0]["live"] is False
    index = feed.index_json(round_, [view], None)
    assert index["date"] == "2026-05-02"
    assert [p["white"]["lname"] for p in index["pairings"]] == ["Carlsen"]
    assert feed.round_tally([view], None) == {"count": 1, "live": 1}
    assert feed.round_tally([view], START - 1) == {"count": 1, "live": 0}


@pytest.mark.parametrize(
    ("control", "rules"),
    [
        ("40/5400+30", "STANDARD"),
        ("900+10", "RAPID"),
        ("180+2", "BLITZ"),
        (None, "STANDARD"),
        ("whenever", "STANDARD"),
    ],
)
def test_tournament_json_names_the_rules_by_the_fide_class(control, rules):
    tournament = Tournament(id=1, name="Oslo Open", site="Oslo NOR", time_control=control)
    answer = feed.tournament_json(tournament, [{"count": 2, "live": 1}, feed.NO_GAMES], [1, 2])
    assert answer == {
        "id": "Oslo Open",
        "name": "Oslo Open",
        "location": "Oslo NOR",
        "country": None,
        "website": None,
        "rules": rules,
        "chess960": "STANDARD",
        "timecontrol": control,
        "rounds": [{"count": 2, "live": 1}, {"count": 0, "live": 0}],
        "eboards": ["1", "2"],
    }


def test_an_unknown_site_is_no_location():
    tournament = Tournament(id=1, name="Club Night")
    assert feed.tournament_json(tournament, [], [])["location"] is None
