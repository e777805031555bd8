"""The DGT 3000 clock, sans I/O: times, bonuses, flags, mode 23, acks and buttons."""

from __future__ import annotations

import random

import pytest

from boardsim.clock import (
    Ack,
    Bonus,
    Button,
    ClockCommand,
    ClockReport,
    Dgt3000,
    FlagFell,
    LeverMoved,
    Refusal,
    RunMode,
    SetnrunApplied,
    SetnrunRefused,
    Side,
    SideReading,
    TimeControl,
)

LEFT, RIGHT = Side.LEFT, Side.RIGHT


def instant_clock(control: TimeControl | None = None, **kwargs: object) -> Dgt3000:
    return Dgt3000(control or TimeControl(600, 5), ack_delay=(0.0, 0.0), **kwargs)  # type: ignore[arg-type]


def seconds(clock: Dgt3000, side: Side, now: float) -> int:
    return clock.side_reading(side, now).total_seconds


def test_a_new_clock_is_stopped_at_the_base_time() -> None:
    clock = instant_clock()

    assert clock.running is None
    assert seconds(clock, LEFT, 100.0) == seconds(clock, RIGHT, 100.0) == 600
    assert not clock.reading(100.0).running


def test_first_press_starts_the_other_side_without_a_bonus() -> None:
    clock = instant_clock()

    events = clock.press(RIGHT, 0.0)

    assert clock.running is LEFT
    assert events == [LeverMoved(RIGHT, SideReading(0, 10, 0, per_move=True))]
    assert seconds(clock, LEFT, 7.0) == 593
    assert seconds(clock, RIGHT, 7.0) == 600


def test_fischer_increment_is_added_on_the_press() -> None:
    clock = instant_clock(TimeControl(600, 5))
    clock.press(RIGHT, 0.0)

    events = clock.press(LEFT, 12.0)

    assert clock.running is RIGHT
    assert clock.remaining_ms(LEFT) == 600_000 - 12_000 + 5_000
    assert events == [LeverMoved(LEFT, SideReading(0, 9, 53, per_move=True))]


def test_bronstein_gives_back_at_most_the_bonus() -> None:
    clock = instant_clock(TimeControl(600, 5, Bonus.BRONSTEIN))
    clock.press(RIGHT, 0.0)
    clock.press(LEFT, 3.0)  # used 3 s: all given back
    clock.press(RIGHT, 20.0)  # used 17 s: 5 given back

    assert clock.remaining_ms(LEFT) == 600_000
    assert clock.remaining_ms(RIGHT) == 600_000 - 12_000


def test_simple_delay_holds_the_time_for_the_delay() -> None:
    clock = instant_clock(TimeControl(600, 5, Bonus.DELAY))
    clock.press(RIGHT, 0.0)

    assert clock.remaining_ms(LEFT, 4.0) == 600_000
    assert clock.remaining_ms(LEFT, 8.0) == 597_000
    clock.press(LEFT, 8.0)
    assert clock.remaining_ms(LEFT) == 597_000  # no time added back


def test_pressing_the_side_that_is_already_down_does_nothing() -> None:
    clock = instant_clock()
    clock.press(RIGHT, 0.0)

    assert clock.press(RIGHT, 5.0) == []
    assert clock.running is LEFT


def test_displayed_seconds_round_up() -> None:
    clock = instant_clock(TimeControl(60, 0))
    clock.press(RIGHT, 0.0)

    assert seconds(clock, LEFT, 0.4) == 60
    assert seconds(clock, LEFT, 1.0) == 59
    assert seconds(clock, LEFT, 59.9) == 1


def test_flag_falls_blocks_the_clock_and_shows_both_flag_bits() -> None:
    clock = instant_clock(TimeControl(60, 2))
    clock.press(RIGHT, 0.0)

    assert clock.next_deadline() == pytest.approx(60.0)
    events = clock.advance(61.0)

    assert events == [FlagFell(LEFT, 60.0)]
    left = clock.side_reading(LEFT)
    assert (left.total_seconds, left.flag_fallen, left.flag_shown) == (0, True, True)
    assert clock.running is None
    assert not clock.reading().running
    clock.press(LEFT, 62.0)  # blocked: the lever moves, the times do not
    assert clock.running is None
    assert clock.remaining_ms(RIGHT, 70.0) == 60_000


