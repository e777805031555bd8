"""Time controls: their periods and FIDE class, and the PGN and human forms both ways."""

from __future__ import annotations

import re
from pathlib import Path

import chess.pgn
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.clock.time_control import (
    Bonus,
    GameClass,
    Period,
    TimeControl,
    TimeControlError,
    format_pgn,
    parse_pgn,
)
from relay.domain.clock.written_time_control import (
    format_human,
    parse_human,
    parse_time_control,
)
from tests.data_files import DATA

FISCHER, DELAY, BRONSTEIN = Bonus.FISCHER, Bonus.DELAY, Bonus.BRONSTEIN


def control(*periods: Period) -> TimeControl:
    return TimeControl(periods)


CLASSICAL = control(Period(5400, 40, 30), Period(1800, None, 30))
RAPID_15_10 = control(Period(900, None, 10))


# Strategies


@st.composite
def timed_controls(draw: st.DrawFn) -> TimeControl:
    count = draw(st.integers(min_value=1, max_value=4))
    periods = []
    for index in range(count):
        last = index == count - 1
        moves = st.integers(min_value=1, max_value=60)
        periods.append(
            Period(
                seconds=draw(st.integers(min_value=0, max_value=20_000)),
                moves=draw(st.none() | moves if last else moves),
                bonus_seconds=draw(st.integers(min_value=0, max_value=90)),
                bonus=draw(st.sampled_from(Bonus)),
            )
        )
    if draw(st.booleans()):
        # One bonus from some period on, as most events have it.
        start = draw(st.integers(min_value=0, max_value=count - 1))
        seconds = draw(st.integers(min_value=0, max_value=90))
        kind = draw(st.sampled_from(Bonus))
        periods = [
            Period(p.seconds, p.moves, *((seconds, kind) if i >= start else (0, FISCHER)))
            for i, p in enumerate(periods)
        ]
    return TimeControl(tuple(periods))


time_controls = st.one_of(
    timed_controls(),
    st.just(TimeControl()),
    st.just(TimeControl(known=False)),
    st.integers(min_value=0, max_value=20_000).map(
        lambda seconds: TimeControl((Period(seconds),), sandclock=True)
    ),
)


# The value


@pytest.mark.parametrize(
    "make",
    [
        lambda: Period(-1),
        lambda: Period(60, moves=0),
        lambda: Period(60, bonus_seconds=-1),
        lambda: control(Period(60), Period(60)),
        lambda: control(Period(60, 40), Period(60), Period(60)),
        lambda: TimeControl((Period(60), Period(60)), sandclock=True),
        lambda: TimeControl((Period(60, bonus_seconds=2),), sandclock=True),
        lambda: TimeControl((Period(60, bonus=DELAY),), sandclock=True),
        lambda: TimeControl((Period(60, 40),), sandclock=True),
        lambda: TimeControl(sandclock=True),
        lambda: TimeControl((Period(60),), known=False),
    ],
)
def test_impossible_controls_are_refused(make):
    with pytest.raises(TimeControlError):
        make()


def test_the_error_is_a_value_error():
    assert issubclass(TimeControlError, ValueError)
    with pytest.raises(TimeControlError, match="only the last period"):
        control(Period(5400), Period(1800))


def test_timed_and_starting_seconds():
    assert CLASSICAL.timed
    assert CLASSICAL.starting_seconds == 5400
    assert not TimeControl().timed
    assert TimeControl().starting_seconds == 0
    assert not TimeControl(known=False).timed
    assert TimeControl((Period(180),), sandclock=True).starting_seconds == 180


# Periods


def test_the_second_period_starts_after_move_40():
    first, second = CLASSICAL.periods
    assert CLASSICAL.period_at(1) == (0, first)
    assert CLASSICAL.period_at(40) == (0, first)
    assert CLASSICAL.period_at(41) == (1, second)
    assert CLASSICAL.period_at(500) == (1, second)
    assert [CLASSICAL.time_added_after(n) for n in (1, 39, 40, 41, 80, 500)] == [
        0,
        0,
        1800,
        0,
        0,
        0,
    ]


