"""The IECG rating run by period (seed 000 section E), with worked examples computed by hand
from the rules' words, and properties every run keeps."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.rating_run import (
    RATING_LIST_FIELDS,
    FinishedGame,
    Indicator,
    ListEntry,
    Period,
    PlayerRecord,
    RatingRun,
    period_of,
    rate_period,
    rating_class,
    rating_list,
    rating_list_csv,
    safe_cell,
)
from relay.domain.errors import InvalidInputError
from relay.domain.results import Result
from relay.domain.tournament.ratings import RatingError

WIN, DRAW, LOSS = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


def established(number: str, rating: int, *, games: int = 100, **fields: int) -> PlayerRecord:
    """An established player with ``games`` rated games (all draws: only the count
    matters to k)."""
    return PlayerRecord(
        number, f"Player {number}", "DE", rating=rating, established=True, draws=games, **fields
    )


def new(number: str) -> PlayerRecord:
    """A new player without any other rating: starting rating 800 (E.VII.3)."""
    return PlayerRecord(number, f"Player {number}", "NL")


def games(white: str, black: str, results: list[Result], period: Period) -> list[FinishedGame]:
    """Games of ``white`` against ``black`` (colours do not matter to the rating), each
    finished on the period's first day."""
    return [FinishedGame(period.start, white, black, result) for result in results]


def by_number(run: RatingRun) -> dict[str, PlayerRecord]:
    return {record.number: record for record in run.players}


def entry(run: RatingRun, number: str) -> ListEntry:
    (found,) = (e for e in run.rating_list if e.number == number)
    return found


# --- Periods ------------------------------------------------------------------------------


def test_periods_are_two_months_from_january() -> None:
    # E.II.1: "The Rating Period is 2 months. The first period of a year starts on
    # January 1st": Jan-Feb is period 1, Mar-Apr 2, ..., Nov-Dec 6.
    assert period_of(dt.date(2024, 1, 1)) == Period(2024, 1)
    assert period_of(dt.date(2024, 2, 29)) == Period(2024, 1)
    assert period_of(dt.date(2024, 3, 1)) == Period(2024, 2)
    assert period_of(dt.date(2024, 8, 31)) == Period(2024, 4)
    assert period_of(dt.date(2024, 12, 31)) == Period(2024, 6)
    assert Period(2024, 1).start == dt.date(2024, 1, 1)
    assert Period(2024, 1).end == dt.date(2024, 2, 29)  # a leap year
    assert Period(2023, 1).end == dt.date(2023, 2, 28)
    assert Period(2024, 6).end == dt.date(2024, 12, 31)
    assert Period(2024, 1) < Period(2024, 2) < Period(2025, 1)


def test_run_date_is_the_first_saturday_after_the_period() -> None:
    # E.II.2: the list is published "on the first weekend of every second month".
    # 1 March 2024 is a Friday: the run is on Saturday 2 March.
    assert Period(2024, 1).run_date == dt.date(2024, 3, 2)
    # 1 September 2024 is a Sunday: the first whole weekend starts on Saturday 7 September.
    assert Period(2024, 4).run_date == dt.date(2024, 9, 7)
    # After November-December, the run is in January of the next year: 1 January 2025 is
    # a Wednesday, so Saturday 4 January.
    assert Period(2024, 6).run_date == dt.date(2025, 1, 4)


@pytest.mark.parametrize("index", [0, 7])
def test_a_year_has_six_periods(index: int) -> None:
    with pytest.raises(RatingError, match="1 to 6"):
        Period(2024, index)


# --- Provisional players ------------------------------------------------------------------