def test_a_reset_sets_up_a_new_game_after_a_fallen_flag() -> None:
    clock = instant_clock(TimeControl(60, 2))
    clock.press(RIGHT, 0.0)
    clock.advance(61.0)  # the left flag falls and blocks the clock

    clock.reset(62.0, TimeControl(180, 0))

    assert clock.time_control == TimeControl(180, 0)
    assert clock.running is None
    assert clock.lever_high is RIGHT
    left = clock.side_reading(LEFT, 70.0)
    assert (left.total_seconds, left.flag_fallen, left.flag_shown) == (180, False, False)
    clock.press(RIGHT, 70.0)  # the first press starts the other side again
    assert clock.running is LEFT
    assert seconds(clock, LEFT, 75.0) == 175
    assert seconds(clock, RIGHT, 75.0) == 180


def test_a_stopped_clock_keeps_its_times_and_ignores_the_lever() -> None:
    clock = instant_clock(TimeControl(60, 2))
    clock.press(RIGHT, 0.0)  # White's (left) time runs

    clock.stop(20.0)

    assert clock.running is None
    assert not clock.reading(100.0).running
    assert seconds(clock, LEFT, 100.0) == 40  # no bonus, no flag however long it stands
    assert clock.next_deadline() is None
    clock.press(LEFT, 101.0)
    assert clock.running is None
    clock.reset(102.0)
    clock.press(RIGHT, 103.0)
    assert clock.running is LEFT


def test_a_reset_keeps_the_time_control_unless_given_one() -> None:
    clock = instant_clock(TimeControl(600, 5))
    clock.press(RIGHT, 0.0)
    clock.press(LEFT, 30.0)

    clock.reset(40.0)

    assert clock.time_control == TimeControl(600, 5)
    assert seconds(clock, LEFT, 50.0) == seconds(clock, RIGHT, 50.0) == 600


def test_without_stop_at_flag_only_the_flag_shows() -> None:
    control = TimeControl(60, 0, stop_at_flag=False)
    clock = instant_clock(control)
    clock.press(RIGHT, 0.0)

    clock.advance(61.0)

    left = clock.side_reading(LEFT)
    assert (left.flag_fallen, left.flag_shown) == (False, True)
    clock.press(LEFT, 65.0)
    assert clock.running is RIGHT
    assert clock.remaining_ms(RIGHT, 70.0) == 55_000


def test_next_display_change_is_the_next_whole_second() -> None:
    clock = instant_clock(TimeControl(60, 0))
    clock.press(RIGHT, 0.0)

    change = clock.next_display_change(0.25)

    assert change is not None
    assert change == pytest.approx(1.0, abs=0.001)
    assert seconds(clock, LEFT, change) == 59
    assert clock.next_display_change(0.0) is not None
    stopped = instant_clock()
    assert stopped.next_display_change(0.0) is None


def setnrun(left: tuple[int, int, int], right: tuple[int, int, int], mode: int) -> bytes:
    return bytes((*left, *right, mode))


def test_setnrun_in_mode_23_sets_times_and_runs_the_named_side() -> None:
    clock = instant_clock()

    clock.handle(ClockCommand.SETNRUN, setnrun((1, 0, 0), (0, 30, 15), 0x02 | 0x08), 0.0)

    assert clock.advance(0.0) == [Ack(0x10, 0x0A)]
    assert clock.running is RIGHT
    assert clock.remaining_ms(LEFT, 10.0) == 3_600_000
    assert clock.remaining_ms(RIGHT, 10.0) == 1_815_000 - 10_000


def test_setnrun_with_both_sides_runs_the_side_whose_lever_is_up() -> None:
    clock = instant_clock()
    clock.press(LEFT, 0.0)  # lever up on the right

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 5, 0), 0x0B), 1.0)

    assert clock.running is RIGHT


@pytest.mark.parametrize("mode", [0x04 | 0x03, 0x00])
def test_setnrun_paused_or_with_no_side_stops_the_clock(mode: int) -> None:
    clock = instant_clock()
    clock.press(RIGHT, 0.0)

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 4, 0), mode), 1.0)

    assert clock.running is None
    assert clock.remaining_ms(LEFT, 9.0) == 300_000


