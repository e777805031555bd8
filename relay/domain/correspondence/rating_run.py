"""The IECG rating run: one two-month rating period's games in, the next rating list out
(IECG Rules and Regulations 6.4, seed 000 section E "Rating Rules", parts I-VIII).

The formulas live in :mod:`relay.domain.tournament.ratings`; this module says which games
and which ratings go into them:

* the periods (E.II.1): January-February, March-April, ... November-December, and the day
  each list is run and published (E.II.2, :attr:`Period.run_date`);
* a batch per player of the games finished in the period (E.II.4), rated against the
  opponents' Tournament Entry Ratings of the last list (E.II.3, E.III.7, E.VI.1);
* provisional ratings, cumulative over all of a player's games, published from six games
  and promoted to established at the end of the period in which 15 are reached (E.III.1,
  E.III.3, E.IV); established ratings changed game by game (E.V); the 400-point cut-off
  (E.III.8) and the two 75 % bonuses (E.IV.4, E.V.5);
* forfeits, withdrawals and inactive players (E.VIII);
* the list itself with the fields of E.II.5, and a CSV text of it.

Ratings are whole numbers: each new rating is rounded half up, as the list publishes it,
and the next run takes it from there (E.VI.1: "all ratings are taken out of the previous
list").
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from relay.domain.results import Result
from relay.domain.tournament.ratings import (
    IECG_STARTING_RATING,
    Rated,
    RatingError,
    iecg_cut,
    iecg_established,
    iecg_k,
    iecg_percentage,
    iecg_provisional,
    round_half_up,
)

#: E.II.1: a rating period is two months.
PERIOD_MONTHS = 2
#: Rating periods in a year.
PERIODS_PER_YEAR = 12 // PERIOD_MONTHS
#: E.III.3, E.IV.2: a provisional rating is published once this many games are rated.
PUBLISHED_AFTER_GAMES = 6
#: E.III.7: from this many games a provisional player's TER is the provisional rating.
TER_FROM_GAMES = 10
#: E.III.1, E.IV.3: an established rating needs this many finished games.
ESTABLISHED_AFTER_GAMES = 15
#: E.VIII.5: one year without a game (six periods) takes a player off the list ...
LIST_INACTIVE_PERIODS = PERIODS_PER_YEAR
#: ... and four more years delete the player from the database.
DATABASE_INACTIVE_PERIODS = 5 * PERIODS_PER_YEAR

#: Seed 000 D.2.4.a: the rating classes by the lowest TER of each; below 1000 is class N.
RATING_CLASSES: tuple[tuple[int, str], ...] = (
    (2200, "M"),
    (2000, "A"),
    (1800, "B"),
    (1600, "C"),
    (1400, "D"),
    (1200, "E"),
    (1000, "F"),
)
LOWEST_CLASS = "N"

#: What :meth:`datetime.date.weekday` gives for a Saturday.
_SATURDAY = 5


# --- Periods ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """A rating period: ``index`` 1 is January-February of ``year``, 6 November-December
    (E.II.1: "The first period of a year starts on January 1st")."""

    year: int
    index: int

    def __post_init__(self) -> None:
        if not 1 <= self.index <= PERIODS_PER_YEAR:
            raise RatingError(f"a year has rating periods 1 to 6, not {self.index}")

    @property
    def start(self) -> dt.date:
        """The period's first day."""
        return dt.date(self.year, (self.index - 1) * PERIOD_MONTHS + 1, 1)

    @property
    def end(self) -> dt.date:
        """The period's last day."""
        return self._following_month() - dt.timedelta(days=1)

    @property
    def run_date(self) -> dt.date:
        """The day of the rating run: the first Saturday of the month after the period, the
        first weekend on which the list is published (E.II.2)."""
        first = self._following_month()
        return first + dt.timedelta(days=(_SATURDAY - first.weekday()) % 7)

    def _following_month(self) -> dt.date:
        if self.index == PERIODS_PER_YEAR:
            return dt.date(self.year + 1, 1, 1)
        return dt.date(self.year, self.index * PERIOD_MONTHS + 1, 1)