def test_provisional_player_published_at_six_and_established_at_fifteen() -> None:
    p1, p2, p3 = Period(2024, 1), Period(2024, 2), Period(2024, 3)
    players = [new("P"), established("O1", 1000), established("O2", 1100),
               established("O3", 1500)]  # fmt: skip

    # Period 1: P (starting rating 800, E.VII.3) plays O1 four times: 2 wins, 2 losses.
    # O1 is within 400 of P's TER 800, so counts as 1000. Four games: no rating is
    # published (E.III.3: not "until at least six games"); the TER stays 800.
    run = rate_period(players, games("P", "O1", [WIN, WIN, LOSS, LOSS], p1), p1)
    p = by_number(run)["P"]
    assert (p.rating, p.ter, p.games, p.opponents_total) == (None, 800, 4, 4000)
    assert p.indicator is Indicator.TER
    assert (entry(run, "P").rating, entry(run, "P").ter) == (None, 800)
    # O1, established 1000 with 100 games: k = r x p = 20 x 1 (E.V.3); O1 met P's TER 800:
    # We = 1 / (1 + 10^(-200/400)) = 0.759747 each, so 20 x (2 - 4 x 0.759747) = -20.78,
    # and 1000 - 20.78 = 979.22 is listed as 979.
    assert by_number(run)["O1"].rating == 979

    # Period 2: six games against O2 (1100, within 400 of 800): 3 wins, 3 losses. Ten
    # games now, 5 wins 5 losses: p = 0.5, D(0.5) = 0, so Rp = Rc = (4 x 1000 + 6 x 1100)
    # / 10 = 1060 (E.IV.1). Published (six games or more), and with ten games finished the
    # TER is the provisional rating (E.III.7). Still provisional: under 15 games.
    run = rate_period(run.players, games("P", "O2", [WIN, LOSS] * 3, p2), p2)
    p = by_number(run)["P"]
    assert (p.rating, p.ter, p.games, p.established) == (1060, 1060, 10, False)
    assert entry(run, "P").indicator is Indicator.PROVISIONAL

    # Period 3: six games against O3 (1500): 3 wins, 3 losses. P's TER on the run's day is
    # 1060, and 1500 is 440 above it: the cut-off counts O3 as 1060 + 400 = 1460 (E.III.8).
    # The 15th game falls inside the period; all 16 count for the provisional rating and
    # the promotion comes at the period's end (E.IV.3): Rc = (10600 + 6 x 1460) / 16 =
    # 19360 / 16 = 1210, p = 0.5, so 1210, now established.
    run = rate_period(run.players, games("P", "O3", [WIN, LOSS] * 3, p3), p3)
    p = by_number(run)["P"]
    assert (p.rating, p.ter, p.games, p.established) == (1210, 1210, 16, True)
    assert (p.wins, p.draws, p.losses) == (8, 0, 8)
    assert entry(run, "P").indicator is Indicator.ESTABLISHED


def test_first_fifteen_games_bonus_over_75_percent() -> None:
    # A new player (TER 800) wins six games against O (1000, within the cut-off). p = 1:
    # D(1) = 800 and F = -2 + 2 + 0.5 = 0.5 (E.IV.1); more than 75 % in the first 15
    # games adds (2600 - Rc) x p² / 10 = (2600 - 1000) / 10 = 160 (E.IV.4):
    # Rp = 1000 + 800 x 0.5 + 160 = 1560.
    period = Period(2024, 1)
    run = rate_period([new("N"), established("O", 1000)], games("N", "O", [WIN] * 6, period),
                      period)  # fmt: skip
    assert by_number(run)["N"].rating == 1560
    # O lost six games to a TER of 800: 6 x 20 x (0 - 0.759747) = -91.17; 908.83 -> 909.
    assert by_number(run)["O"].rating == 909


def test_exactly_75_percent_earns_no_first_fifteen_bonus() -> None:
    # 4 wins, 1 draw, 1 loss: p = 4.5 / 6 = 0.75, not "more than 75 %". D(0.75) =
    # -400 log10(0.25 / 0.75) = 400 log10(3) = 190.85; F = -2 x 0.5625 + 1.5 + 0.5 = 0.875;
    # Rp = 1000 + 190.85 x 0.875 = 1166.99, listed as 1167.
    period = Period(2024, 1)
    results = [WIN, WIN, WIN, WIN, DRAW, LOSS]
    run = rate_period([new("N"), established("O", 1000)], games("N", "O", results, period),
                      period)  # fmt: skip
    assert by_number(run)["N"].rating == 1167


