"""Which side of the clock White's is: who pressed, what each observation says, and how the
decision is taken, kept, revised and explained."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.clock.orientation import (
    CLOCK_SIDES,
    REVISE_AFTER,
    Decision,
    Evidence,
    Orientation,
    Press,
    Side,
    before_first_press,
    clock_setting,
    fixed_side,
    mover_side,
    other_side,
    press_of,
    pressed,
    ran,
    started,
)
from relay.domain.game.events import ClockSideDecided
from relay.domain.game.placement import Placement


def after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def shown(*sans: str) -> Placement:
    return Placement.of_board(after(*sans))


# Who pressed


def test_before_the_first_move_a_press_is_black_starting_whites_clock():
    assert press_of(chess.Board(), shown()) == Press(chess.BLACK, 0)


def test_the_board_showing_a_move_more_is_the_player_to_move_completing_it():
    assert press_of(chess.Board(), shown("e4")) == Press(chess.WHITE, 1)
    assert press_of(after("e4"), shown("e4", "c5")) == Press(chess.BLACK, 2)


def test_the_board_showing_the_game_as_decided_is_the_last_mover_pressing():
    assert press_of(after("e4"), shown("e4")) == Press(chess.WHITE, 1)
    assert press_of(after("e4", "c5"), shown("e4", "c5")) == Press(chess.BLACK, 2)


def test_the_game_as_decided_after_the_last_mover_pressed_tells_nothing():
    # At lightning pace the reply's press often comes before the board's sweep shows the
    # reply: the board still shows e4, whose mover pressed already. It was Black pressing.
    assert press_of(after("e4"), shown("e4"), handed_over=True) is None
    assert press_of(after("e4"), shown("e4", "c5"), handed_over=True) == Press(chess.BLACK, 2)
    # Before the first move, a press on a clock already running is White's, the board's
    # sweep not showing e4 yet (or a second press): it tells nothing either.
    assert press_of(chess.Board(), shown(), handed_over=True) is None


def test_two_moves_more_name_the_second_mover_only_when_asked():
    # A record fallen behind (read by the wrong sides before any evidence): the board two
    # plies on, the press is the second mover's.
    assert press_of(after("e4"), shown("e4", "c5", "Nf3"), plies=2) == Press(chess.WHITE, 3)
    assert press_of(chess.Board(), shown("e4", "e5"), plies=2) == Press(chess.BLACK, 2)
    assert press_of(after("e4"), shown("e4", "c5", "Nf3")) is None
    assert press_of(chess.Board(), shown("e4", "e5", "Nf3"), plies=2) is None


def test_a_board_that_explains_nothing_tells_nothing():
    in_the_air = Placement.of_board(chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"))
    assert press_of(chess.Board(), in_the_air) is None
    assert press_of(chess.Board(), shown("e4", "e5")) is None  # two plies: not one press
    assert press_of(chess.Board(), None) is None


# What each observation says


@pytest.mark.parametrize(
    ("side", "player", "white_on"),
    [
        ("left", chess.WHITE, "left"),
        ("right", chess.WHITE, "right"),
        ("left", chess.BLACK, "right"),
        ("right", chess.BLACK, "left"),
    ],
)
def test_a_press_puts_the_presser_on_the_side_pressed(side, player, white_on):
    evidence = pressed(side, Press(player, 3 if player == chess.WHITE else 4))
    assert (evidence.white_on, evidence.strong) == (white_on, True)


def test_a_press_says_why_in_words():
    assert pressed("right", Press(chess.BLACK, 0)).reason == (
        "Black pressed the right side before the first move, starting White's clock"
    )
    assert (
        pressed("left", Press(chess.WHITE, 1)).reason == "White pressed the left side after move 1"
    )
    assert (
        pressed("left", Press(chess.BLACK, 4)).reason == "Black pressed the left side after move 2"
    )


@pytest.mark.parametrize(
    ("side", "ply", "white_on"),
    [("left", 1, "left"), ("right", 1, "right"), ("left", 2, "right"), ("right", 2, "left")],
)
def test_a_move_made_while_a_side_ran_puts_its_mover_there(side, ply, white_on):
    evidence = ran(side, ply)
    assert (evidence.white_on, evidence.strong, evidence.ply) == (white_on, False, ply)


def test_a_clock_started_by_hand_before_the_first_move_runs_whites_side():
    evidence = started("right")
    assert (evidence.white_on, evidence.strong, evidence.ply) == ("right", True, 0)
    orientation = Orientation()
    assert orientation.consider(started("right")) is not None
    # A start seen is strong: one press that says otherwise (misread at lightning pace) is
    # not enough; two in a row are.
    assert orientation.consider(press("left", 1)) is None
    revised = orientation.consider(press("left", 2))
    assert revised is not None
    assert revised.white_on == "left"


def test_a_clock_already_running_when_first_read_gives_way_to_a_press():
    evidence = started("right", seen=False)
    assert (evidence.white_on, evidence.strong) == ("right", False)
    assert evidence.reason == (
        "the clock ran with the right side up when first read, before the first move"
    )
    orientation = Orientation()
    assert orientation.consider(evidence) is not None
    revised = orientation.consider(press("left", 1))  # a press says otherwise: it wins
    assert revised is not None
    assert revised.white_on == "left"


def test_nobody_can_have_pressed_before_the_first_move_is_on_the_board():
    start = chess.Board()
    lifted = Placement.of_board(chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RN1QKBNR"))
    assert before_first_press(start, shown())
    assert before_first_press(start, lifted)  # a player adjusting, or White's hand
    assert before_first_press(start, shown("e4"))  # White moved, not yet pressed
    assert not before_first_press(start, shown("e4"), first_move=False)
    assert before_first_press(start, lifted, first_move=False)
    assert not before_first_press(start, shown("e4", "e5"))  # White pressed: Black moved
    assert not before_first_press(after("e4"), shown("e4"))
    assert not before_first_press(start, None)
    knocked = chess.Board()
    knocked.remove_piece_at(chess.G1)
    knocked.set_piece_at(chess.G3, chess.Piece(chess.KNIGHT, chess.WHITE))
    knocked.set_piece_at(chess.E3, chess.Piece(chess.PAWN, chess.BLACK))
    assert not before_first_press(start, Placement.of_board(knocked))


def test_sides_settings_and_movers():
    assert (other_side("left"), other_side("right")) == ("right", "left")
    assert [fixed_side(s) for s in CLOCK_SIDES] == [None, "left", "right"]
    assert [clock_setting(s) for s in CLOCK_SIDES] == list(CLOCK_SIDES)
    with pytest.raises(ValueError, match="sideways"):
        clock_setting("sideways")
    assert [mover_side(ply, "right") for ply in (1, 2, 3)] == ["right", "left", "right"]


# Deciding


SIDES: tuple[Side, ...] = ("left", "right")


def press(white_on: Side, ply: int) -> Evidence:
    """A press saying White sits on ``white_on``: the mover of ``ply`` pressing their side."""
    player = chess.WHITE if ply % 2 == 1 else chess.BLACK
    side = white_on if player == chess.WHITE else other_side(white_on)
    return pressed(side, Press(player, ply))


def test_until_evidence_comes_white_is_taken_to_sit_on_the_left():
    orientation = Orientation()
    assert (orientation.white_on, orientation.decided, orientation.source) == ("left", False, None)
    assert orientation.side_of(chess.BLACK) == "right"
    assert "not decided" in orientation.explain()
    assert orientation.opening() is None


def test_the_first_press_decides_and_everything_read_before_is_to_be_read_again():
    orientation = Orientation()
    decision = orientation.consider(press("right", 1))
    assert decision == Decision("right", "auto", "White pressed the right side after move 1", 0)
    assert (orientation.white_on, orientation.decided, orientation.source) == (
        "right",
        True,
        "auto",
    )
    assert orientation.explain() == "White on the right: White pressed the right side after move 1"
    assert orientation.consider(press("right", 2)) is None  # agreeing changes nothing


def test_one_press_against_a_decision_from_presses_changes_nothing():
    orientation = Orientation()
    orientation.consider(press("left", 0))
    assert orientation.consider(press("right", 1)) is None
    assert orientation.white_on == "left"
    assert orientation.explain().endswith("(1 press says otherwise)")
    assert orientation.consider(press("left", 2)) is None  # the next press agrees again
    assert orientation.against == 0
    assert orientation.consider(press("right", 3)) is None
    assert orientation.white_on == "left"


def test_two_presses_in_a_row_against_it_revise_it():
    orientation = Orientation()
    orientation.consider(press("left", 0))
    orientation.consider(press("left", 2))
    assert orientation.consider(press("right", 3)) is None
    revised = orientation.consider(press("right", 4))
    # Moves after the last press that agreed (ply 2) were read the wrong way round.
    assert revised == Decision("right", "auto", press("right", 4).reason, 2)
    assert orientation.white_on == "right"
    assert orientation.against == 0
    assert REVISE_AFTER == 2


def test_a_run_decides_only_while_nothing_else_has():
    orientation = Orientation()
    decision = orientation.consider(ran("left", 1))
    assert decision == Decision(
        "left", "auto", "White's move 1 was made while the left side ran", 0
    )
    assert orientation.consider(ran("right", 3)) is None  # runs never revise
    assert orientation.white_on == "left"


def test_the_first_press_against_a_decision_from_a_run_revises_it():
    orientation = Orientation()
    orientation.consider(ran("left", 1))
    revised = orientation.consider(press("right", 1))
    assert revised is not None
    assert (revised.white_on, revised.since_ply) == ("right", 0)
    # From then on the decision rests on a press: one press against it is not enough.
    assert orientation.consider(press("left", 2)) is None
    assert orientation.white_on == "right"


def test_a_press_agreeing_with_a_run_makes_the_decision_a_press_decision():
    orientation = Orientation()
    orientation.consider(ran("left", 1))
    assert orientation.consider(press("left", 2)) is None
    assert orientation.consider(press("right", 3)) is None
    assert orientation.white_on == "left"


@pytest.mark.parametrize(("setting", "side"), [("white-left", "left"), ("white-right", "right")])
def test_a_fixed_setting_is_never_revised(setting: str, side: Side) -> None:
    orientation = Orientation(clock_setting(setting))
    assert (orientation.white_on, orientation.source) == (side, "setting")
    assert orientation.decided
    for ply in range(1, 8):
        assert orientation.consider(press(other_side(side), ply)) is None
        assert orientation.consider(ran(mover_side(ply, other_side(side)), ply)) is None
    assert orientation.white_on == side
    assert orientation.explain() == (
        f"White on the {side}: the board's clock setting is {setting} "
        "(7 presses in a row say otherwise)"
    )


def test_a_fixed_setting_is_recorded_once_per_game():
    opening = Orientation("white-right").opening()
    assert opening == Decision("right", "setting", "the board's clock setting is white-right", 0)
    recorded = ClockSideDecided("right", "setting", opening.reason, 1.0)
    assert Orientation("white-right", recorded=recorded, ply=12).opening() is None
    auto = ClockSideDecided("right", "auto", "White pressed the right side after move 1", 1.0)
    assert Orientation("white-right", recorded=auto).opening() is not None
    assert Orientation("white-left", recorded=recorded).white_on == "left"


def test_a_restarted_hub_goes_on_from_the_recorded_decision():
    recorded = ClockSideDecided("right", "auto", "White pressed the right side after move 1", 1.0)
    orientation = Orientation(recorded=recorded, ply=20)
    assert (orientation.white_on, orientation.decided, orientation.reason) == (
        "right",
        True,
        recorded.reason,
    )
    assert orientation.opening() is None
    assert orientation.consider(press("left", 21)) is None  # as firm as a press
    revised = orientation.consider(press("left", 22))
    assert revised is not None
    assert revised.since_ply == 20


def test_the_operator_changes_the_setting():
    orientation = Orientation()
    orientation.consider(press("left", 0))
    orientation.consider(press("left", 4))
    assert orientation.set("white-right") == Decision(
        "right", "setting", "the board's clock setting is white-right", 4
    )
    assert orientation.set("white-right") is None
    back = orientation.set("auto")
    assert back is not None
    assert (back.white_on, back.source) == ("right", "auto")
    assert orientation.consider(press("left", 6)) is None  # kept as firmly as a press
    assert orientation.white_on == "right"
    assert Orientation().set("auto") is None


def test_setting_the_side_already_decided_records_where_it_now_comes_from():
    orientation = Orientation()
    orientation.consider(press("right", 1))
    decision = orientation.set("white-right")
    assert decision is not None
    assert decision.source == "setting"


# Properties

evidence_lists = st.lists(st.tuples(st.sampled_from(SIDES), st.booleans()), min_size=1, max_size=30)


def observations(items: list[tuple[Side, bool]]) -> list[Evidence]:
    """Presses (``True``) and runs, one per ply, each saying White sits on its side."""
    out = []
    for ply, (white_on, strong) in enumerate(items, start=1):
        out.append(press(white_on, ply) if strong else ran(mover_side(ply, white_on), ply))
    return out


@given(evidence_lists, st.sampled_from(["white-left", "white-right"]))
def test_no_evidence_moves_a_fixed_setting(items, setting):
    orientation = Orientation(setting)
    for evidence in observations(items):
        assert orientation.consider(evidence) is None
    assert orientation.white_on == fixed_side(setting)


@given(evidence_lists)
def test_every_decision_changes_the_side_or_is_the_first(items):
    orientation = Orientation()
    sides: list[str] = []
    for evidence in observations(items):
        decision = orientation.consider(evidence)
        if decision is not None:
            assert not sides or decision.white_on != sides[-1]
            sides.append(decision.white_on)
        assert orientation.white_on == (sides[-1] if sides else "left")
    assert orientation.decided


@given(evidence_lists)
def test_presses_in_a_row_have_the_last_word(items):
    orientation = Orientation()
    evidence = observations(items)
    for item in evidence:
        orientation.consider(item)
    last = [e for e in evidence if e.strong][-REVISE_AFTER:]
    if len(last) == REVISE_AFTER and len({e.white_on for e in last}) == 1:
        assert orientation.white_on == last[0].white_on


@given(evidence_lists, st.sampled_from(SIDES))
def test_a_lone_contrary_press_never_turns_a_decision_from_presses(items, side):
    orientation = Orientation()
    orientation.consider(press(side, 1))
    ply = 2
    for _, contrary in items:
        orientation.consider(press(other_side(side) if contrary else side, ply))
        orientation.consider(press(side, ply + 1))  # and then a press that agrees
        ply += 2
    assert orientation.white_on == side