def test_a_last_period_with_moves_repeats():
    every_40 = parse_pgn("40/7200")
    period = every_40.periods[0]
    assert every_40.period_at(40) == (0, period)
    assert every_40.period_at(41) == (1, period)
    assert every_40.period_at(80) == (1, period)
    assert every_40.period_at(81) == (2, period)
    assert every_40.period_at(401) == (10, period)
    added = {n: every_40.time_added_after(n) for n in range(1, 130)}
    assert {n for n, seconds in added.items() if seconds} == {40, 80, 120}
    assert added[40] == added[80] == 7200


def test_a_repeating_last_period_after_another():
    tc = parse_pgn("40/7200:20/3600")
    second = tc.periods[1]
    assert tc.period_at(41) == (1, second)
    assert tc.period_at(61) == (2, second)
    assert tc.period_at(81) == (3, second)
    assert [tc.time_added_after(n) for n in (40, 60, 80, 81)] == [3600, 3600, 3600, 0]


def test_sudden_death_after_the_last_period():
    tc = parse_pgn("40/7200:20/3600:900+30")
    assert tc.period_at(60) == (1, Period(3600, 20))
    assert tc.period_at(61) == (2, Period(900, None, 30))
    assert tc.period_at(1000) == (2, Period(900, None, 30))
    assert [tc.time_added_after(n) for n in (40, 60, 61, 100, 1000)] == [3600, 900, 0, 0, 0]


def test_one_period_for_the_game_adds_nothing():
    assert all(RAPID_15_10.time_added_after(n) == 0 for n in range(1, 200))
    assert RAPID_15_10.period_at(150) == (0, RAPID_15_10.periods[0])


def test_an_untimed_game_has_no_periods():
    assert TimeControl().time_added_after(40) == 0
    assert TimeControl(known=False).time_added_after(40) == 0
    with pytest.raises(TimeControlError):
        TimeControl().period_at(1)
    with pytest.raises(ValueError, match="from 1"):
        CLASSICAL.period_at(0)


@given(timed_controls(), st.integers(min_value=1, max_value=300))
def test_period_time_arrives_exactly_when_the_index_changes(tc, number):
    index, _ = tc.period_at(number)
    following, period = tc.period_at(number + 1)
    assert following in (index, index + 1)
    assert tc.time_added_after(number) == (period.seconds if following != index else 0)


# Classes (FIDE Laws A.1, B.1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90+30", GameClass.STANDARD),  # 90 min + 60 x 30 s = 120 min
        ("40/5400+30:1800+30", GameClass.STANDARD),
        ("15+10", GameClass.RAPID),  # 15 + 10 = 25 min
        ("10+0", GameClass.BLITZ),  # exactly 10 min is still blitz
        ("10 min + 1 s", GameClass.RAPID),  # 11 min
        ("3+2", GameClass.BLITZ),
        ("50 min + 10 s", GameClass.STANDARD),  # 60 min exactly
        ("45 min + 0", GameClass.RAPID),
        ("G/1", GameClass.BLITZ),
        ("G/55 d5", GameClass.STANDARD),  # a delay counts like an increment: 55 + 5 min
        ("55 min + 5 s Bronstein", GameClass.STANDARD),
        ("59/3000:600", GameClass.STANDARD),  # the second period starts at move 60: counted
        ("60/3000:600", GameClass.RAPID),  # it starts at move 61: not counted
        ("*180", GameClass.BLITZ),
        ("*3600", GameClass.STANDARD),
        ("?", None),
        ("-", None),
    ],
)
def test_classify(text, expected):
    assert parse_time_control(text).classify() is expected


def test_classify_counts_each_repetition_of_a_last_period():
    # 40 moves in 20 min, repeating: 20 min more from move 41, so 40 min for 60 moves.
    assert parse_pgn("40/1200").classify() is GameClass.RAPID
    # 20 min for each 20 moves: periods start at moves 1, 21 and 41 (61 is too late).
    assert parse_pgn("20/1200").classify() is GameClass.STANDARD


def test_python_chess_draws_other_lines():
    # chess/pgn.py parse_time_control: blitz while base + 60 x increment < 15 min, judging
    # the first period only. 10 min + 2 s is 12 min for 60 moves: rapid by FIDE (> 10 min).
    theirs = chess.pgn.parse_time_control("600+2")
    assert theirs.type is chess.pgn.TimeControlType.BLITZ
    assert parse_pgn("600+2").classify() is GameClass.RAPID