# --- Established players --------------------------------------------------------------------


def test_established_bonus_for_over_75_percent_from_six_games() -> None:
    # E 2000 with 100 games: k = 20 x 1 = 20. Six wins against 2000: dR = 20 x (1 - 0.5) =
    # 10 each, 60 in all. More than 75 % out of at least six games in one period (E.V.5):
    # + (1000 - Ro + Rc + D(p)) / 20 = (1000 - 2000 + 2000 + 800) / 20 = 90. Rn = 2150.
    period = Period(2024, 1)
    players = [established("E", 2000), established("X", 2000)]
    run = rate_period(players, games("E", "X", [WIN] * 6, period), period)
    assert by_number(run)["E"].rating == 2150
    assert by_number(run)["X"].rating == 2000 - 60  # no bonus for 0 %
    # Five wins are not "at least six games": 2000 + 5 x 10 = 2050, no bonus.
    run = rate_period(players, games("E", "X", [WIN] * 5, period), period)
    assert by_number(run)["E"].rating == 2050


def test_established_cut_off() -> None:
    # E 2000 (k = 20) draws with X 2600 (k = r x p = 10 x 1). For E, X is 600 above and
    # counts as 2400 (E.III.8): We = 1 / (1 + 10^(400/400)) = 1/11; 20 x (0.5 - 1/11) =
    # 8.18, so 2008 (without the cut-off We = 0.0307 would give 2009). For X, E counts as
    # 2200: We = 10/11; 10 x (0.5 - 10/11) = -4.09, so 2595.91, listed as 2596.
    period = Period(2024, 1)
    players = [established("E", 2000), established("X", 2600)]
    run = rate_period(players, games("E", "X", [DRAW], period), period)
    assert by_number(run)["E"].rating == 2008
    assert by_number(run)["X"].rating == 2596


# --- Forfeits, withdrawals, inactive players -------------------------------------------------


def test_withdrawal_is_not_rated_and_adjudication_rates_one_side() -> None:
    # W withdrew: three games against R are not rated (E.VIII.2), yet both played in the
    # period (E.VIII.4). R asked for an adjudication of a fourth (E.VIII.3), adjudicated a
    # draw: rated for R alone. R 1800 (k = 20) against W's TER 1600: We = 0.759747, so
    # 20 x (0.5 - 0.759747) = -5.19 and R drops to 1794.81, listed as 1795.
    day = dt.date(2024, 5, 10)
    players = [established("W", 1600, inactive_periods=3), established("R", 1800)]
    withdrawn = [FinishedGame(day, "W", "R", LOSS, rated=False) for _ in range(3)]
    adjudicated = FinishedGame(day, "R", "W", DRAW, rated=False, adjudicated_for="R")
    run = rate_period(players, [*withdrawn, adjudicated], Period(2024, 3))
    w, r = by_number(run)["W"], by_number(run)["R"]
    assert (w.rating, w.games, w.inactive_periods) == (1600, 100, 0)
    assert (r.rating, r.games, r.draws) == (1795, 101, 101)
    # Unrated throughout: nothing changes but the activity.
    run = rate_period(players, withdrawn, Period(2024, 3))
    assert by_number(run)["R"] == established("R", 1800)


def test_forfeit_by_arbiter_decision_is_rated_as_a_normal_game() -> None:
    # E.VIII.1: a win on time is rated like any win: 20 x (1 - 0.5) = 10 for the winner.
    period = Period(2024, 1)
    players = [established("A", 1500), established("B", 1500)]
    run = rate_period(players, games("A", "B", [WIN], period), period)
    assert (by_number(run)["A"].rating, by_number(run)["B"].rating) == (1510, 1490)