def period_of(day: dt.date) -> Period:
    """The rating period ``day`` belongs to."""
    return Period(day.year, (day.month - 1) // PERIOD_MONTHS + 1)


# --- Players --------------------------------------------------------------------------------


class Indicator(StrEnum):
    """E.II.5 j: what the rating a player is listed with is."""

    #: Fewer than six games: no rating is published, only the Tournament Entry Rating.
    TER = "T"
    PROVISIONAL = "P"
    ESTABLISHED = "E"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player as the rating database holds them after a run, or as they join.

    ``number`` is the membership number, ``starting`` the starting rating of E.VII (800
    without any other rating, E.VII.3). ``rating`` is the last list's rating: None while
    provisional under six games, then the provisional rating, then the established one.
    ``wins``, ``draws`` and ``losses`` count the games rated with this scheme (E.II.5 h-i).
    ``opponents_total`` is the sum of the opponents' ratings as the provisional games counted
    them (after the cut-off), from which the provisional rating's opponents' average Rc is
    taken. ``inactive_periods`` counts the periods in a row, up to the last run, in which
    the player played no game (E.VIII.4).
    """

    number: str
    name: str
    country: str
    starting: int = IECG_STARTING_RATING
    rating: int | None = None
    established: bool = False
    wins: int = 0
    draws: int = 0
    losses: int = 0
    opponents_total: float = 0.0
    inactive_periods: int = 0

    def __post_init__(self) -> None:
        if min(self.wins, self.draws, self.losses, self.inactive_periods) < 0:
            raise RatingError(f"player {self.number}: a count below zero")
        if self.established:
            if self.rating is None:
                raise RatingError(f"player {self.number}: an established player needs a rating")
            return
        if self.games >= ESTABLISHED_AFTER_GAMES:
            raise RatingError(f"player {self.number}: {self.games} games make a rating established")
        if (self.games >= PUBLISHED_AFTER_GAMES) != (self.rating is not None):
            raise RatingError(
                f"player {self.number}: a provisional rating exists from "
                f"{PUBLISHED_AFTER_GAMES} games exactly"
            )

    @property
    def games(self) -> int:
        """The games rated with this scheme (E.II.5 h)."""
        return self.wins + self.draws + self.losses

    @property
    def ter(self) -> int:
        """The Tournament Entry Rating (E.III.7): the established rating; for a provisional
        player the starting rating until ten games are finished, then the provisional
        rating."""
        if self.rating is not None and (self.established or self.games >= TER_FROM_GAMES):
            return self.rating
        return self.starting

    @property
    def indicator(self) -> Indicator:
        """E.II.5 j."""
        if self.established:
            return Indicator.ESTABLISHED
        return Indicator.TER if self.rating is None else Indicator.PROVISIONAL

    @property
    def listed(self) -> bool:
        """Whether the player is on the list: not after a year without a game (E.VIII.5)."""
        return self.inactive_periods < LIST_INACTIVE_PERIODS


def rating_class(ter: int) -> str:
    """The rating class (seed 000 D.2.4.a) a Tournament Entry Rating falls in."""
    for lowest, name in RATING_CLASSES:
        if ter >= lowest:
            return name
    return LOWEST_CLASS


# --- Games ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game finished in the period, between two membership numbers.

    A forfeit by arbiter decision (E.VIII.1) is given with its result as any other game.
    ``rated=False`` is a withdrawal the tournament secretary does not rate (E.VIII.2): the
    game counts for neither player's rating, only for their activity. ``adjudicated_for``
    names the remaining player of such a game who asked for an adjudication (E.VIII.3): the
    game, given with the adjudication's result, is rated for that player alone.
    """

    finished: dt.date
    white: str
    black: str
    result: Result
    rated: bool = True
    adjudicated_for: str | None = None

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise RatingError(f"player {self.white} cannot play themselves")
        if not self.result.is_decided:
            raise RatingError(f"a game of {self.white} and {self.black} is not finished")
        if self.adjudicated_for is not None and (
            self.rated or self.adjudicated_for not in (self.white, self.black)
        ):
            raise RatingError(
                f"an adjudication is for one player of an unrated game, not {self.adjudicated_for}"
            )

    def rated_for(self, number: str) -> bool:
        """Whether the game counts for the rating of player ``number``, one of its two."""
        return self.rated or self.adjudicated_for == number

    def sides(self) -> tuple[tuple[str, str, float], tuple[str, str, float]]:
        """(player, opponent, player's points) for white, then for black."""
        white = self.result.white_points
        assert white is not None  # a decided result: checked when the game was made
        return (self.white, self.black, white), (self.black, self.white, 1 - white)


# --- The run --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One line of the rating list, the fields of E.II.5 in order.

    ``rating_class`` is the class (by the TER) that ``class_position`` ranks in; ``rating``
    is None while a provisional player has fewer than six games (E.III.3).
    """

    position: int
    class_position: int
    rating_class: str
    number: str
    name: str
    country: str
    rating: int | None
    ter: int
    games: int
    wins: int
    draws: int
    losses: int
    indicator: Indicator


@dataclass(frozen=True, slots=True)
class RatingRun:
    """What a run gives: the database after it (every player, by membership number; those
    five years inactive deleted, E.VIII.5) and the list it publishes."""

    period: Period
    run_date: dt.date
    players: tuple[PlayerRecord, ...]
    rating_list: tuple[ListEntry, ...]


def rate_period(
    players: Iterable[PlayerRecord],
    games: Iterable[FinishedGame],
    period: Period,
    *,
    playing: Iterable[str] = (),
) -> RatingRun:
    """Run the ratings of ``period``: ``players`` as the last list left them (new players
    with their starting ratings), ``games`` all those finished in the period. ``playing``
    names players with a game in progress: they were active in the period without finishing
    a game (E.VIII.4). The result does not depend on the order of either input."""
    records = _by_number(players)
    finished = tuple(games)
    _check_games(finished, records, period)
    active = _active(finished, playing, records)
    batches = _batches(finished, {number: record.ter for number, record in records.items()})
    database = []
    for number in sorted(records):
        record = _rate(records[number], batches.get(number, []))
        record = replace(
            record, inactive_periods=0 if number in active else record.inactive_periods + 1
        )
        if record.inactive_periods < DATABASE_INACTIVE_PERIODS:
            database.append(record)
    return RatingRun(period, period.run_date, tuple(database), rating_list(database))


def _by_number(players: Iterable[PlayerRecord]) -> dict[str, PlayerRecord]:
    records: dict[str, PlayerRecord] = {}
    for record in players:
        if record.number in records:
            raise RatingError(f"player {record.number} is given twice")
        records[record.number] = record
    return records


def _check_games(
    games: Sequence[FinishedGame], records: Mapping[str, PlayerRecord], period: Period
) -> None:
    for game in games:
        if not period.start <= game.finished <= period.end:
            raise RatingError(
                f"a game finished on {game.finished} is not in the period "
                f"{period.start} to {period.end}"
            )
        for number in (game.white, game.black):
            if number not in records:
                raise RatingError(f"player {number} is not in the rating database")


def _active(
    games: Sequence[FinishedGame], playing: Iterable[str], records: Mapping[str, PlayerRecord]
) -> set[str]:
    """Who played in the period: every player of a finished game, rated or not, and those
    with a game in progress."""
    active = set(playing)
    unknown = sorted(active - records.keys())
    if unknown:
        raise RatingError(f"players {', '.join(unknown)} are not in the rating database")
    active.update(number for game in games for number in (game.white, game.black))
    return active


def _batches(games: Sequence[FinishedGame], ters: Mapping[str, int]) -> dict[str, list[Rated]]:
    """Each player's rated games of the period (E.II.4) against the opponents' TERs
    (E.II.3), in a fixed order so that the sums do not depend on the input's."""
    batches: dict[str, list[Rated]] = defaultdict(list)
    for game in games:
        for player, opponent, points in game.sides():
            if game.rated_for(player):
                batches[player].append(Rated(ters[opponent], points))
    for batch in batches.values():
        batch.sort(key=lambda rated: (rated.opponent, rated.score))
    return batches


def _rate(record: PlayerRecord, batch: Sequence[Rated]) -> PlayerRecord:
    if not batch:
        return record
    if record.established:
        return _rate_established(record, batch)
    return _rate_provisional(record, batch)


def _rate_established(record: PlayerRecord, batch: Sequence[Rated]) -> PlayerRecord:
    """E.V: k from the last list's rating and games, the cut-off and the V.5 bonus."""
    old = record.ter
    new = iecg_established(old, batch, iecg_k(old, record.games))
    wins, draws, losses = _tally(record, batch)
    return replace(record, rating=round_half_up(new), wins=wins, draws=draws, losses=losses)


def _rate_provisional(record: PlayerRecord, batch: Sequence[Rated]) -> PlayerRecord:
    """E.IV over all the player's games so far, the cut-off against the player's own TER;
    published from six games, established at the end of the period in which 15 are reached
    (E.IV.3)."""
    ter = record.ter
    total = record.opponents_total + sum(iecg_cut(ter, rated.opponent) for rated in batch)
    wins, draws, losses = _tally(record, batch)
    games = wins + draws + losses
    rating = None
    if games >= PUBLISHED_AFTER_GAMES:
        p = iecg_percentage(wins, draws, games)
        rating = round_half_up(iecg_provisional(total / games, p))
    return replace(
        record,
        rating=rating,
        established=games >= ESTABLISHED_AFTER_GAMES,
        opponents_total=total,
        wins=wins,
        draws=draws,
        losses=losses,
    )


def _tally(record: PlayerRecord, batch: Sequence[Rated]) -> tuple[int, int, int]:
    """The record's wins, draws and losses with the batch's added."""
    return (
        record.wins + sum(rated.score == 1 for rated in batch),
        record.draws + sum(rated.score == 0.5 for rated in batch),
        record.losses + sum(rated.score == 0 for rated in batch),
    )


# --- The list -------------------------------------------------------------------------------


def rating_list(players: Iterable[PlayerRecord]) -> tuple[ListEntry, ...]:
    """The list of the players still on it (E.VIII.5), highest first by the rating shown,
    or the TER where none is; equal ratings share a position, in the list and in the class
    (1, 2, 2, 4), and are ordered by membership number."""
    listed = sorted(
        (record for record in players if record.listed),
        key=lambda record: (-_shown(record), record.number),
    )
    first_at: dict[int, int] = {}
    first_in_class: dict[tuple[str, int], int] = {}
    class_sizes: Counter[str] = Counter()
    entries = []
    for index, record in enumerate(listed):
        name = rating_class(record.ter)
        shown = _shown(record)
        class_sizes[name] += 1
        position = first_at.setdefault(shown, index + 1)
        class_position = first_in_class.setdefault((name, shown), class_sizes[name])
        entries.append(_entry(record, position, class_position, name))
    return tuple(entries)


def _shown(record: PlayerRecord) -> int:
    """The figure the list ranks a player by: the rating, or the TER where none is shown."""
    return record.ter if record.rating is None else record.rating


def _entry(record: PlayerRecord, position: int, class_position: int, name: str) -> ListEntry:
    return ListEntry(
        position=position,
        class_position=class_position,
        rating_class=name,
        number=record.number,
        name=record.name,
        country=record.country,
        rating=record.rating,
        ter=record.ter,
        games=record.games,
        wins=record.wins,
        draws=record.draws,
        losses=record.losses,
        indicator=record.indicator,
    )


# --- CSV ------------------------------------------------------------------------------------

#: The CSV's header: the fields of E.II.5 a-j (i as three columns), with the class that
#: "position in class" ranks in.
RATING_LIST_FIELDS = (
    "position",
    "class position",
    "class",
    "membership number",
    "name",
    "country",
    "rating",
    "TER",
    "games",
    "wins",
    "draws",
    "losses",
    "indicator",
)
#: What a spreadsheet takes a cell starting with for a formula ("CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(text: str) -> str:
    """``text`` with a ``'`` before it when a spreadsheet would run it as a formula; plain
    numbers (``-12``, ``+3.5``) as they are."""
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def rating_list_csv(entries: Iterable[ListEntry]) -> str:
    """The list as CSV text: the header :data:`RATING_LIST_FIELDS`, one row per entry, an
    empty rating where none is published, every cell made safe (:func:`safe_cell`) since
    names and countries are anyone's words."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(RATING_LIST_FIELDS)
    for entry in entries:
        writer.writerow(safe_cell(cell) for cell in _cells(entry))
    return out.getvalue()


def _cells(entry: ListEntry) -> tuple[str, ...]:
    return (
        str(entry.position),
        str(entry.class_position),
        entry.rating_class,
        entry.number,
        entry.name,
        entry.country,
        "" if entry.rating is None else str(entry.rating),
        str(entry.ter),
        str(entry.games),
        str(entry.wins),
        str(entry.draws),
        str(entry.losses),
        entry.indicator.value,
    )
