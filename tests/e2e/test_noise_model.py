"""Any legal game, played by untidy hands with any seed, is reconstructed exactly.

The whole chain without a single mock and without waiting: boardsim's noise model plays the
game on a virtual board with a DGT 3000 clock and real sensor sweeps; the board's bytes go
to the real DGT driver core (sans I/O), whose events go to the tracker, all on one fake
clock (:mod:`bench.fake_time`). The pty and event-loop path is covered by
``bench/accuracy.py`` and ``test_accuracy.py``; this test lets hypothesis search seeds and
games.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bench.accuracy_report import SourceGame
from bench.fake_time import play_game
from boardsim.clock import TimeControl
from boardsim.noise import NoiseModel
from boardsim.pace import Pace
from relay.domain.game.events import ArbiterAlert, IllegalMoveCompleted
from tests.strategies import legal_games

PACE = Pace(ply_seconds=1.5, touch_seconds=0.12, jitter=0.5)


@given(
    game=legal_games(80),
    seed=st.integers(min_value=0, max_value=2**32),
    noise=st.sampled_from(["clean", "human", "messy"]),
    result=st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
)
def test_any_game_with_any_noise_seed_is_reconstructed_exactly(game, seed, noise, result):
    report = play_game(
        SourceGame("hypothesis", tuple(game), result),
        seed=seed,
        noise=NoiseModel.preset(noise),
        hands=PACE,
        time_control=TimeControl.parse("90+30"),
    )
    assert report.decided == [move.uci() for move in game]
    alerts = [e.alert for e in report.events if isinstance(e, ArbiterAlert)]
    assert "illegal-position" not in alerts
    assert not [e for e in report.events if isinstance(e, IllegalMoveCompleted)]
