"""The gate of issue 18: G/1 lightning and a blitz scramble, clocks both ways round.

Every real game of ``tests/data/real-games.pgn`` and eight generated ones (castling both
ways, en passant, promotions, repetitions), each with White's time on the clock's left and
on its right, played by messy hands (slides, captured men lifted first, rook-first
castling, knocked pieces, adjusted pieces, result gestures, boards the wrong way round) on
a board sweeping its sensors every 200-250 ms, read by the real DGT driver core and the
tracker on one fake clock (:mod:`bench.fake_time`): the outcome is the same on any machine
however busy. At lightning a ply takes 0.3-1 s of its player's clock and the board is never
still for a recover window.

The bench's targets over 200+ games (``bench.accuracy --fake-time --pace lightning``): at
least 98% exact, no frozen game, the record never more than 2 plies behind a board that has
been still for 2 s. This smaller corpus is held to the same figures; the slower scramble
and blitz paces to every game exact. The hands press the clock as people do (a look first,
at once as the man lands, a press forgotten now and then: :mod:`boardsim.presses`), and at
every pace every move with a press carries its mover's own time at it, increment included
(blitz is 3+2), and no move without one carries a time (docs/laws.md, "Which time a move
carries").
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench.accuracy_report import generated_games, real_games, summary
from bench.fake_time import play_games
from boardsim.clock import Side
from boardsim.noise import NoiseModel

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "artifacts"


#: Not traced for coverage (four times as long under the tracer): the unit tests cover the
#: code these games run.
@pytest.mark.no_cover
@pytest.mark.parametrize(
    ("pace", "exact_share"), [("lightning", 0.98), ("scramble", 1.0), ("blitz", 1.0)]
)
def test_fast_play_is_reconstructed_on_both_clock_sides(pace, exact_share):
    games = real_games() + generated_games(8)
    reports = play_games(
        games, seed=18, noise=NoiseModel.messy(), pace=pace, white_sides=(Side.LEFT, Side.RIGHT)
    )
    text = summary(reports)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"accuracy-{pace}.txt").write_text(text + "\n", encoding="utf-8")
    assert len(reports) == 2 * len(games) >= 60
    assert {r.white_side for r in reports} == {Side.LEFT, Side.RIGHT}
    assert sum(r.exact for r in reports) >= exact_share * len(reports), text
    assert [r.game.name for r in reports if r.frozen] == [], text
    assert max(r.behind_still()[0] for r in reports) <= 2, text
    assert sum(r.spurious for r in reports) == 0, text
    marks: Counter[str] = Counter()
    for report in reports:
        if report.exact:
            marks.update(report.clock_marks())
    assert marks["own"] > 5000, text
    assert (marks["other"], marks["none"], marks["unpressed-timed"]) == (0, 0, 0), text
    # The hands were as messy as the docstring says, and fast: over 5,000 plies.
    habits = set().union(*(r.habits for r in reports))
    assert {"slide", "captured-first", "knock", "castle-rook-first", "rotated"} <= habits
    assert {"press-early", "press-looked", "press-forgot"} <= habits
    assert sum(len(r.game.moves) for r in reports) > 5000