def test_inactive_player_drops_off_the_list_after_a_year() -> None:
    # E.VIII.4-5: no game in a period makes a player inactive; after one year (six periods)
    # they leave the list, but the rating stays in the database and is used again.
    players = [established("I", 1700)]
    for index in range(1, 6):
        run = rate_period(players, [], Period(2024, index))
        players = list(run.players)
        assert [e.number for e in run.rating_list] == ["I"]
        assert players[0].inactive_periods == index
    run = rate_period(players, [], Period(2024, 6))
    assert run.rating_list == ()
    assert run.players == (established("I", 1700, inactive_periods=6),)
    # Back with a game in progress (E.VIII.6): listed again with the old rating.
    run = rate_period(run.players, [], Period(2025, 1), playing=["I"])
    assert [(e.number, e.rating) for e in run.rating_list] == [("I", 1700)]


def test_player_deleted_from_database_after_five_inactive_years() -> None:
    # E.VIII.5: the rating "keeps valid for another four years": 6 + 24 = 30 periods.
    players = [established("I", 1700, inactive_periods=28)]
    run = rate_period(players, [], Period(2024, 1))
    assert run.players[0].inactive_periods == 29
    assert rate_period(run.players, [], Period(2024, 2)).players == ()


# --- The list --------------------------------------------------------------------------------


def test_list_positions_classes_and_indicators() -> None:
    players = [
        established("A", 2250),
        established("B", 2250),
        # Provisional with 7 games: rating 1900 shown, TER still the starting 800 (class N).
        PlayerRecord("C", "C", "FR", wins=7, rating=1900, opponents_total=7 * 1500),
        PlayerRecord("D", "D", "FR", starting=1200),  # no games: only a TER
        established("E", 1850),
        # Provisional with 12 games: the TER is the provisional rating (class B).
        PlayerRecord("F", "F", "FR", wins=12, rating=1850, opponents_total=12 * 1500),
    ]
    listed = [
        (e.position, e.class_position, e.rating_class, e.number, e.rating, e.ter, e.indicator)
        for e in rating_list(reversed(players))
    ]
    assert listed == [
        (1, 1, "M", "A", 2250, 2250, Indicator.ESTABLISHED),
        (1, 1, "M", "B", 2250, 2250, Indicator.ESTABLISHED),
        (3, 1, "N", "C", 1900, 800, Indicator.PROVISIONAL),
        (4, 1, "B", "E", 1850, 1850, Indicator.ESTABLISHED),
        (4, 1, "B", "F", 1850, 1850, Indicator.PROVISIONAL),
        (6, 1, "E", "D", None, 1200, Indicator.TER),
    ]


@pytest.mark.parametrize(
    ("ter", "name"),
    [(2200, "M"), (2199, "A"), (2000, "A"), (1800, "B"), (1799, "C"), (1400, "D"),
     (1200, "E"), (1000, "F"), (999, "N"), (0, "N")],
)  # fmt: skip
def test_rating_classes(ter: int, name: str) -> None:
    # Seed 000 D.2.4.a: M 2200 and higher, A 2000-2199, ... F 1000-1199, N 999 and lower.
    assert rating_class(ter) == name


def test_csv_has_the_fields_and_neutralises_formulas() -> None:
    players = [
        PlayerRecord("1", '=HYPERLINK("x")', "+44", rating=2000, established=True, wins=20),
        PlayerRecord("2", "-Smith", "@home"),
    ]
    text = rating_list_csv(rating_list(players))
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(RATING_LIST_FIELDS)
    assert rows[1] == ["1", "1", "A", "1", "'=HYPERLINK(\"x\")", "+44", "2000", "2000", "20",
                       "20", "0", "0", "E"]  # fmt: skip
    assert rows[2] == ["2", "1", "N", "2", "'-Smith", "'@home", "", "800", "0", "0", "0", "0",
                       "T"]  # fmt: skip
    assert text.endswith("\r\n")


@pytest.mark.parametrize(
    ("cell", "safe"),
    [("=1+1", "'=1+1"), ("+A1", "'+A1"), ("-A1", "'-A1"), ("@SUM", "'@SUM"), ("-12", "-12"),
     ("+3.5", "+3.5"), ("Ann", "Ann"), ("", "")],
)  # fmt: skip
def test_safe_cell(cell: str, safe: str) -> None:
    assert safe_cell(cell) == safe


# --- Refusals ------------------------------------------------------------------------------