def test_setnrun_without_toggle_leaves_the_lever_powerless() -> None:
    clock = instant_clock()
    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 4, 0), 0x01), 0.0)

    clock.press(LEFT, 1.0)

    assert clock.running is LEFT


def test_setnrun_outside_mode_23_is_refused() -> None:
    clock = instant_clock()
    clock.leave_mode23(0.0)
    assert clock.advance(0.0) == [Ack(0x10, 0x90)]

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 4, 0), 0x01), 0.0)

    assert clock.advance(0.0) == [Ack(0x40, 0x0A)]
    assert clock.running is None
    assert clock.remaining_ms(LEFT) == 600_000
    clock.enter_mode23(1.0)
    assert clock.advance(1.0) == [Ack(0x10, 0x8A, 0, 23)]


def test_setnrun_with_an_impossible_time_is_an_error() -> None:
    clock = instant_clock()

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 60, 0), (0, 4, 0), 0x01), 0.0)

    assert clock.advance(0.0) == [Ack(0x40, 0x0A)]
    assert clock.errors


def test_setnrun_clears_a_fallen_flag() -> None:
    clock = instant_clock(TimeControl(60, 0))
    clock.press(RIGHT, 0.0)
    clock.advance(61.0)

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 1, 0), (0, 1, 0), 0x09), 62.0)

    assert not clock.side_reading(LEFT, 62.0).flag_fallen
    assert clock.running is LEFT


# -- what the clock tells its listeners ----------------------------------------------------


def listened(clock: Dgt3000) -> list[ClockReport]:
    heard: list[ClockReport] = []
    clock.listeners.append(heard.append)
    return heard


@pytest.mark.parametrize(
    ("mode", "run"),
    [
        (0x00, RunMode.STOPPED),
        (0x08, RunMode.STOPPED),  # toggle on lever alone runs nothing
        (0x01, RunMode.LEFT),
        (0x09, RunMode.LEFT),
        (0x02, RunMode.RIGHT),
        (0x0A, RunMode.RIGHT),
        (0x03, RunMode.BOTH),
        (0x0B, RunMode.BOTH),
        (0x04, RunMode.PAUSED),
        (0x05, RunMode.PAUSED),  # the pause bit wins over the side bits
        (0x07, RunMode.PAUSED),
        (0x0F, RunMode.PAUSED),
    ],
)
def test_run_mode_names_the_mode_byte(mode: int, run: RunMode) -> None:
    assert RunMode.of_byte(mode) is run
    assert run.counts_down == (run in (RunMode.LEFT, RunMode.RIGHT, RunMode.BOTH))


@pytest.mark.parametrize(
    ("mode", "running"),
    [(0x01, LEFT), (0x02, RIGHT), (0x03, RIGHT), (0x04 | 0x01, None), (0x00, None)],
)
def test_the_run_mode_reported_is_what_the_clock_did(mode: int, running: Side | None) -> None:
    clock = instant_clock()  # lever up on the right: "both" runs the right side
    heard = listened(clock)

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 4, 0), mode), 2.0)

    (applied,) = heard
    assert isinstance(applied, SetnrunApplied)
    assert applied.run.counts_down == (running is not None)
    assert clock.running is running


def test_an_applied_setnrun_is_reported_at_once_with_its_times_and_now() -> None:
    clock = instant_clock()
    heard = listened(clock)

    clock.handle(ClockCommand.SETNRUN, setnrun((1, 0, 0), (0, 30, 15), 0x02 | 0x08), 12.5)

    # Reported when applied, before the ack (which the clock still sends later).
    assert heard == [SetnrunApplied(3600, 1815, RunMode.RIGHT, 12.5)]
    assert clock.advance(12.5) == [Ack(0x10, 0x0A)]
    assert heard == [SetnrunApplied(3600, 1815, RunMode.RIGHT, 12.5)]


def test_every_listener_hears_every_report() -> None:
    clock = instant_clock()
    first, second = listened(clock), listened(clock)

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 0, 0), (0, 0, 9), 0x04), 1.0)

    assert first == second == [SetnrunApplied(0, 9, RunMode.PAUSED, 1.0)]