@pytest.mark.parametrize(
    ("tc", "lightning"),
    [
        (parse_time_control("G/1"), True),
        (parse_human("1 min"), True),
        (control(Period(30)), True),
        (parse_human("1 min + 1 s"), False),
        (parse_human("2 min"), False),
        (parse_pgn("40/60"), False),
        (parse_pgn("*60"), False),  # a sandclock can give a player more than a minute
        (parse_pgn("60d2"), False),
        (TimeControl(), False),
        (TimeControl(known=False), False),
    ],
)
def test_lightning(tc, lightning):
    assert tc.is_lightning is lightning


# The PGN tag


PGN = [
    ("?", TimeControl(known=False)),
    ("-", TimeControl()),
    ("*180", TimeControl((Period(180),), sandclock=True)),
    ("300", control(Period(300))),
    ("5400+30", control(Period(5400, None, 30))),
    ("0+1", control(Period(0, None, 1))),
    ("40/7200", control(Period(7200, 40))),
    ("40/5400:1800", control(Period(5400, 40), Period(1800))),
    ("40/5400+30:1800+30", CLASSICAL),
    ("40/7200:20/3600:900+30", control(Period(7200, 40), Period(3600, 20), Period(900, None, 30))),
    ("5400d5", control(Period(5400, None, 5, DELAY))),
    ("300b3", control(Period(300, None, 3, BRONSTEIN))),
    (
        "40/7200b10:1800b10",
        control(Period(7200, 40, 10, BRONSTEIN), Period(1800, None, 10, BRONSTEIN)),
    ),
    ("40/7200d5:1800d5", control(Period(7200, 40, 5, DELAY), Period(1800, None, 5, DELAY))),
    ("600d0", control(Period(600, None, 0, DELAY))),  # a zero delay is kept
]


@pytest.mark.parametrize(("text", "tc"), PGN)
def test_pgn_both_ways(text, tc):
    assert parse_pgn(text) == tc
    assert format_pgn(tc) == text


def test_pgn_reads_a_zero_increment_and_writes_it_plainly():
    assert parse_pgn("600+0") == control(Period(600))
    assert format_pgn(parse_pgn("600+0")) == "600"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("40/", "40/"),
        ("+30", "+30"),
        ("?:300", "?"),
        ("300:-", "-"),
        ("*180:300", "*180"),
        ("abc", "abc"),
        ("40/5400+", "40/5400+"),
        ("0/300", "0/300"),
        ("300:40/5400", "300"),  # sudden death before another period
        ("40/5400/30", "40/5400/30"),
        ("40/5400+30:", ""),
        ("*", "*"),
        ("*abc", "*abc"),
        ("-300", "-300"),
        ("300 ", "300 "),
        ("5400x5", "5400x5"),
        ("\u0663\u0660\u0660", "\u0663\u0660\u0660"),  # Arabic-Indic digits are not PGN
    ],
)
def test_bad_pgn_names_the_field(text, field):
    with pytest.raises(TimeControlError, match=re.escape(f"field {field!r}")):
        parse_pgn(text)


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_pgn, "9" * 5000),
        (parse_pgn, "*" + "9" * 5000),
        (parse_human, "9" * 5000 + " min"),
        (parse_human, "9" * 5000 + "+1"),
        (parse_time_control, "9" * 5000 + "+1"),
    ],
)
def test_a_number_beyond_pythons_digit_limit_is_a_time_control_error(parse, text):
    with pytest.raises(TimeControlError, match="too long"):
        parse(text)


def test_empty_pgn():
    with pytest.raises(TimeControlError, match="empty"):
        parse_pgn("")


@given(time_controls)
def test_every_control_survives_pgn(tc):
    assert parse_pgn(format_pgn(tc)) == tc


# What organisers write


