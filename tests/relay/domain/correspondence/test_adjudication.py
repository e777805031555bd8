"""The global time limit (IECG 6.4, C 15) and the adjudication of unfinished games (C 10,
C 11), step by step with the 14-day deadlines."""

from __future__ import annotations

from datetime import date, timedelta

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.correspondence.adjudication import (
    Adjudication,
    AdjudicationError,
    Claim,
    Fate,
    InvalidClaimError,
    MissedDeadlineError,
    Stage,
    TournamentFormat,
    close_of_play,
    consult,
    limit_elapsed,
    months_after,
)
from relay.domain.results import Result

W, B = chess.WHITE, chess.BLACK
ANALYSIS = "34.Rxd5 exd5 35.Qe8+ Kh7 36.Qxe5 wins a second pawn"
STARTED = date(2002, 1, 15)  # a Class tournament: 18 months, so play closes 15 July 2003
CLOSE = date(2003, 7, 15)


def referred(on: date = date(2003, 7, 18)) -> Adjudication:
    """Asked on 16 July 2003; White wants to go on, Black does not: adjudication from
    ``on``."""
    asked = Adjudication.ask(TournamentFormat.CLASS, STARTED, date(2003, 7, 16))
    return asked.answer(white_agrees=True, black_agrees=False, on=on)


def test_the_global_limit_is_one_year_or_eighteen_months():
    # 15.A: two-game matches and Rapid Class Tournaments, one year.
    assert close_of_play(TournamentFormat.TWO_GAME_MATCH, STARTED) == date(2003, 1, 15)
    assert close_of_play(TournamentFormat.RAPID_CLASS, STARTED) == date(2003, 1, 15)
    # 15.B: Team, Quads, Thematics, Class and Large tournaments, 18 months.
    for kind in (
        TournamentFormat.TEAM,
        TournamentFormat.QUAD,
        TournamentFormat.THEMATIC,
        TournamentFormat.CLASS,
    ):
        assert close_of_play(kind, STARTED) == CLOSE
    # 31 August 2002 + 18 months is 31 February 2004, which does not exist: the 29th (leap).
    assert close_of_play(TournamentFormat.LARGE, date(2002, 8, 31)) == date(2004, 2, 29)
    assert not limit_elapsed(TournamentFormat.CLASS, STARTED, CLOSE - timedelta(days=1))
    assert limit_elapsed(TournamentFormat.CLASS, STARTED, CLOSE)


@given(
    start=st.dates(min_value=date(1995, 1, 1), max_value=date(2100, 12, 31)),
    months=st.integers(min_value=0, max_value=36),
)
def test_months_after_lands_on_the_same_day_or_the_month_end(start: date, months: int):
    end = months_after(start, months)
    assert (end.year - start.year) * 12 + end.month - start.month == months
    if end.day != start.day:
        assert end.day < start.day
        assert (end + timedelta(days=1)).day == 1  # the last day of its month


def test_an_unfinished_game_continues_only_if_both_players_agree():
    assert consult(white_agrees=True, black_agrees=True) is Fate.CONTINUED
    assert consult(white_agrees=True, black_agrees=False) is Fate.ADJUDICATED
    assert consult(white_agrees=False, black_agrees=True) is Fate.ADJUDICATED
    assert consult(white_agrees=False, black_agrees=False) is Fate.ADJUDICATED
    asked = Adjudication.ask(TournamentFormat.CLASS, STARTED, CLOSE)
    continued = asked.answer(white_agrees=True, black_agrees=True, on=CLOSE)
    assert continued.stage is Stage.CONTINUED
    with pytest.raises(AdjudicationError, match="adjudication is continued"):
        continued.claim(Claim(W, Result.WHITE_WINS, ANALYSIS, CLOSE))


def test_the_players_are_asked_only_once_the_limit_has_elapsed():
    with pytest.raises(AdjudicationError, match="elapses on 2003-07-15"):
        Adjudication.ask(TournamentFormat.CLASS, STARTED, date(2003, 7, 14))
    asked = Adjudication.ask(TournamentFormat.CLASS, STARTED, CLOSE)
    assert (asked.stage, asked.close_of_play, asked.claim_deadline) == (Stage.ASKED, CLOSE, None)
    with pytest.raises(AdjudicationError, match="before the TS's question"):
        asked.answer(white_agrees=False, black_agrees=False, on=date(2003, 7, 1))


def test_a_game_past_the_global_limit_adjudicated_and_appealed():
    # Sent to adjudication on 18 July 2003: claims are due within 14 days, by 1 August.
    game = referred()
    assert (game.stage, game.claim_deadline) == (Stage.CLAIMS, date(2003, 8, 1))
    game = game.claim(Claim(W, Result.WHITE_WINS, ANALYSIS, date(2003, 7, 25)))
    # Black's claim comes on the last day: still in time.
    game = game.claim(Claim(B, Result.DRAW, "fortress after 35...Kg8", date(2003, 8, 1)))
    # The adjudicator finds a draw; both players have it on 10 August. Both sent analysis,
    # so both may appeal (10.B, 10.D), within 14 days: by 24 August.
    game = game.decide(Result.DRAW, notified_on=date(2003, 8, 10))
    assert (game.stage, game.decision, game.result) == (Stage.DECIDED, Result.DRAW, None)
    assert game.may_appeal == {W, B}
    assert game.appeal_deadline == date(2003, 8, 24)
    # White appeals on the last day (11.A).
    game = game.appeal(W, sent_on=date(2003, 8, 24))
    assert (game.stage, game.appellant) == (Stage.APPEALED, W)
    # The second adjudicator finds the win: final, no further appeal from either player.
    game = game.rule(Result.WHITE_WINS)
    assert (game.stage, game.result) == (Stage.FINAL, Result.WHITE_WINS)
    for colour in (W, B):
        with pytest.raises(AdjudicationError, match="adjudication is final"):
            game.appeal(colour, sent_on=date(2003, 8, 25))