def test_a_setnrun_outside_mode_23_is_reported_refused_and_changes_nothing() -> None:
    clock = instant_clock()
    clock.leave_mode23(0.0)
    heard = listened(clock)

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 4, 0), 0x01), 3.0)

    assert heard == [SetnrunRefused(Refusal.NOT_MODE23, 3.0)]
    assert clock.running is None
    assert clock.remaining_ms(LEFT) == 600_000


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (setnrun((0, 60, 0), (0, 4, 0), 0x01), Refusal.BAD_TIME),
        (setnrun((0, 5, 0), (10, 0, 0), 0x01), Refusal.BAD_TIME),
        (bytes((0, 5, 0, 0, 4, 0)), Refusal.BAD_LENGTH),
    ],
)
def test_a_setnrun_that_is_not_a_time_is_reported_refused(payload: bytes, reason: Refusal) -> None:
    clock = instant_clock()
    heard = listened(clock)

    clock.handle(ClockCommand.SETNRUN, payload, 4.0)

    assert heard == [SetnrunRefused(reason, 4.0)]
    assert clock.advance(4.0) == [Ack(0x40, 0x0A)]
    assert clock.running is None


def test_other_commands_report_nothing() -> None:
    clock = instant_clock()
    heard = listened(clock)

    clock.handle(ClockCommand.VERSION, b"", 0.0)
    clock.handle(ClockCommand.BEEP, b"", 0.0)  # an error, but not a SETNRUN
    clock.press(RIGHT, 1.0)

    assert heard == []


def test_a_flag_fall_is_reported_with_the_moment_it_fell() -> None:
    clock = instant_clock(TimeControl(60, 0))
    heard = listened(clock)
    clock.handle(ClockCommand.SETNRUN, setnrun((0, 0, 30), (0, 1, 0), 0x01 | 0x08), 5.0)

    clock.advance(40.0)

    assert heard == [SetnrunApplied(30, 60, RunMode.LEFT, 5.0), FlagFell(LEFT, 35.0)]


def test_a_flag_is_reported_when_the_clock_does_not_stop_at_it() -> None:
    clock = instant_clock(TimeControl(60, 0, stop_at_flag=False))
    heard = listened(clock)
    clock.press(RIGHT, 0.0)

    clock.advance(61.0)
    clock.advance(70.0)

    assert heard == [FlagFell(LEFT, 60.0)]


def test_a_listener_may_leave_while_it_is_told() -> None:
    clock = instant_clock()
    heard: list[ClockReport] = []

    def once(report: ClockReport) -> None:
        heard.append(report)
        clock.listeners.remove(once)

    clock.listeners.append(once)
    later = listened(clock)
    for now in (1.0, 2.0):
        clock.handle(ClockCommand.SETNRUN, setnrun((0, 5, 0), (0, 5, 0), 0x00), now)

    assert len(heard) == 1
    assert len(later) == 2


# -- a broken command channel ---------------------------------------------------------------


def test_a_clock_that_ignores_commands_keeps_running_and_acks_nothing() -> None:
    clock = instant_clock()
    heard = listened(clock)
    clock.press(RIGHT, 0.0)  # left runs from 10:00
    clock.ignores_commands = True

    clock.handle(ClockCommand.SETNRUN, setnrun((0, 1, 0), (0, 2, 0), 0x02 | 0x08), 5.0)
    clock.handle(ClockCommand.BEEP, bytes((16,)), 5.0)

    assert clock.advance(30.0) == []
    assert clock.next_deadline() is not None  # the flag is still coming
    assert heard == []
    assert clock.beeps == []
    assert clock.running is LEFT
    assert clock.remaining_ms(LEFT, 30.0) == 570_000
    assert clock.remaining_ms(RIGHT, 30.0) == 600_000
    reading = clock.reading(30.0)
    assert (reading.left.total_seconds, reading.right.total_seconds) == (570, 600)
    assert reading.running

    clock.ignores_commands = False
    clock.handle(ClockCommand.VERSION, b"", 31.0)
    assert clock.advance(31.0) == [Ack(0x10, 0x09, 0x22)]  # nothing owed from before


def test_buttons_still_reach_the_host_while_commands_are_ignored() -> None:
    clock = instant_clock()
    clock.ignores_commands = True

    clock.press_button(Button.OK, 1.0)

    assert clock.advance(1.0) == [Ack(0x10, 0x88, 0x41, 0x35)]


