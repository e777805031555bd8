from __future__ import annotations

import pytest

from relay.domain.formats.pgn_import import PgnImportError, parse_pgn_games

TWO_GAMES = """[Event "Open"]
[Round "3.2"]
[White "Moss, Mary"]
[Black "Lee, Hugo"]
[Result "1-0"]

1. e4 e5 {a comment} 2. Qh5 (2. Nf3) Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Open"]
[Round "3"]
[White "Berg, Ann"]
[Black "Ruiz, Jon"]
[Result "*"]

1. d4 *
"""


def test_games_read_with_board_numbers_and_main_lines():
    first, second = parse_pgn_games(TWO_GAMES)
    assert (first.white, first.black, first.result, first.board) == (
        "Moss, Mary", "Lee, Hugo", "1-0", 2,
    )  # fmt: skip
    assert first.uci == ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7")
    assert (second.board, second.uci) == (None, ("d2d4",))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no game"),
        ('[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n', "game 1 \\(A - B\\)"),
        ('[Result "2-0"]\n\n1. e4 *\n', "result '2-0'"),
        ('[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n[SetUp "1"]\n\n*\n', "standard start"),
        ('[Board "x"]\n[Result "*"]\n\n1. e4 *\n', "board 'x'"),
    ],
)
def test_bad_pgn_names_the_game_and_the_reason(text, message):
    with pytest.raises(PgnImportError, match=message):
        parse_pgn_games(text)


def test_the_second_bad_game_is_named_as_the_second():
    bad = TWO_GAMES + '\n[White "C"]\n[Black "D"]\n\n1. e4 e4 *\n'
    with pytest.raises(PgnImportError, match="game 3 \\(C - D\\)"):
        parse_pgn_games(bad)
