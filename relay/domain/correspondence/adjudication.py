"""The global time limit of an IECG tournament and the adjudication of the games it leaves
unfinished (IECG Rules and Regulations 6.4, section C, articles 10, 11 and 15).

Article 15 gives each kind of tournament a global time limit: one year for two-game matches
and Rapid Class Tournaments (15.A), 18 months for Team, Quad, Thematic, Class and Large
tournaments (15.B). :func:`close_of_play` is the day it elapses. Once it has, the Tournament
Secretary (TS) asks the players of every unfinished game whether they want to go on; the
game continues only if both agree, otherwise it goes to adjudication (15.C, :func:`consult`).

An adjudication (:class:`Adjudication`) then runs through these stages, one method per step:

* ``ASKED``: the TS has asked both players (15.C); :meth:`Adjudication.answer` records their
  answers and moves to ``CONTINUED`` (both agree) or ``CLAIMS``;
* ``CLAIMS``: each player may send a claim of a win or a draw within 14 days, supported by
  analysis or not (10.A, :meth:`Adjudication.claim`);
* ``DECIDED``: the adjudicator has decided and the TS has notified both players (10.D,
  :meth:`Adjudication.decide`); a player who sent analysis with his claim may appeal within
  14 days of the notification (10.B, 11.A, :meth:`Adjudication.appeal`);
* ``APPEALED``: a second adjudicator rules (11.A, :meth:`Adjudication.rule`);
* ``FINAL``: the result stands; no further appeal is accepted (11.A). A decision nobody may
  appeal is final at once; one nobody appealed in time becomes final when the appeal window
  has closed (:meth:`Adjudication.lapse`).

Missed deadlines, as the text gives them: a player who sends no claim within the 14 days (a
late claim is refused) or who sends one without analysis forfeits the right to appeal
(10.B); the adjudicator decides all the same. An appeal sent after its 14 days is refused
and the decision stands.

Readings where the text leaves room:

* The limit runs from the tournament's start to the same day 12 or 18 calendar months later
  (the last day of the month when that month is shorter); on that day it has elapsed.
* 10.A counts the 14 days for claims from "the date set for the close of play"; the TS can
  only send a game to adjudication after asking the players (15.C), so the window here runs
  from the day the game is sent to adjudication, which is the close of play itself when the
  TS asks on that day.
* "Within 14 days" of a day D includes D + 14 days.
* Both players may ask for an appeal; the first one in time opens it and the second
  adjudicator's ruling settles the game for both (11.A: "The ruling is final").

All dates are parameters: nothing here reads the clock.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, replace
from datetime import date, timedelta
from enum import StrEnum

import chess

from relay.domain.errors import InvalidInputError, RefusedError
from relay.domain.results import Result

#: The days players have to send claims (10.A) and to appeal (11.A).
WINDOW_DAYS = 14


class AdjudicationError(ValueError, RefusedError):
    """A step of the adjudication that does not fit the stage the game is in."""


class MissedDeadlineError(AdjudicationError):
    """A claim or an appeal sent after its 14 days (10.A, 11.A)."""

    def __init__(self, message: str, deadline: date) -> None:
        super().__init__(message)
        self.deadline = deadline


class InvalidClaimError(ValueError, InvalidInputError):
    """A claim or a ruling that cannot be used as given (a claim must be a win for the
    claimant or a draw, 10.A; a ruling must be a result)."""


class TournamentFormat(StrEnum):
    """The kinds of tournament article 15 gives a global time limit."""

    TWO_GAME_MATCH = "two-game match"
    RAPID_CLASS = "rapid class"
    TEAM = "team"
    QUAD = "quad"
    THEMATIC = "thematic"
    CLASS = "class"
    LARGE = "large"

    @property
    def limit_months(self) -> int:
        """The global time limit in months: 12 under 15.A, 18 under 15.B."""
        return 12 if self in _ONE_YEAR else 18


_ONE_YEAR = frozenset({TournamentFormat.TWO_GAME_MATCH, TournamentFormat.RAPID_CLASS})


def months_after(start: date, months: int) -> date:
    """The same day ``months`` calendar months after ``start``; the last day of the month
    when that month is shorter (31 August plus six months is the end of February)."""
    year, month = divmod(start.year * 12 + start.month - 1 + months, 12)
    last_day = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(start.day, last_day))


def close_of_play(kind: TournamentFormat, started_on: date) -> date:
    """The day the global time limit of a tournament of ``kind`` that started on
    ``started_on`` elapses (15.A, 15.B)."""
    return months_after(started_on, kind.limit_months)


def limit_elapsed(kind: TournamentFormat, started_on: date, today: date) -> bool:
    """Whether the global time limit has elapsed by ``today``: its unfinished games are then
    to be continued or adjudicated (15.C)."""
    return today >= close_of_play(kind, started_on)


class Fate(StrEnum):
    """What becomes of a game unfinished at the global time limit (15.C)."""

    #: Both players agreed to go on. Timekeeping becomes mandatory for the game (2.D).
    CONTINUED = "continued"
    #: One or both players did not agree: the game is sent for adjudication.
    ADJUDICATED = "adjudicated"


def consult(*, white_agrees: bool, black_agrees: bool) -> Fate:
    """The fate of an unfinished game once the TS has asked both players whether they want
    to continue it (15.C)."""
    return Fate.CONTINUED if white_agrees and black_agrees else Fate.ADJUDICATED


class Stage(StrEnum):
    """Where an adjudication stands; see the module's description for the steps."""

    ASKED = "asked"
    CONTINUED = "continued"
    CLAIMS = "claims"
    DECIDED = "decided"
    APPEALED = "appealed"
    FINAL = "final"


