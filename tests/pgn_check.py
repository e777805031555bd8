"""Checking exported PGN the way consumers read it: python-chess and pgn-extract."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import chess.pgn

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"


def read_all(text: str) -> list[chess.pgn.Game]:
    """Every game of ``text``, each read without an error by python-chess."""
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        assert game.errors == [], game.errors
        games.append(game)
    return games


def pgn_extract_problems(text: str) -> str:
    """What pgn-extract says when it checks ``text`` (empty when it finds nothing wrong)."""
    if not Path(PGN_EXTRACT).is_file():
        raise AssertionError("pgn-extract is missing: run 'make system-deps'")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.pgn"
        path.write_text(text, encoding="utf-8")
        result = subprocess.run(
            [PGN_EXTRACT, "-r", "-s", str(path)], capture_output=True, text=True, check=False
        )
    return (result.stdout + result.stderr).strip() or (
        f"exit code {result.returncode}" if result.returncode else ""
    )