HUMAN = [
    ("90 min/40 moves + 30 min + 30 s/move", CLASSICAL),
    ("90 min/40 moves + 30 min", control(Period(5400, 40), Period(1800))),
    ("15 min/game + 10 sec/move", RAPID_15_10),
    ("15 min. + 10 s. per move", RAPID_15_10),
    ("15 minutes + 10 seconds increment per move, starting from move 1", RAPID_15_10),
    ("15 MIN + 10 SEC/MOVE", RAPID_15_10),
    ("  15min+10s/move ", RAPID_15_10),
    ("G/90;d5", control(Period(5400, None, 5, DELAY))),
    ("G/90 d5", control(Period(5400, None, 5, DELAY))),
    ("G/90; d5", control(Period(5400, None, 5, DELAY))),
    ("SD/30 d5", control(Period(1800, None, 5, DELAY))),
    ("G/5", control(Period(300))),
    ("G/120 min", control(Period(7200))),
    ("90+30", control(Period(5400, None, 30))),
    ("3+2", control(Period(180, None, 2))),
    ("10+0", control(Period(600))),
    ("90", control(Period(5400))),
    ("25 min + 10 s", control(Period(1500, None, 10))),
    ("5 min + 3 s Bronstein", control(Period(300, None, 3, BRONSTEIN))),
    ("5 min + 3 s Bronstein delay", control(Period(300, None, 3, BRONSTEIN))),
    ("5 min + 3 s delay", control(Period(300, None, 3, DELAY))),
    ("5 min + 3 s simple delay", control(Period(300, None, 3, DELAY))),
    ("1 min", control(Period(60))),
    ("G/1", control(Period(60))),
    ("90' + 30''", control(Period(5400, None, 30))),
    ("1h30 + 30 s/move", control(Period(5400, None, 30))),
    ("2 hours/40 moves + 1 hour", control(Period(7200, 40), Period(3600))),
    ("40 moves in 2 h, then 20 moves in 1 h, then 15 min", parse_pgn("40/7200:20/3600:900")),
    (
        "40 moves in 90 min, then 30 min for the rest of the game with 30 s increment from move 1",
        CLASSICAL,
    ),
    (
        "90 minutes for the first 40 moves, followed by 30 minutes for the rest of the "
        "game, with an increment of 30 seconds per move starting from move 1",
        CLASSICAL,
    ),
    ("90 min/40 moves + 30 min, 30 s/move from move 41", parse_pgn("40/5400:1800+30")),
    ("90 min/40 moves + 10 s/move, then 30 min + 30 s/move", parse_pgn("40/5400+10:1800+30")),
    ("15 min + 10 s/move from the first move", RAPID_15_10),
    ("sandclock 3 min", parse_pgn("*180")),
    ("3 min hourglass", parse_pgn("*180")),
    ("unknown", TimeControl(known=False)),
    ("?", TimeControl(known=False)),
    ("no time control", TimeControl()),
    ("-", TimeControl()),
]


@pytest.mark.parametrize(("text", "tc"), HUMAN)
def test_human(text, tc):
    assert parse_human(text) == tc


@pytest.mark.parametrize(
    ("tc", "text"),
    [
        (CLASSICAL, "90 min/40 moves + 30 min, 30 s/move from move 1"),
        (parse_pgn("40/5400:1800+30"), "90 min/40 moves + 30 min, 30 s/move from move 41"),
        (control(Period(5400, 40), Period(1800)), "90 min/40 moves + 30 min"),
        (RAPID_15_10, "15 min + 10 s/move"),
        (parse_pgn("5400d5"), "90 min + 5 s delay"),
        (parse_pgn("300b3"), "5 min + 3 s Bronstein"),
        (parse_pgn("40/5400+10:1800+30"), "90 min/40 moves + 10 s/move, then 30 min + 30 s/move"),
        (parse_pgn("90+5"), "1 min 30 s + 5 s/move"),
        (parse_pgn("40/30"), "30 s/40 moves"),
        (parse_pgn("1/600:300"), "10 min/1 move + 5 min"),
        (parse_pgn("*180"), "sandclock 3 min"),
        (TimeControl(), "no time control"),
        (TimeControl(known=False), "unknown"),
    ],
)
def test_format_human(tc, text):
    assert format_human(tc) == text
    assert parse_human(text) == tc


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("abc", "unknown word 'abc'"),
        ("", "empty"),
        ("90 min + 30 min", "only the last period"),
        ("30 s/move", "before any time"),
        ("15 min + 10 s/move from move 7", "no period starts at move 7"),
        ("40 moves", "no time"),
        ("1.5 s", "whole number of seconds"),
        ("90 min + 10 s/move + 5 s delay", "two bonuses"),
        ("15 min/40 moves 20 min", "two times"),
        ("15 min 20 min", "hours to seconds"),
        ("90 min/40 moves + 0", "the number 0 has no unit"),
        ("sandclock 3", "the number"),
        ("15 min/40 moves/30 moves", "two move counts"),
        ("90 min 30", "no unit"),
        ("30 s 1 min", "hours to seconds"),
        ("0 moves in 10 min", "at least 1"),
        ("sandclock 3 min + 2 s", "sandclock"),
        ("15 min from move 1", "belongs to a bonus"),
        ("15 min + 10 s/move, from move", "from move N"),
        ("15 min & 10 s", "unexpected '&'"),
    ],
)
def test_bad_human_text_says_why(text, why):
    with pytest.raises(TimeControlError, match=re.escape(why)):
        parse_human(text)