def test_a_late_claim_is_refused_and_costs_the_right_to_appeal():
    game = referred().claim(Claim(W, Result.WHITE_WINS, ANALYSIS, date(2003, 7, 20)))
    # 18 July + 14 days = 1 August; 2 August is late.
    with pytest.raises(MissedDeadlineError, match="due by 2003-08-01") as refused:
        game.claim(Claim(B, Result.DRAW, "a fortress", date(2003, 8, 2)))
    assert refused.value.deadline == date(2003, 8, 1)
    # With one claim, the adjudicator waits for the 14 days to pass.
    with pytest.raises(AdjudicationError, match="claims until 2003-08-01"):
        game.decide(Result.WHITE_WINS, notified_on=date(2003, 8, 1))
    decided = game.decide(Result.WHITE_WINS, notified_on=date(2003, 8, 5))
    assert decided.may_appeal == {W}
    with pytest.raises(AdjudicationError, match="black sent no analysis"):
        decided.appeal(B, sent_on=date(2003, 8, 6))


def test_a_decision_nobody_may_appeal_is_final_at_once():
    # Both claims came without analysis: neither player may appeal (10.B).
    game = referred()
    game = game.claim(Claim(W, Result.DRAW, "", date(2003, 7, 20)))
    game = game.claim(Claim(B, Result.BLACK_WINS, "  ", date(2003, 7, 21)))
    final = game.decide(Result.DRAW, notified_on=date(2003, 7, 30))
    assert (final.stage, final.result, final.may_appeal) == (Stage.FINAL, Result.DRAW, frozenset())
    # No claim at all: the same once the 14 days are over.
    silent = referred().decide(Result.BLACK_WINS, notified_on=date(2003, 8, 2))
    assert (silent.stage, silent.result) == (Stage.FINAL, Result.BLACK_WINS)


def test_an_appeal_after_fourteen_days_is_refused_and_the_decision_stands():
    game = referred().claim(Claim(B, Result.DRAW, ANALYSIS, date(2003, 7, 19)))
    decided = game.decide(Result.WHITE_WINS, notified_on=date(2003, 8, 3))
    # 3 August + 14 days = 17 August.
    with pytest.raises(MissedDeadlineError, match="due by 2003-08-17"):
        decided.appeal(B, sent_on=date(2003, 8, 18))
    with pytest.raises(AdjudicationError, match="may appeal until 2003-08-17"):
        decided.lapse(date(2003, 8, 17))
    final = decided.lapse(date(2003, 8, 18))
    assert (final.stage, final.result) == (Stage.FINAL, Result.WHITE_WINS)


def test_steps_out_of_order_and_results_that_cannot_be_used():
    game = referred()
    with pytest.raises(InvalidClaimError, match="white may claim a win for white or a draw"):
        Claim(W, Result.BLACK_WINS, ANALYSIS, date(2003, 7, 20))
    with pytest.raises(InvalidClaimError):
        Claim(B, Result.ONGOING, ANALYSIS, date(2003, 7, 20))
    claimed = game.claim(Claim(W, Result.WHITE_WINS, ANALYSIS, date(2003, 7, 20)))
    with pytest.raises(AdjudicationError, match="white has claimed already"):
        claimed.claim(Claim(W, Result.DRAW, ANALYSIS, date(2003, 7, 21)))
    with pytest.raises(AdjudicationError, match="before the referral"):
        game.claim(Claim(W, Result.DRAW, ANALYSIS, date(2003, 7, 17)))
    with pytest.raises(InvalidClaimError, match="not an open game"):
        game.decide(Result.ONGOING, notified_on=date(2003, 8, 5))
    with pytest.raises(AdjudicationError, match="cannot appeal: the adjudication is claims"):
        claimed.appeal(W, sent_on=date(2003, 7, 22))
    with pytest.raises(AdjudicationError, match="cannot rule on an appeal"):
        claimed.rule(Result.DRAW)
    decided = claimed.decide(Result.DRAW, notified_on=date(2003, 8, 5))
    with pytest.raises(AdjudicationError, match="before the notification"):
        decided.appeal(W, sent_on=date(2003, 8, 4))
    appealed = decided.appeal(W, sent_on=date(2003, 8, 6))
    with pytest.raises(AdjudicationError, match="cannot close the appeal window"):
        appealed.lapse(date(2003, 9, 1))


@given(
    referral=st.dates(min_value=date(2003, 7, 16), max_value=date(2004, 12, 31)),
    delay=st.integers(min_value=0, max_value=30),
)
def test_a_claim_is_accepted_exactly_within_fourteen_days(referral: date, delay: int):
    game = referred(on=referral)
    claim = Claim(W, Result.DRAW, ANALYSIS, referral + timedelta(days=delay))
    if delay <= 14:
        assert game.claim(claim).claims == (claim,)
    else:
        with pytest.raises(MissedDeadlineError):
            game.claim(claim)
