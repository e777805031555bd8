"""Withdrawals (IECG 6.4, C 9 and E VIII): the score table and the rated games by the share
of games finished, the kind of withdrawal and its sanction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.withdrawal import (
    Ban,
    BanScope,
    BanStart,
    EventGame,
    RatedGame,
    Sanction,
    TableGame,
    WithdrawalError,
    WithdrawalKind,
    classify,
    sanction,
    withdraw,
)
from relay.domain.results import Result

WHITE, BLACK, DRAW, OPEN = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.ONGOING
ME = 1
ANNOUNCED, SILENT = WithdrawalKind.ANNOUNCED, WithdrawalKind.SILENT


def points(games: Iterable[TableGame | RatedGame], player: int) -> float:
    total = 0.0
    for game in games:
        white_points = game.result.white_points
        assert white_points is not None
        total += white_points if game.white == player else 1.0 - white_points
    return total


def test_a_40_percent_withdrawal_forfeits_finished_games_on_the_table_but_rates_them():
    # A double round robin of six players: player 1 has 10 games. He has finished 4 when he
    # withdraws: 4 / 10 = 40%, at most 50%, so 9.B.a: all ten games are forfeited.
    games = [
        EventGame(1, 2, WHITE),  # he won
        EventGame(3, 1, DRAW),
        EventGame(1, 4, BLACK),  # he lost
        EventGame(5, 1, BLACK),  # he won with Black
        EventGame(2, 1, OPEN),
        EventGame(1, 3, OPEN),
        EventGame(4, 1, OPEN),
        EventGame(1, 5, OPEN),
        EventGame(1, 6, OPEN),
        # Player 6 asked for this unfinished game to be adjudicated (E VIII.3): a draw.
        EventGame(6, 1, OPEN, adjudicated=DRAW),
    ]
    withdrawal = withdraw(ME, games)
    assert withdrawal.share_finished == Fraction(2, 5)
    assert withdrawal.all_forfeited
    # The score table: every game a forfeit win for the opponent, the two wins included.
    assert all(game.forfeit for game in withdrawal.table)
    assert [game.result for game in withdrawal.table] == [
        BLACK, WHITE, BLACK, WHITE, WHITE, BLACK, WHITE, BLACK, BLACK, WHITE
    ]  # fmt: skip
    assert points(withdrawal.table, ME) == 0.0
    # The rating run keeps the four real results ("they stay rated in accordance with the
    # actual result"): 1 + 0.5 + 0 + 1 = 2.5 points from 4 games, and the adjudicated
    # draw with player 6; the other five unfinished games are not rated (E VIII.2).
    assert [(g.white, g.black, g.result, g.adjudicated) for g in withdrawal.rated] == [
        (1, 2, WHITE, False),
        (3, 1, DRAW, False),
        (1, 4, BLACK, False),
        (5, 1, BLACK, False),
        (6, 1, DRAW, True),
    ]
    assert points(withdrawal.rated[:4], ME) == 2.5


def test_over_half_finished_keeps_the_results_and_forfeits_the_rest():
    # A seven-player Class tournament: 6 games. 4 finished: 4 / 6 = 67% > 50%, so 9.B.b.
    games = [
        EventGame(1, 2, WHITE),
        EventGame(3, 1, DRAW),
        EventGame(1, 4, DRAW),
        EventGame(5, 1, WHITE),
        EventGame(1, 6, OPEN),
        EventGame(7, 1, OPEN),
    ]
    withdrawal = withdraw(ME, games)
    assert not withdrawal.all_forfeited
    assert withdrawal.table == (
        TableGame(1, 2, WHITE, forfeit=False),
        TableGame(3, 1, DRAW, forfeit=False),
        TableGame(1, 4, DRAW, forfeit=False),
        TableGame(5, 1, WHITE, forfeit=False),
        TableGame(1, 6, BLACK, forfeit=True),
        TableGame(7, 1, WHITE, forfeit=True),
    )
    # 1 + 0.5 + 0.5 + 0 = 2 points on the table, from the finished games.
    assert points(withdrawal.table, ME) == 2.0
    assert [g.result for g in withdrawal.rated] == [WHITE, DRAW, DRAW, WHITE]


def test_exactly_half_finished_forfeits_everything():
    # 3 of 6 finished is 50%: "less or equal 50%" (9.B.a).
    games = [EventGame(1, n, WHITE) for n in (2, 3, 4)] + [EventGame(1, n, OPEN) for n in (5, 6, 7)]
    withdrawal = withdraw(ME, games)
    assert withdrawal.share_finished == Fraction(1, 2)
    assert withdrawal.all_forfeited
    assert points(withdrawal.table, ME) == 0.0
    assert len(withdrawal.rated) == 3


@st.composite
def schedules(draw: st.DrawFn) -> list[EventGame]:
    size = draw(st.integers(min_value=1, max_value=14))
    games = []
    for opponent in range(2, size + 2):
        result = draw(st.sampled_from([WHITE, BLACK, DRAW, OPEN]))
        adjudicated = draw(st.sampled_from([None, WHITE, BLACK, DRAW])) if result is OPEN else None
        pair = (ME, opponent) if draw(st.booleans()) else (opponent, ME)
        games.append(EventGame(*pair, result, adjudicated))
    return games


@given(schedules())
def test_the_table_and_the_rating_run_follow_the_share_finished(games: list[EventGame]):
    withdrawal = withdraw(ME, games)
    finished = [game for game in games if game.result is not OPEN]
    assert withdrawal.all_forfeited == (2 * len(finished) <= len(games))
    forfeits = [game for game in withdrawal.table if game.forfeit]
    assert len(forfeits) == (len(games) if withdrawal.all_forfeited else len(games) - len(finished))
    # Every forfeit is a loss for the withdrawing player.
    assert points(forfeits, ME) == 0.0
    # The rating run: every finished game with its real result, whatever the table says,
    # then the adjudicated ones.
    real = [g.result for g in withdrawal.rated if not g.adjudicated]
    assert real == [game.result for game in finished]
    adjudicated = [game for game in games if game.adjudicated is not None]
    assert sum(g.adjudicated for g in withdrawal.rated) == len(adjudicated)


def test_games_that_cannot_be_used():
    with pytest.raises(WithdrawalError, match="no games"):
        withdraw(ME, [])
    with pytest.raises(WithdrawalError, match="not a game of player 1"):
        withdraw(ME, [EventGame(2, 3, WHITE)])
    with pytest.raises(WithdrawalError, match="only an unfinished game"):
        withdraw(ME, [EventGame(1, 2, WHITE, adjudicated=DRAW)])
    with pytest.raises(WithdrawalError, match="only an unfinished game"):
        withdraw(ME, [EventGame(1, 2, OPEN, adjudicated=OPEN)])


def test_announced_and_silent_withdrawals():
    # 9.A.i: telling the TS, or resigning all remaining games at once, is announced.
    assert classify(informed_secretary=True, resigned_all_at_once=False) is ANNOUNCED
    assert classify(informed_secretary=False, resigned_all_at_once=True) is ANNOUNCED
    # 9.A.ii: abandoning without answering the TS is silent.
    assert classify(informed_secretary=False, resigned_all_at_once=False) is SILENT


def test_a_first_announced_withdrawal_bars_new_events_for_six_months():
    on = date(2002, 8, 31)
    # 9.D.1.a, one event: six months without new events, from the withdrawal.
    alone = sanction(ANNOUNCED, on)
    assert alone == Sanction(
        ANNOUNCED,
        "9.D.1.a",
        Ban(BanScope.NEW_EVENTS, 6, BanStart.WITHDRAWAL),
        withdrawn_from_all=False,
        membership_cancelled=False,
        explanation_required=False,
    )
    assert alone.ban is not None
    # 31 August + 6 months: 31 February does not exist, so the end of February.
    assert alone.ban.ends_on(on) == date(2003, 2, 28)
    # 9.D.1.b, more events: six months from the end of his last finished event, and he
    # explains himself to the Arbiter Commission.
    several = sanction(ANNOUNCED, on, events=3)
    assert several.article == "9.D.1.b"
    assert several.ban == Ban(BanScope.NEW_EVENTS, 6, BanStart.END_OF_LAST_EVENT)
    assert several.explanation_required
    assert several.ban.ends_on(date(2003, 5, 10)) == date(2003, 11, 10)


def test_a_second_announced_withdrawal_within_a_year_suspends_and_withdraws_from_all():
    first = date(2002, 3, 1)
    # One year after 1 March 2002 is 1 March 2003: still "within one year" (9.D.2).
    for second in (date(2002, 9, 1), date(2003, 3, 1)):
        penalty = sanction(ANNOUNCED, second, earlier_announced=[first])
        assert penalty.article == "9.D.2"
        assert penalty.ban == Ban(BanScope.SUSPENSION, 12, BanStart.WITHDRAWAL)
        assert penalty.withdrawn_from_all
        assert penalty.ban.ends_on(second) == date(second.year + 1, second.month, 1)
    # A day later the first is over a year old: a first announced withdrawal again.
    assert sanction(ANNOUNCED, date(2003, 3, 2), earlier_announced=[first]).article == "9.D.1.a"
    # An earlier silent withdrawal does not count as the first announced one.
    assert sanction(ANNOUNCED, date(2002, 9, 1), earlier_silent=1).article == "9.D.1.a"


def test_silent_withdrawals_suspend_then_cancel_the_membership():
    first = sanction(SILENT, date(2002, 5, 1))
    assert first == Sanction(
        SILENT,
        "9.E.1",
        Ban(BanScope.SUSPENSION, 12, BanStart.WITHDRAWAL),
        withdrawn_from_all=True,
        membership_cancelled=False,
        explanation_required=False,
    )
    second = sanction(SILENT, date(2005, 5, 1), earlier_silent=1)
    assert (second.article, second.ban, second.membership_cancelled) == ("9.E.2", None, True)
    assert second.withdrawn_from_all
    # Earlier announced withdrawals do not make a silent one the second.
    assert sanction(SILENT, date(2002, 5, 1), earlier_announced=[date(2002, 1, 1)]) == first


def test_a_history_that_cannot_be_used():
    with pytest.raises(WithdrawalError, match="after this one"):
        sanction(ANNOUNCED, date(2002, 1, 1), earlier_announced=[date(2002, 2, 1)])
    with pytest.raises(WithdrawalError, match="one event at least"):
        sanction(ANNOUNCED, date(2002, 1, 1), events=0)
    with pytest.raises(WithdrawalError, match="below zero"):
        sanction(SILENT, date(2002, 1, 1), earlier_silent=-1)