def test_unreadable_text_shows_forms_that_work():
    with pytest.raises(TimeControlError) as caught:
        parse_human("ninety minutes")
    assert "90 min/40 moves + 30 min + 30 s/move" in str(caught.value)
    assert "G/90; d5" in str(caught.value)


@given(time_controls)
def test_every_control_survives_human_text(tc):
    text = format_human(tc)
    assert parse_human(text) == tc
    assert parse_time_control(text) == tc


# Either


@pytest.mark.parametrize(
    ("text", "tc"),
    [
        ("10+0", control(Period(600))),  # minutes, the players' shorthand
        ("3+2", control(Period(180, None, 2))),
        ("179+0", control(Period(179 * 60))),
        ("10 + 5", control(Period(600, None, 5))),
        ("180+0", control(Period(180))),  # from 180 on, PGN seconds
        ("300+2", control(Period(300, None, 2))),
        ("300 + 2", control(Period(300, None, 2))),
        ("180", control(Period(180))),
        ("60", control(Period(60))),  # a bare number is always PGN seconds: 1 min
        ("40/5400+30:1800+30", CLASSICAL),
        ("*180", parse_pgn("*180")),
        ("?", TimeControl(known=False)),
        ("-", TimeControl()),
        (" 5400d5 ", parse_pgn("5400d5")),
        ("15 min/game + 10 sec/move", RAPID_15_10),
        ("G/90; d5", parse_pgn("5400d5")),
    ],
)
def test_parse_time_control(text, tc):
    assert parse_time_control(text) == tc


def test_parse_time_control_reports_both_readings():
    with pytest.raises(TimeControlError) as caught:
        parse_time_control("40/")
    assert "as PGN" in str(caught.value)
    assert "'40/'" in str(caught.value)


@given(st.text(max_size=40) | st.text(alphabet="0123456789/+:*?-dbG min s moves,;.'", max_size=30))
def test_any_text_gives_a_control_or_the_documented_error(text):
    for parse in (parse_pgn, parse_human, parse_time_control):
        try:
            tc = parse(text)
        except TimeControlError:
            continue
        assert isinstance(tc, TimeControl)


# The tags of real events

EXPECTED_TAGS = {
    "15 min. + 10 s. per move": RAPID_15_10,
    "15 minutes + 10 seconds increment per move, starting from move 1": RAPID_15_10,
    "15 min/game + 10 sec/move": RAPID_15_10,
    "10+0": control(Period(600)),
    "300+2": control(Period(300, None, 2)),
}


def tags_in(path: Path) -> set[str]:
    return set(re.findall(r'^\[TimeControl "([^"]*)"\]', path.read_text("utf-8"), re.MULTILINE))


def test_the_tags_of_real_events():
    paths = [
        DATA / "fide-womens-world-rapid-2024-results.pgn",
        DATA / "real-games.pgn",
        *(DATA / "livechess-export").glob("**/games.pgn"),
    ]
    assert len(paths) > 2
    tags = set().union(*(tags_in(path) for path in paths))
    assert tags == set(EXPECTED_TAGS)
    for tag in tags:
        assert parse_time_control(tag) == EXPECTED_TAGS[tag], tag