@pytest.mark.parametrize(
    ("command", "payload", "ack"),
    [
        (ClockCommand.DISPLAY, bytes(8), Ack(0x10, 0x01)),
        (ClockCommand.ICONS, bytes(8), Ack(0x10, 0x02)),
        (ClockCommand.END, b"", Ack(0x10, 0x03)),
        (ClockCommand.BUTTON, b"", Ack(0x10, 0x08)),
        (ClockCommand.VERSION, b"", Ack(0x10, 0x09, 0x22)),
        (ClockCommand.BEEP, bytes((16,)), Ack(0x10, 0x0B)),
        (ClockCommand.ASCII, b"HELLO   \x00", Ack(0x10, 0x0C)),
    ],
)
def test_every_command_is_acknowledged(command: int, payload: bytes, ack: Ack) -> None:
    clock = instant_clock()

    clock.handle(command, payload, 0.0)

    assert clock.advance(0.0) == [ack]


def test_ascii_shows_text_until_end_and_beep_is_recorded() -> None:
    clock = instant_clock()

    clock.handle(ClockCommand.ASCII, b"DRAW 1-1\x00", 0.0)
    clock.handle(ClockCommand.BEEP, bytes((16,)), 0.0)
    assert clock.display == "DRAW 1-1"
    assert clock.beeps == [1024]

    clock.handle(ClockCommand.END, b"", 0.0)
    assert clock.display is None


def test_a_wrong_payload_length_is_an_error_ack() -> None:
    clock = instant_clock()

    clock.handle(ClockCommand.BEEP, b"", 0.0)
    clock.handle(0x55, b"", 0.0)

    assert clock.advance(0.0) == [Ack(0x40, 0x0B), Ack(0x40, 0x55)]
    assert len(clock.errors) == 2


def test_acks_come_after_a_seeded_delay_in_command_order() -> None:
    clock = Dgt3000(ack_delay=(0.3, 1.5), rng=random.Random(4))

    clock.handle(ClockCommand.VERSION, b"", 10.0)
    clock.handle(ClockCommand.BUTTON, b"", 10.0)

    assert clock.advance(10.29) == []
    first = clock.next_deadline()
    assert first is not None
    assert 10.3 <= first <= 11.5
    at_first = clock.advance(first)
    assert at_first[0] == Ack(0x10, 0x09, 0x22)
    assert at_first + clock.advance(11.5) == [Ack(0x10, 0x09, 0x22), Ack(0x10, 0x08)]
    assert clock.next_deadline() is None


def test_the_same_seed_gives_the_same_ack_times() -> None:
    times = []
    for _ in range(2):
        clock = Dgt3000(rng=random.Random(9))
        clock.handle(ClockCommand.VERSION, b"", 0.0)
        times.append(clock.next_deadline())

    assert times[0] == times[1]


def test_a_button_press_is_reported_at_once() -> None:
    clock = instant_clock()

    clock.press_button(Button.PLUS, 3.0)

    assert clock.advance(3.0) == [Ack(0x10, 0x88, 0x09, 0x32)]


def test_a_disconnected_clock_ignores_commands_and_says_ready_when_back() -> None:
    clock = instant_clock()
    clock.set_connected(False, 0.0)

    clock.handle(ClockCommand.VERSION, b"", 0.0)
    assert clock.advance(1.0) == []

    clock.set_connected(True, 2.0)
    assert clock.advance(2.0) == [Ack(0x10, 0x81)]


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("90+30", TimeControl(5400, 30, Bonus.FISCHER)),
        ("5d3", TimeControl(300, 3, Bonus.DELAY)),
        ("5b3", TimeControl(300, 3, Bonus.BRONSTEIN)),
        ("60", TimeControl(3600, 0)),
        ("0.5", TimeControl(30, 0)),
    ],
)
def test_time_control_parse(text: str, control: TimeControl) -> None:
    assert TimeControl.parse(text) == control


@pytest.mark.parametrize("text", ["", "90+", "x", "600+0", "0"])
def test_time_control_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match=r"time control|9:59:59"):
        TimeControl.parse(text)
