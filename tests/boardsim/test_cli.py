"""The ``boardsim`` command line: loading games and refusing bad arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardsim.cli import build_parser, load_games, main

TWO_GAMES = """\
[Event "Test"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Test"]
[White "Gamma"]
[Black "Delta"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
"""


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    path = tmp_path / "two.pgn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    return path


def test_load_games_cycles_a_short_file(two_games: Path) -> None:
    games = load_games(two_games, 5)

    assert [game.headers["White"] for game in games] == [
        "Alpha",
        "Gamma",
        "Alpha",
        "Gamma",
        "Alpha",
    ]
    assert games[0] is games[2] is games[4]
    assert games[1] is games[3]
    assert len(list(games[0].mainline_moves())) == 7


def test_load_games_takes_the_first_games(two_games: Path) -> None:
    games = load_games(two_games, 1)

    assert len(games) == 1
    assert games[0].headers["Black"] == "Beta"


def test_load_games_of_empty_file_raises(tmp_path: Path) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text("\n\n", encoding="utf-8")

    with pytest.raises(ValueError, match="no games"):
        load_games(path, 3)


def test_load_games_with_illegal_move_raises(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text('[White "X"]\n\n1. e4 e5 2. Ke3 *\n', encoding="utf-8")

    with pytest.raises(ValueError, match="game 1"):
        load_games(path, 1)


def test_missing_pgn_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.pgn"

    assert main(["serve", "--pgn", str(missing)]) == 1

    captured = capsys.readouterr()
    assert captured.err.startswith("boardsim: ")
    assert "missing.pgn" in captured.err
    assert captured.out == ""


def test_empty_pgn_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.pgn"
    path.write_text("", encoding="utf-8")

    assert main(["serve", "--pgn", str(path)]) == 1

    assert "no games" in capsys.readouterr().err


@pytest.mark.parametrize("boards", ["0", "-3"])
def test_too_few_boards_returns_2(
    two_games: Path, boards: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--pgn", str(two_games), "--boards", boards]) == 2

    assert "--boards must be at least 1" in capsys.readouterr().err


def test_parser_defaults(two_games: Path) -> None:
    args = build_parser().parse_args(["serve", "--pgn", str(two_games)])

    assert args.command == "serve"
    assert args.pgn == two_games
    assert args.boards == 8
    assert args.seed is None


def test_missing_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])

    assert exit_info.value.code == 2
    assert "usage: boardsim" in capsys.readouterr().err
