"""Every real game, played by messy simulated hands on boards served over real pseudo-
terminals, comes out of the hub's board feed move for move.

The same harness as ``bench/accuracy.py``, which adds 500 generated games and prints the
figures; this test keeps to the real corpus at a hall-like margin (4x) so it stays a
reliable gate, asserts every count that must be zero, and saves the summary as an artefact.
"""

from __future__ import annotations

from pathlib import Path

from bench.accuracy import play_in_processes, real_games, summary
from boardsim.noise import NoiseModel

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "artifacts"


def test_real_games_are_reconstructed_exactly_over_ptys():
    games = real_games()
    assert len(games) >= 20
    reports = play_in_processes(games, processes=2, boards=16, speed=4.0, noise=NoiseModel.messy())
    text = summary(reports)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "accuracy.txt").write_text(text + "\n", encoding="utf-8")
    assert [r.game.name for r in reports if not r.exact] == [], text
    assert sum(r.illegal_alerts for r in reports) == 0, text
    assert sum(r.spurious for r in reports) == 0, text
    gestures = [r for r in reports if r.gesture and not r.ended_by_law]
    assert [r.game.name for r in gestures if r.proposals != [r.gesture]] == [], text
    # The noise really was there.
    played = set().union(*(r.habits for r in reports))
    assert played >= {"adjust", "captured-first", "knock", "slide", "result-kings"}, text
