"""A player's withdrawal from an IECG tournament: the score table and the rated games it
leaves (IECG Rules and Regulations 6.4, section C article 9, and the rating rules, section E
VIII), and the sanction that follows (9.C to 9.F).

Article 9.B looks at the share of his games the withdrawing player has finished, counted
against the number of games he had at the start of the tournament:

* at most 50% (9.B.a): all his games are forfeited. The games already finished become
  forfeit losses for him in the tournament's score table, "but they stay rated in accordance
  with the actual result";
* more than 50% (9.B.b): his remaining games are forfeited; the finished ones stand.

So :func:`withdraw` gives two views. The score table (:attr:`Withdrawal.table`) is what the
standings, and the Sonneborn-Berger tie-break of article 14 that is read from them, count.
The rated games (:attr:`Withdrawal.rated`) are what the rating run counts: every finished
game with its real result. A forfeited game that was never finished is not rated
(E VIII.2: "Withdrawals from tournaments are generally not rated"), unless the opponent
asked for its adjudication: the adjudicated result is then rated, while the table still
shows the opponent's win (E VIII.3).

Withdrawals are announced or silent (9.A, :func:`classify`): announced when the player tells
the TS he cannot go on, or resigns all his remaining games at the same time; silent when he
abandons the tournament without answering the TS's enquiries, which then touches every IECG
tournament he plays in. :func:`sanction` gives the penalty of 9.D and 9.E as data.

Readings where the text leaves room:

* A player's first and second withdrawals are counted for each kind on its own: a silent
  withdrawal does not make a later announced one the "second" (9.D.2), nor the reverse.
* An announced withdrawal with another announced one in the year before it is treated as
  the second of 9.D.2 (a third one within the year as well); one more than a year after the
  previous one is treated as a first one again (9.D.1).
* A suspension and the six-month bar of 9.D.1.a run from the withdrawal; the bar of
  9.D.1.b runs from the end of the player's last finished event, a day that may not be
  known yet: :class:`Ban` says which and computes the end from it.
* Every silent withdrawal after the first cancels the membership (9.E.2).

The Arbiter Commission may change a suspension at the player's request (9.F) and rules on
appeals against withdrawal decisions (13.C); neither is computed here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from fractions import Fraction

from relay.domain.correspondence.adjudication import months_after
from relay.domain.errors import InvalidInputError
from relay.domain.results import Result

#: 9.B: the share of finished games at or below which all games are forfeited.
FORFEIT_ALL_SHARE = Fraction(1, 2)


class WithdrawalError(ValueError, InvalidInputError):
    """Games or a history of withdrawals that cannot be used as given."""


@dataclass(frozen=True, slots=True)
class EventGame:
    """One game of the withdrawing player, by player numbers. ``result`` is ``*`` while the
    game is unfinished; ``adjudicated`` is the result of an unfinished game's adjudication
    when the opponent asked for one to gain rating points (E VIII.3)."""

    white: int
    black: int
    result: Result
    adjudicated: Result | None = None

    @property
    def finished(self) -> bool:
        return self.result.is_decided


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game as the tournament's score table counts it; ``forfeit`` when it is counted as
    a forfeit win for the withdrawing player's opponent."""

    white: int
    black: int
    result: Result
    forfeit: bool


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game as the rating run counts it; ``adjudicated`` when the result is that of an
    adjudication asked for after the withdrawal (E VIII.3)."""

    white: int
    black: int
    result: Result
    adjudicated: bool


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """The withdrawing player's games after 9.B, in the score table and in the rating run."""

    player: int
    finished: int
    scheduled: int
    table: tuple[TableGame, ...]
    rated: tuple[RatedGame, ...]

    @property
    def share_finished(self) -> Fraction:
        """The share of his games at the start that the player had finished (9.B)."""
        return Fraction(self.finished, self.scheduled)

    @property
    def all_forfeited(self) -> bool:
        """Whether 9.B.a applies: at most 50% finished, so every game is a forfeit loss in
        the score table."""
        return self.share_finished <= FORFEIT_ALL_SHARE


def withdraw(player: int, games: Sequence[EventGame]) -> Withdrawal:
    """The score table and the rated games once ``player`` has withdrawn; ``games`` are all
    his games as paired at the start of the tournament, finished or not (9.B, E VIII)."""
    _check_games(player, games)
    finished = sum(game.finished for game in games)
    forfeit_all = Fraction(finished, len(games)) <= FORFEIT_ALL_SHARE
    return Withdrawal(
        player=player,
        finished=finished,
        scheduled=len(games),
        table=tuple(_table_game(player, game, forfeit_all) for game in games),
        rated=tuple(rated for game in games if (rated := _rated_game(game)) is not None),
    )


def _check_games(player: int, games: Sequence[EventGame]) -> None:
    if not games:
        raise WithdrawalError(f"player {player} has no games to withdraw from")
    for game in games:
        if player not in (game.white, game.black) or game.white == game.black:
            raise WithdrawalError(f"{game.white} v {game.black} is not a game of player {player}")
        if game.adjudicated is not None and (game.finished or not game.adjudicated.is_decided):
            raise WithdrawalError(
                f"{game.white} v {game.black}: only an unfinished game is adjudicated, to a "
                "win or a draw (E VIII.3)"
            )


