"""A PGN with several bad games reports every one, each with its game and first line, in one
PgnImportError."""

from __future__ import annotations

import pytest

from relay.domain.errors import InvalidInputError
from relay.domain.formats.pgn_import import PgnImportError, parse_pgn_games


def game(white: str, black: str, moves: str, result: str = "*", **tags: str) -> str:
    lines = [f'[White "{white}"]', f'[Black "{black}"]', f'[Result "{result}"]']
    lines += [f'[{name} "{value}"]' for name, value in tags.items()]
    return "\n".join(lines) + f"\n\n{moves} {result}\n\n"


def test_a_file_with_three_bad_games_reports_three_with_their_lines():
    text = (
        game("A", "B", "1. e4 e5")  # good: lines 1-6
        + game("C", "D", "1. e4 e5 2. Ke3")  # illegal move: lines 7-12
        + game("E", "F", "1. d4", result="2-0")  # unknown result: lines 13-18
        + game("G", "H", "1. c4")  # good: lines 19-24
        + game("I", "J", "1. Nf3", Board="x")  # not a board number: lines 25-31
    )
    with pytest.raises(PgnImportError) as caught:
        parse_pgn_games(text)
    error = caught.value
    assert [(p.field, p.line) for p in error.problems] == [
        ("game 2", 7),
        ("game 3", 13),
        ("game 5", 25),
    ]
    messages = [p.message for p in error.problems]
    assert messages[0].startswith("game 2 (C - D): illegal san: 'Ke3'")
    assert messages[1].startswith("game 3 (E - F): result '2-0' is not one of")
    assert messages[2] == "game 5 (I - J): board 'x' is not a board number"
    assert str(error) == "3 errors: " + "; ".join(messages)
    assert isinstance(error, ValueError)
    assert isinstance(error, InvalidInputError)


def test_every_error_of_one_game_is_reported():
    text = game("A", "B", "1. e4", result="2-0", Board="0")
    with pytest.raises(PgnImportError) as caught:
        parse_pgn_games(text)
    assert [p.field for p in caught.value.problems] == ["game 1", "game 1"]


def test_good_games_know_their_lines():
    text = "\n\n" + game("A", "B", "1. e4") + "\n" + game("C", "D", "1. d4")
    assert [g.line for g in parse_pgn_games(text)] == [3, 10]  # each game is six lines