@dataclass(frozen=True, slots=True)
class Claim:
    """What a player sends the TS for adjudication (10.A): the result he claims (a win for
    himself or a draw) and his analysis, empty when he sends none (10.C says what it should
    contain). The record of the moves and the position travel with the game."""

    colour: chess.Color
    result: Result
    analysis: str
    sent_on: date

    def __post_init__(self) -> None:
        if self.result not in (Result.win_for(self.colour), Result.DRAW):
            side = chess.COLOR_NAMES[self.colour]
            raise InvalidClaimError(
                f"{side} may claim a win for {side} or a draw, not {self.result}"
            )

    @property
    def analysed(self) -> bool:
        """Whether the claim is supported by analysis, which keeps the right to appeal
        (10.B)."""
        return bool(self.analysis.strip())


@dataclass(frozen=True, slots=True)
class Adjudication:
    """One unfinished game past the global time limit, from the TS's question to the final
    result. Each step returns the next state; the state itself never changes.

    Start with :meth:`ask`. ``referred_on`` is the day the game was sent to adjudication,
    ``claims`` the claims received in time, ``decision`` and ``notified_on`` the
    adjudicator's decision and the day both players received it, ``appellant`` the player
    who appealed, and ``result`` the final result once the stage is ``FINAL``.
    """

    close_of_play: date
    asked_on: date
    stage: Stage = Stage.ASKED
    referred_on: date | None = None
    claims: tuple[Claim, ...] = ()
    decision: Result | None = None
    notified_on: date | None = None
    appellant: chess.Color | None = None
    result: Result | None = None

    @classmethod
    def ask(cls, kind: TournamentFormat, started_on: date, asked_on: date) -> Adjudication:
        """The TS asks both players, on ``asked_on``, whether they want to continue a game
        of a tournament of ``kind`` started on ``started_on`` (15.C); only once the global
        limit has elapsed."""
        closing = close_of_play(kind, started_on)
        if asked_on < closing:
            raise AdjudicationError(
                f"the global time limit elapses on {closing}: the game may go on until then"
            )
        return cls(close_of_play=closing, asked_on=asked_on)

    def answer(self, *, white_agrees: bool, black_agrees: bool, on: date) -> Adjudication:
        """The players' answers, complete on ``on``: the game continues, or it is sent to
        adjudication that day and the 14 days for claims begin (15.C, 10.A)."""
        self._require(Stage.ASKED, "answer the TS's question")
        _not_before(on, self.asked_on, "the TS's question")
        if consult(white_agrees=white_agrees, black_agrees=black_agrees) is Fate.CONTINUED:
            return replace(self, stage=Stage.CONTINUED)
        return replace(self, stage=Stage.CLAIMS, referred_on=on)

    @property
    def claim_deadline(self) -> date | None:
        """The last day for claims (10.A); None until the game is sent to adjudication."""
        return None if self.referred_on is None else self.referred_on + _WINDOW

    def claim(self, claim: Claim) -> Adjudication:
        """A player's claim (10.A); refused when it comes after the 14 days or when the
        player has claimed already."""
        self._require(Stage.CLAIMS, "claim")
        assert self.referred_on is not None  # set with the CLAIMS stage
        _not_before(claim.sent_on, self.referred_on, "the referral to adjudication")
        deadline = self.referred_on + _WINDOW
        if claim.sent_on > deadline:
            raise MissedDeadlineError(
                f"claims were due by {deadline}; {chess.COLOR_NAMES[claim.colour]} has lost "
                "the right to appeal (10.B)",
                deadline,
            )
        if any(earlier.colour == claim.colour for earlier in self.claims):
            raise AdjudicationError(f"{chess.COLOR_NAMES[claim.colour]} has claimed already")
        return replace(self, claims=(*self.claims, claim))

    def decide(self, result: Result, *, notified_on: date) -> Adjudication:
        """The adjudicator's decision, received by both players on ``notified_on`` (10.D).
        It may come once both players have claimed or the 14 days for claims are over. It is
        final at once when neither player may appeal."""
        self._require(Stage.CLAIMS, "decide")
        _require_result(result)
        assert self.referred_on is not None  # set with the CLAIMS stage
        _not_before(notified_on, self.referred_on, "the referral to adjudication")
        deadline = self.referred_on + _WINDOW
        if len(self.claims) < 2 and notified_on <= deadline:
            raise AdjudicationError(f"the players may send claims until {deadline}")
        decided = replace(self, stage=Stage.DECIDED, decision=result, notified_on=notified_on)
        if not decided.may_appeal:
            return replace(decided, stage=Stage.FINAL, result=result)
        return decided

    @property
    def may_appeal(self) -> frozenset[chess.Color]:
        """The players with the right to appeal: those whose claim came in time with
        analysis (10.B). The TS's notification says whether the decision is subject to
        appeal (10.D): it is when this set is not empty."""
        return frozenset(claim.colour for claim in self.claims if claim.analysed)

    @property
    def appeal_deadline(self) -> date | None:
        """The last day to appeal the decision (11.A); None before the decision."""
        return None if self.notified_on is None else self.notified_on + _WINDOW

    def appeal(self, colour: chess.Color, *, sent_on: date) -> Adjudication:
        """An appeal by ``colour`` against the decision (11.A). Refused when the player did
        not send analysis with a claim in time (10.B), and after the 14 days. More analysis
        may come with it (11.B); it goes to the second adjudicator with the game."""
        self._require(Stage.DECIDED, "appeal")
        side = chess.COLOR_NAMES[colour]
        if colour not in self.may_appeal:
            raise AdjudicationError(
                f"{side} sent no analysis with a claim in time and may not appeal (10.B)"
            )
        assert self.notified_on is not None  # set with the DECIDED stage
        _not_before(sent_on, self.notified_on, "the notification of the decision")
        deadline = self.notified_on + _WINDOW
        if sent_on > deadline:
            raise MissedDeadlineError(
                f"appeals were due by {deadline}: the decision stands", deadline
            )
        return replace(self, stage=Stage.APPEALED, appellant=colour)

    def rule(self, result: Result) -> Adjudication:
        """The second adjudicator's ruling on the appeal: final (11.A)."""
        self._require(Stage.APPEALED, "rule on an appeal")
        _require_result(result)
        return replace(self, stage=Stage.FINAL, result=result)

    def lapse(self, today: date) -> Adjudication:
        """The decision made final once its appeal window has closed with no appeal
        (11.A)."""
        self._require(Stage.DECIDED, "close the appeal window")
        assert self.notified_on is not None  # set with the DECIDED stage
        deadline = self.notified_on + _WINDOW
        if today <= deadline:
            raise AdjudicationError(f"the players may appeal until {deadline}")
        return replace(self, stage=Stage.FINAL, result=self.decision)

    def _require(self, stage: Stage, action: str) -> None:
        if self.stage is not stage:
            raise AdjudicationError(f"cannot {action}: the adjudication is {self.stage}")


_WINDOW = timedelta(days=WINDOW_DAYS)


def _not_before(day: date, earliest: date, what: str) -> None:
    if day < earliest:
        raise AdjudicationError(f"{day} is before {what} ({earliest})")


def _require_result(result: Result) -> None:
    if not result.is_decided:
        raise InvalidClaimError("an adjudication ends in a win or a draw, not an open game")