def _table_game(player: int, game: EventGame, forfeit_all: bool) -> TableGame:
    if game.finished and not forfeit_all:
        return TableGame(game.white, game.black, game.result, forfeit=False)
    opponent_wins = Result.BLACK_WINS if player == game.white else Result.WHITE_WINS
    return TableGame(game.white, game.black, opponent_wins, forfeit=True)


def _rated_game(game: EventGame) -> RatedGame | None:
    if game.finished:
        return RatedGame(game.white, game.black, game.result, adjudicated=False)
    if game.adjudicated is not None:
        return RatedGame(game.white, game.black, game.adjudicated, adjudicated=True)
    return None


class WithdrawalKind(StrEnum):
    """Announced or silent (9.A)."""

    ANNOUNCED = "announced"
    SILENT = "silent"


def classify(*, informed_secretary: bool, resigned_all_at_once: bool) -> WithdrawalKind:
    """The kind of a player's withdrawal (9.A). It is announced when he told the TS he
    cannot go on, or when he resigned all his remaining games at the same time, whether he
    told the TS or not; otherwise he abandoned the tournament without answering the TS's
    enquiries, a silent withdrawal."""
    if informed_secretary or resigned_all_at_once:
        return WithdrawalKind.ANNOUNCED
    return WithdrawalKind.SILENT


class BanScope(StrEnum):
    """What a ban keeps the player from."""

    #: Entering new events; he finishes the ones he plays in (9.D.1).
    NEW_EVENTS = "new events"
    #: All IECG play: a suspension (9.D.2.a, 9.E.1.a).
    SUSPENSION = "suspension"


class BanStart(StrEnum):
    """The day a ban is counted from."""

    WITHDRAWAL = "the withdrawal"
    #: 9.D.1.b: the end of the player's last finished event.
    END_OF_LAST_EVENT = "the end of the player's last event"


@dataclass(frozen=True, slots=True)
class Ban:
    """A ban of ``months`` months counted from ``counted_from``."""

    scope: BanScope
    months: int
    counted_from: BanStart

    def ends_on(self, start: date) -> date:
        """The day the ban ends, given the day it is counted from."""
        return months_after(start, self.months)


@dataclass(frozen=True, slots=True)
class Sanction:
    """The consequences of a withdrawal (9.C to 9.E); ``article`` is the paragraph that
    gives them. ``ban`` is None when the membership is cancelled instead.
    ``explanation_required``: the player must explain to the Arbiter Commission why he
    withdraws from one event and not from all (9.D.1.b)."""

    kind: WithdrawalKind
    article: str
    ban: Ban | None
    withdrawn_from_all: bool
    membership_cancelled: bool
    explanation_required: bool


def sanction(
    kind: WithdrawalKind,
    on: date,
    *,
    events: int = 1,
    earlier_announced: Iterable[date] = (),
    earlier_silent: int = 0,
) -> Sanction:
    """The sanction for a withdrawal of ``kind`` on ``on`` by a player who plays in
    ``events`` IECG events (this one included), with his earlier announced withdrawals'
    days and his number of earlier silent withdrawals (9.D, 9.E)."""
    if events < 1:
        raise WithdrawalError(f"a withdrawing player plays in one event at least, not {events}")
    if earlier_silent < 0:
        raise WithdrawalError(f"earlier silent withdrawals: {earlier_silent} is below zero")
    if kind is WithdrawalKind.SILENT:
        return _silent(earlier_silent)
    return _announced(on, events, tuple(earlier_announced))


def _silent(earlier: int) -> Sanction:
    if earlier == 0:
        suspension = Ban(BanScope.SUSPENSION, 12, BanStart.WITHDRAWAL)
        return Sanction(WithdrawalKind.SILENT, "9.E.1", suspension, True, False, False)
    return Sanction(WithdrawalKind.SILENT, "9.E.2", None, True, True, False)


def _announced(on: date, events: int, earlier: tuple[date, ...]) -> Sanction:
    if any(day > on for day in earlier):
        raise WithdrawalError(f"an earlier withdrawal cannot come after this one, on {on}")
    if any(on <= months_after(day, 12) for day in earlier):
        suspension = Ban(BanScope.SUSPENSION, 12, BanStart.WITHDRAWAL)
        return Sanction(WithdrawalKind.ANNOUNCED, "9.D.2", suspension, True, False, False)
    if events == 1:
        bar = Ban(BanScope.NEW_EVENTS, 6, BanStart.WITHDRAWAL)
        return Sanction(WithdrawalKind.ANNOUNCED, "9.D.1.a", bar, False, False, False)
    bar = Ban(BanScope.NEW_EVENTS, 6, BanStart.END_OF_LAST_EVENT)
    return Sanction(WithdrawalKind.ANNOUNCED, "9.D.1.b", bar, False, False, True)
