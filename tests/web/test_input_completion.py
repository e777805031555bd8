"""The game-input desk's completion, the page's own module run under Node
(``tests/web/completion.mjs``) against legal moves from python-chess: what a keyer types,
as scoresheets write moves, finds the legal moves that start with it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import chess
import pytest

pytestmark = pytest.mark.processes

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")


def complete(board: chess.Board, *typed: str) -> list[dict[str, Any]]:
    assert NODE is not None, "the page tests need Node (Debian package nodejs)"
    legal = [board.san(move) for move in board.legal_moves]
    cases = [{"legal": legal, "typed": text} for text in typed]
    done = subprocess.run(
        [NODE, str(HERE / "completion.mjs")],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


def test_what_is_typed_finds_the_legal_moves_that_start_with_it():
    board = chess.Board()
    for san in ("e4", "d5", "Nf3", "Nc6", "Bb5", "a6"):
        board.push_san(san)
    nothing, knight, capture, written, castles, zeros = complete(
        board, "", "N", "ex", "exd5", "O-O", "0-0"
    )
    assert nothing == {"completions": [], "exact": None}
    assert knight["completions"] == ["Na3", "Nc3", "Nd4", "Ne5", "Ng1", "Ng5", "Nh4"]
    assert capture["completions"] == ["exd5"]  # "x" is left out of what fits
    assert written == {"completions": ["exd5"], "exact": "exd5"}
    assert castles == {"completions": ["O-O"], "exact": "O-O"}
    assert zeros == {"completions": ["O-O"], "exact": "O-O"}


def test_a_move_that_is_not_legal_has_no_exact_match():
    board = chess.Board()
    board.set_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1")
    rooks, checking = complete(board, "Rd1", "Ra8+")
    assert rooks == {"completions": [], "exact": None}  # Rad1 or Rfd1: the hub's fitting moves
    assert checking == {"completions": ["Ra8+"], "exact": "Ra8+"}
