from __future__ import annotations

import io
from dataclasses import replace

import chess.pgn
import pytest

from relay.domain.formats.pgn import GameHeaders, PgnExportError, render_game, render_round

HEADERS = GameHeaders(
    event="Club Championship",
    site="Bonn",
    date="2026.11.21",
    round=3,
    board=2,
    white="Kramnik, Vladimir",
    black="Anand, Viswanathan",
    white_elo=2772,
    black_elo=2783,
    game_id="17",
)


def test_seven_tag_roster_first_then_relay_tags():
    text = render_game(HEADERS, ["e2e4", "e7e5"])
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert '[Round "3.2"]' in text
    assert '[Board "2"]' in text
    assert '[WhiteElo "2772"]' in text
    assert text.rstrip().endswith("1. e4 e5 *")


def test_output_reads_back_with_the_same_moves():
    ucis = ["d2d4", "g8f6", "c2c4", "e7e6", "g1f3"]
    game = chess.pgn.read_game(io.StringIO(render_game(HEADERS, ucis)))
    assert game is not None
    assert not game.errors
    assert [m.uci() for m in game.mainline_moves()] == ucis
    assert game.headers["White"] == "Kramnik, Vladimir"


def test_illegal_move_and_bad_result_refused():
    with pytest.raises(PgnExportError):
        render_game(HEADERS, ["e2e5"])
    with pytest.raises(PgnExportError):
        render_game(_with_result("2-0"), [])


def _with_result(result: str) -> GameHeaders:
    return replace(HEADERS, result=result)


def test_round_is_games_in_order_separated_by_blank_lines():
    one = render_game(HEADERS, ["e2e4"])
    two = render_game(_with_result("1-0"), [])
    text = render_round([one, two])
    handle = io.StringIO(text)
    first, second = chess.pgn.read_game(handle), chess.pgn.read_game(handle)
    assert first is not None
    assert second is not None
    assert first.headers["Result"] == "*"
    assert second.headers["Result"] == "1-0"
    assert chess.pgn.read_game(handle) is None