def test_refused_input() -> None:
    period = Period(2024, 1)
    day = period.start
    players = [established("A", 1500), established("B", 1500)]
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: rate_period(players, [FinishedGame(day, "A", "Z", WIN)], period), "Z"),
        (lambda: rate_period(players, [FinishedGame(dt.date(2024, 3, 1), "A", "B", WIN)],
                             period), "not in the period"),
        (lambda: rate_period([*players, players[0]], [], period), "twice"),
        (lambda: rate_period(players, [], period, playing=["Q"]), "Q"),
        (lambda: FinishedGame(day, "A", "A", WIN), "themselves"),
        (lambda: FinishedGame(day, "A", "B", Result.ONGOING), "not finished"),
        (lambda: FinishedGame(day, "A", "B", WIN, adjudicated_for="A"), "adjudication"),
        (lambda: FinishedGame(day, "A", "B", WIN, rated=False, adjudicated_for="C"),
         "adjudication"),
        (lambda: PlayerRecord("X", "X", "DE", established=True), "needs a rating"),
        (lambda: PlayerRecord("X", "X", "DE", wins=5, rating=900), "6 games"),
        (lambda: PlayerRecord("X", "X", "DE", wins=6), "6 games"),
        (lambda: PlayerRecord("X", "X", "DE", wins=15, rating=900), "established"),
        (lambda: PlayerRecord("X", "X", "DE", losses=-1), "below zero"),
    ]  # fmt: skip
    for make, words in cases:
        with pytest.raises(RatingError, match=words) as caught:
            make()
        assert isinstance(caught.value, InvalidInputError)


# --- Properties ------------------------------------------------------------------------------

NUMBERS = [f"m{i}" for i in range(6)]
Case = tuple[list[PlayerRecord], list[FinishedGame], Period]


@st.composite
def records(draw: st.DrawFn, number: str) -> PlayerRecord:
    if draw(st.booleans()):
        return established(number, draw(st.integers(600, 2700)), games=draw(st.integers(15, 120)))
    wins, draws = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    starting = draw(st.integers(800, 2000))
    rating = draw(st.integers(600, 2700)) if wins + draws >= 6 else None
    return PlayerRecord(number, number, "DE", starting=starting, rating=rating, wins=wins,
                        draws=draws, opponents_total=(wins + draws) * starting)  # fmt: skip


@st.composite
def a_period(draw: st.DrawFn) -> Case:
    period = Period(2024, draw(st.integers(1, 6)))
    players = [draw(records(number)) for number in NUMBERS]
    pairs = st.lists(st.sampled_from(NUMBERS), min_size=2, max_size=2, unique=True)
    played = draw(st.lists(
        st.builds(
            lambda pair, result, rated, offset: FinishedGame(
                period.start + dt.timedelta(days=offset), pair[0], pair[1], result, rated
            ),
            pairs, st.sampled_from([WIN, DRAW, LOSS]), st.booleans(), st.integers(0, 58),
        ),
        max_size=30,
    ))  # fmt: skip
    return players, played, period


@given(a_period(), st.randoms(use_true_random=False))
def test_run_does_not_depend_on_input_order(case: Case, random: Random) -> None:
    players, played, period = case
    shuffled_players, shuffled_games = list(players), list(played)
    random.shuffle(shuffled_players)
    random.shuffle(shuffled_games)
    assert rate_period(shuffled_players, shuffled_games, period) == rate_period(
        players, played, period
    )


@given(a_period())
def test_ratings_stay_finite_and_games_are_counted(case: Case) -> None:
    players, played, period = case
    run = rate_period(players, played, period)
    assert [r.number for r in run.players] == NUMBERS
    for record in run.players:
        assert record.rating is None or 0 <= record.rating <= 4000
    rated = sum(game.rated for game in played)
    assert sum(r.games for r in run.players) == sum(r.games for r in players) + 2 * rated
    shown = [e.rating if e.rating is not None else e.ter for e in run.rating_list]
    assert shown == sorted(shown, reverse=True)
    assert [e.position for e in run.rating_list] == sorted(e.position for e in run.rating_list)
