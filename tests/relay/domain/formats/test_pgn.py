from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.formats.pgn import (
    LINE_LIMIT,
    GameHeaders,
    PgnExportError,
    PgnMove,
    PlayerTags,
    format_clock,
    render_archive,
    render_game,
    render_round,
)
from relay.domain.results import Result
from tests.pgn_check import pgn_extract_problems, read_all
from tests.strategies import legal_games

HEADERS = GameHeaders(
    event="Club Championship",
    site="Bonn GER",
    date="2026.11.21",
    round=3,
    board=2,
    white=PlayerTags("Kramnik, Vladimir", rating=2772, title="GM", fide_id=4101588, team="RUS"),
    black=PlayerTags("Anand, Viswanathan", rating=2783, title="GM", fide_id=5000017),
    game_id="17",
    time_control="40/5400+30:1800+30",
    started=datetime(2026, 11, 21, 14, 0, 5, tzinfo=UTC),
)


def moves_of(*sans: str, clock: float | None = 5400.0) -> list[PgnMove]:
    return [PgnMove(san, None if clock is None else clock - i) for i, san in enumerate(sans)]


def test_seven_tag_roster_first_then_relay_tags():
    text = render_game(HEADERS, moves_of("e4", "e5"))
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags == [
        "Event", "Site", "Date", "Round", "White", "Black", "Result",
        "Board", "WhiteTitle", "WhiteElo", "WhiteFideId", "WhiteTeam",
        "BlackTitle", "BlackElo", "BlackFideId", "TimeControl", "UTCDate", "UTCTime", "GameId",
    ]  # fmt: skip
    assert '[Round "3.2"]' in text
    assert '[UTCTime "14:00:05"]' in text
    assert text.endswith("1. e4 { [%clk 1:30:00] } 1... e5 { [%clk 1:29:59] } *")


@pytest.mark.processes
def test_every_move_carries_its_clock_and_reads_back():
    text = render_game(HEADERS, moves_of("d4", "Nf6", "c4", "e6", "Nf3"))
    (game,) = read_all(text)
    assert [node.clock() for node in game.mainline()] == [5400, 5399, 5398, 5397, 5396]
    assert [m.uci() for m in game.mainline_moves()] == ["d2d4", "g8f6", "c2c4", "e7e6", "g1f3"]
    assert game.headers["WhiteFideId"] == "4101588"
    assert pgn_extract_problems(text) == ""


def test_without_clock_readings_the_moves_stand_alone():
    text = render_game(HEADERS, moves_of("e4", "c5", clock=None))
    assert text.endswith("\n1. e4 c5 *")


def test_clock_format():
    assert [format_clock(s) for s in (0, 59.9, 61, 3600, 5400, 36000, -3)] == [
        "0:00:00", "0:00:59", "0:01:01", "1:00:00", "1:30:00", "10:00:00", "0:00:00",
    ]  # fmt: skip


@pytest.mark.processes
def test_tags_are_escaped_and_notes_cannot_break_the_comment():
    headers = replace(HEADERS, white=PlayerTags('O"Brien, \\ Pat'), annotator="Arbiter")
    moves = [PgnMove("e4", 60.0, note="illegal } move [%clk 9:99:99] let stand {")]
    text = render_game(headers, moves)
    assert '[White "O\\"Brien, \\\\ Pat"]' in text.splitlines()  # PGN standard 8.1.1
    (game,) = read_all(text)
    node = game.next()
    assert node is not None
    assert node.clock() == 60.0
    assert "let stand" in node.comment
    assert pgn_extract_problems(text) == ""


def test_bad_result_refused():
    with pytest.raises(PgnExportError):
        render_game(replace(HEADERS, result="2-0"), [])  # type: ignore[arg-type]


def test_strict_archive_has_only_the_seven_tags_and_no_comments():
    text = render_archive(
        replace(HEADERS, result=Result.WHITE_WINS),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
    )
    lines = text.splitlines()
    assert lines[:8] == [
        '[Event "Club Championship"]',
        '[Site "Bonn GER"]',
        '[Date "2026.11.21"]',
        '[Round "3.2"]',
        '[White "Kramnik, Vladimir"]',
        '[Black "Anand, Viswanathan"]',
        '[Result "1-0"]',
        "",
    ]
    assert lines[8] == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
    with pytest.raises(PgnExportError, match="needs a result"):
        render_archive(HEADERS, ["e4"])


@pytest.mark.processes
def test_skeleton_is_headers_and_an_open_result():
    text = render_game(HEADERS, [])
    (game,) = read_all(text)
    assert game.headers["Result"] == "*"
    assert list(game.mainline_moves()) == []
    assert pgn_extract_problems(text) == ""


@given(game=legal_games(max_plies=120), clock=st.floats(0, 20000))
def test_any_legal_game_renders_to_valid_wrapped_pgn(game, clock):
    board = chess.Board()
    moves = []
    for move in game:
        moves.append(PgnMove(board.san(move), clock))
        board.push(move)
    text = render_game(HEADERS, moves)
    assert all(len(line) <= LINE_LIMIT for line in text.splitlines())
    assert not any(line.startswith(("[%", "%")) for line in text.splitlines())
    (read,) = read_all(text)
    assert list(read.mainline_moves()) == list(game)


@pytest.mark.processes
def test_round_of_games_reads_back_in_order_and_passes_pgn_extract():
    texts = [
        render_game(replace(HEADERS, board=b, game_id=str(b)), moves_of("e4", "e5", "Nf3"))
        for b in range(1, 4)
    ]
    text = render_round(texts)
    assert [g.headers["Board"] for g in read_all(text)] == ["1", "2", "3"]
    assert pgn_extract_problems(text) == ""
