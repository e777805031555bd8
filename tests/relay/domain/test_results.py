"""A game's result: the words stored and written, and the points each colour takes."""

from __future__ import annotations

import json

import chess
import pytest

from relay.domain.errors import InvalidInputError, Kind
from relay.domain.formats.pgn_import import parse_pgn_games
from relay.domain.game.events import (
    EventFormatError,
    GameEnded,
    ResultSet,
    event_data,
    event_from_data,
)
from relay.domain.results import Result
from relay.domain.vocabulary import UnknownWordError


@pytest.mark.parametrize(
    ("result", "white", "black"),
    [
        (Result.WHITE_WINS, 1.0, 0.0),
        (Result.BLACK_WINS, 0.0, 1.0),
        (Result.DRAW, 0.5, 0.5),
        (Result.ONGOING, None, None),
    ],
)
def test_each_result_gives_each_colour_its_points(result, white, black):
    assert (result.white_points, result.black_points) == (white, black)


def test_the_words_are_the_ones_stored_and_written_in_pgn():
    assert [str(result) for result in Result] == ["1-0", "0-1", "1/2-1/2", "*"]
    assert json.dumps([Result.DRAW]) == '["1/2-1/2"]'  # the word itself, in JSON too


@pytest.mark.parametrize("result", list(Result))
def test_a_result_reads_back_from_its_word(result):
    assert Result.parse(str(result)) is result
    text = f'[White "A"]\n[Black "B"]\n[Result "{result}"]\n\n1. e4 {result}\n'
    (game,) = parse_pgn_games(text)
    assert game.result is result


def test_only_a_game_with_a_result_is_decided_and_only_a_win_has_a_winner():
    assert [result.is_decided for result in Result] == [True, True, True, False]
    assert [result.winner for result in Result] == [chess.WHITE, chess.BLACK, None, None]
    assert Result.win_for(chess.WHITE) is Result.WHITE_WINS
    assert Result.win_for(chess.BLACK) is Result.BLACK_WINS


@pytest.mark.parametrize("text", ["2-0", "1-1", "½-½", "1/2", "", " 1-0", None, 1])
def test_a_word_that_is_no_result_is_invalid_input(text):
    with pytest.raises(UnknownWordError) as refused:
        Result.parse(text)
    assert str(refused.value) == f"result {text!r} is not one of ['*', '0-1', '1-0', '1/2-1/2']"
    assert isinstance(refused.value, InvalidInputError)
    assert refused.value.kind is Kind.INVALID


def test_stored_events_read_back_with_their_results():
    for event in (
        GameEnded(Result.BLACK_WINS, "checkmate", 1.0),
        ResultSet(Result.WHITE_WINS, "arb", "no show", 2.0, forfeit=True),
    ):
        data = event_data(event)
        assert data["result"] == str(event.result)
        read = event_from_data(event.kind, data)
        assert read == event
        assert isinstance(read, GameEnded | ResultSet)
        assert type(read.result) is Result


def test_a_stored_event_with_no_known_result_is_refused():
    data = {"result": "2-0", "termination": "checkmate", "at": 1.0}
    with pytest.raises(EventFormatError, match=r"end event: result '2-0' is not one of"):
        event_from_data("end", data)
