"""The named paces: lightning on G/1 without a flag, a blitz scramble, human hands throughout."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

import chess
import pytest

from boardsim.board import VirtualBoard
from boardsim.clock import Dgt3000, Side, TimeControl
from boardsim.generated import steered_game
from boardsim.noise import NoiseModel
from boardsim.pace import (
    BLITZ,
    BUDGET_SHARE,
    HALL,
    LIGHTNING,
    PACES,
    SCRAMBLE,
    TIME_CONTROLS,
    Pace,
    named_pace,
)
from boardsim.performance import ClockSide, Place, PressLever, Step, perform_game, perform_on

MESSY = replace(NoiseModel.messy(), result_gesture=0.0, rotated=0.0)
#: The shortest pause a hand takes before each kind of touch at blitz and lightning pace:
#: a plain touch 0.1 s, a slide's next square 30 ms, a knocked piece's fall 20 ms.
FLOORS = {
    "": 0.1,
    "captured-first": 0.1,
    "castle-rook-first": 0.1,
    "en-passant-captured-first": 0.1,
    "promotion-pawn-lingers": 0.1,
    "adjust": 0.05,
    "slide": 0.03,
    "knock": 0.02,
    "knock-lands-nearby": 0.02,
}


def long_games(count: int, plies: int) -> list[list[chess.Move]]:
    """Steered games of at least ``plies`` plies (the corpus's longest run to 160-178)."""
    games: list[list[chess.Move]] = []
    seed = 0
    while len(games) < count:
        moves = steered_game(random.Random(seed), max_plies=180)
        if len(moves) >= plies:
            games.append(moves)
        seed += 1
    return games


def clock_time_per_ply(steps: list[Step]) -> dict[int, float]:
    """Each ply's time on its player's clock: from the opponent's press to the mover's."""
    spent: dict[int, float] = {}
    for step in steps:
        if step.ply:
            spent[step.ply] = spent.get(step.ply, 0.0) + step.delay
    return spent


def thinking(steps: list[Step]) -> dict[int, float]:
    """Each ply's thinking time: the pause before its first touch."""
    first: dict[int, float] = {}
    for step in steps:
        if step.ply and step.ply not in first:
            first[step.ply] = step.delay
    return first


def test_every_named_pace_comes_with_a_time_control_the_clock_takes() -> None:
    assert set(PACES) == set(TIME_CONTROLS) == {"hall", "blitz", "scramble", "lightning"}
    assert TimeControl.parse(TIME_CONTROLS["lightning"]) == TimeControl(60, 0)
    assert TimeControl.parse(TIME_CONTROLS["blitz"]) == TimeControl(180, 2)
    assert TimeControl.parse(TIME_CONTROLS["scramble"]) == TimeControl(180, 0)
    assert TimeControl.parse(TIME_CONTROLS["hall"]) == TimeControl(5400, 30)
    assert named_pace("hall") == HALL == Pace(1.5, 0.12, 0.5, reaction_seconds=0.2)
    with pytest.raises(ValueError, match="bullet"):
        named_pace("bullet")


@pytest.mark.parametrize(
    ("pace", "think", "touch"),
    [
        (LIGHTNING, (0.15, 0.55), (0.10, 0.20)),
        (BLITZ, (1.5, 4.5), (0.10, 0.20)),
        (HALL, (0.75, 2.25), (0.06, 0.18)),
    ],
)
def test_the_named_paces_draw_from_their_ranges(
    pace: Pace, think: tuple[float, float], touch: tuple[float, float]
) -> None:
    rng = random.Random(7)
    thoughts = [pace.think(rng) for _ in range(2000)]
    touches = [pace.between_touches(rng) for _ in range(2000)]

    assert think[0] - 1e-9 <= min(thoughts) < think[0] + 0.02
    assert think[1] - 0.02 < max(thoughts) <= think[1] + 1e-9
    assert touch[0] - 1e-9 <= min(touches) < touch[0] + 0.01
    assert touch[1] - 0.01 < max(touches) <= touch[1] + 1e-9


def test_a_long_lightning_game_is_played_out_on_g1_without_a_flag() -> None:
    for number, moves in enumerate(long_games(4, 150)):
        clock = Dgt3000(TimeControl.parse(TIME_CONTROLS["lightning"]), ack_delay=(0.0, 0.0))
        board = VirtualBoard(clock=clock, now=0.0)
        steps = list(perform_game(moves, pace=LIGHTNING, rng=random.Random(number), noise=MESSY))

        end = perform_on(board, steps, start=0.0)

        reading = clock.reading(end)
        assert not reading.left.flag_shown
        assert not reading.right.flag_shown
        assert min(clock.remaining_ms(side, end) for side in Side) > 0
        per_ply = clock_time_per_ply(steps)
        assert len(per_ply) == len(moves)
        # Lightning: most plies take 0.3-1 s of the mover's clock, the median well inside.
        assert 0.4 < statistics.median(per_ply.values()) < 0.8
        inside = sum(0.3 <= spent <= 1.0 for spent in per_ply.values())
        assert inside >= 0.9 * len(per_ply)


def test_a_player_short_of_time_thinks_less_but_not_below_the_least() -> None:
    pace = Pace(ply_seconds=2.0, jitter=0.0, game_seconds=10.0, least_think_seconds=0.1)
    budget = 10.0 * BUDGET_SHARE

    def think(ply: int, used: float) -> float:
        return pace.think_for(random.Random(0), ply=ply, plies=10, used=used, handling=0.5)

    assert think(1, used=0.0) == pytest.approx(min(2.0, budget / 5 - 0.5))  # 5 moves left
    assert think(9, used=budget - 1.0) == pytest.approx(0.5)  # 1 move left: 1 s, less 0.5
    assert think(10, used=budget) == pytest.approx(0.1)  # nothing left: the least
    assert Pace(ply_seconds=2.0, jitter=0.0).think_for(
        random.Random(0), ply=10, plies=10, used=1e6, handling=0.5
    ) == pytest.approx(2.0)  # no budget, no hurry


def test_a_blitz_scramble_plays_the_last_twenty_plies_at_lightning_pace() -> None:
    moves = long_games(1, 40)[0][:40]
    steps = list(perform_game(moves, pace=SCRAMBLE, rng=random.Random(3), noise=MESSY))

    thought = thinking(steps)
    assert all(1.5 <= thought[ply] <= 4.5 for ply in range(1, 21)), thought
    assert all(0.15 <= thought[ply] <= 0.55 for ply in range(21, 41)), thought
    assert SCRAMBLE.at_ply(20, 40) is SCRAMBLE
    assert SCRAMBLE.at_ply(21, 40) == replace(LIGHTNING, game_seconds=None)


@pytest.mark.parametrize("pace", [LIGHTNING, SCRAMBLE, BLITZ])
def test_hands_stay_human_at_every_fast_pace(pace: Pace) -> None:
    for number, moves in enumerate(long_games(3, 120)):
        steps = list(perform_game(moves, pace=pace, rng=random.Random(number), noise=MESSY))
        seen: set[int] = set()
        since_touch = 0.0  # a press is the other hand: touches are timed touch to touch
        for step in steps:
            first = step.ply not in seen
            seen.add(step.ply)
            since_touch += step.delay
            if isinstance(step.action, PressLever):
                if step.ply and not step.habit:  # the plain press, a pause after the touch
                    assert step.delay >= 0.1 - 1e-9, (step, number)
                continue
            if step.ply and not first:
                assert since_touch >= FLOORS[step.habit] - 1e-9, (step, number)
            since_touch = 0.0
        assert min(thinking(steps).values()) >= 0.1 - 1e-9
        assert any(step.habit.startswith("press-") for step in steps)  # people's presses


def test_a_messy_capture_takes_a_hand_at_least_a_fifth_of_a_second() -> None:
    board = chess.Board()
    moves = [board.push_san(san) for san in ("e4", "d5", "exd5")]
    noise = NoiseModel(captured_first=1.0)
    for seed in range(20):
        steps = list(perform_game(moves, pace=LIGHTNING, rng=random.Random(seed), noise=noise))

        capture = [step for step in steps if step.ply == 3]
        assert [type(step.action) for step in capture] == [Place, Place, Place, PressLever]
        assert capture[0].habit == "captured-first"
        assert sum(step.delay for step in capture[1:3]) >= 0.2 - 1e-9
        assert capture[3].delay >= 0.1 - 1e-9


def test_faster_divides_the_budget_and_the_scramble_too() -> None:
    fast = SCRAMBLE.faster(2)

    assert fast.game_seconds == pytest.approx(90.0)
    assert fast.least_think_seconds == pytest.approx(0.05)
    assert fast.scramble is not None
    assert fast.scramble.ply_seconds == pytest.approx(LIGHTNING.ply_seconds / 2)
    assert fast.scramble.touch_seconds == pytest.approx(LIGHTNING.touch_seconds / 2)


@pytest.mark.parametrize(
    "bad",
    [
        {"scramble_plies": 10},
        {"game_seconds": 0.0},
        {"touch_jitter": 1.5},
        {"least_think_seconds": -1.0},
    ],
)
def test_impossible_paces_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="pace"):
        Pace(**bad)  # type: ignore[arg-type]


def test_a_mixed_room_alternates_white_s_side_of_the_clock() -> None:
    assert [ClockSide.MIXED.white_side(board) for board in (1, 2, 3, 4)] == [
        Side.LEFT,
        Side.RIGHT,
        Side.LEFT,
        Side.RIGHT,
    ]
    assert {ClockSide.LEFT.white_side(board) for board in (1, 2)} == {Side.LEFT}
    assert {ClockSide.RIGHT.white_side(board) for board in (1, 2)} == {Side.RIGHT}
