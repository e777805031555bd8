"""Issue 4's accuracy bar, over real pseudo-terminals: every real game and 500 generated
ones, played by messy simulated hands, come out of the hub's board feed move for move.

The same harness as ``bench/accuracy.py`` (which prints the figures for a note); here every
count that must be zero is asserted, and the summary is saved as a test artefact.
"""

from __future__ import annotations

from pathlib import Path

from bench.accuracy import generated_games, play_in_processes, real_games, summary
from boardsim.noise import NoiseModel

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "artifacts"


def test_real_and_generated_games_are_reconstructed_exactly_over_ptys():
    games = real_games() + generated_games(500)
    assert len(games) >= 520
    reports = play_in_processes(games, processes=2, boards=44, speed=6.0, noise=NoiseModel.messy())
    text = summary(reports)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "accuracy.txt").write_text(text + "\n", encoding="utf-8")
    assert [r.game.name for r in reports if not r.exact] == [], text
    assert sum(r.illegal_alerts for r in reports) == 0, text
    assert sum(r.spurious for r in reports) == 0, text
    gestures = [r for r in reports if r.gesture and not r.ended_by_law]
    assert gestures, text
    assert [r.game.name for r in gestures if r.proposals != [r.gesture]] == [], text
    # The noise really was there: every habit of the messy model was played.
    played = set().union(*(r.habits for r in reports))
    assert played >= {
        "adjust",
        "captured-first",
        "castle-rook-first",
        "en-passant-captured-first",
        "knock",
        "knock-lands-nearby",
        "promotion-pawn-lingers",
        "result-kings",
        "result-markers",
        "rotated",
        "slide",
    }, text
