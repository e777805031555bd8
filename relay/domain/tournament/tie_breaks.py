"""Standings with the tie-breaks of FIDE regulations C.07, 2024 edition (applied from
1 August 2024), and the Sonneborn-Berger of the IECG (seed 000 section C.14).

Names are the C.07 article 5 acronyms (see :mod:`relay.domain.tournament.tie_break_names`
for modifiers and :func:`parse_order`):

* DE (art. 6): points scored against the other participants tied with the player (on
  points and on every tie-break before DE in the order), counted only when all of them have
  met each other (6.1); otherwise 0 for the whole group. The partial cases of 6.2-6.3 are
  not decided here.
* WIN (7.1): rounds in which the player took a win's points, played or not (forfeit wins,
  full-point and pairing-allocated byes count). WON (7.2): games won over the board.
  BPG (7.3): games played with Black. BWG (7.4): games won with Black.
* PS (7.5): the sum of the running scores after each round; PS-C<n> leaves out the first n.
* BH (8.1): the opponents' scores; AOB (8.2): the average of the Buchholz of the opponents
  met over the board; FB (8.3): Buchholz with every last-round result taken as a draw.
* SB (9.1): the opponents' scores times the points taken from them; KS (9.2): the points
  taken from opponents who finished with at least half the rounds' points.
* ARO, TPR, APRO, PTP, APPO (10.1-10.5): :mod:`relay.domain.tournament.tie_break_ratings`.
* SB-IECG (seed 000 C.14): 100 % of the opponent's points for a won game, 50 % for a draw,
  0 % for a loss, summed over the games. The seed knows no adjustment, so the opponents'
  points are their real ones and a forfeit with a named opponent counts as a game.

Unplayed rounds (C.07 2024 article 16, "Unplayed Rounds Management in Swiss Tournaments"):

* 16.2 sorts them into five categories (:func:`tie_break_results.category`): pairing-
  allocated byes, forfeit wins, requested byes and absences followed by play, forfeit
  losses, and byes or absences after which the player plays no more (16.2.5).
* 16.3, the opponents' side: in an opponent's score as BH, FB, SB and AOB read it (the
  "adjusted score"), unplayed rounds of categories 16.2.1-16.2.4 count with the points
  awarded and those of category 16.2.5 as draws. (So not every unplayed round of an opponent
  is a draw: the 2009-2022 rule did that; since 2023 only a player who stopped playing has
  their missing rounds read as draws.)
* 16.4, the player's own side: each unplayed round counts as a game against a dummy that
  finished with the player's own score, the player scoring the points awarded. This
  replaced the 2009 "virtual opponent" (score before the round, plus the forfeit result,
  plus a draw per later round). The 2026 caps on the dummy's score are not applied.
* 16.5: cuts (-C<n>, and the low half of -M<n>) take voluntarily unplayed rounds (requested
  byes, absences, forfeit losses) first, the least significant of them first.
* Article 15.2 (round robins): forfeits are treated as regular games. With
  ``round_robin=True`` a forfeit naming its opponent counts against that opponent in the
  opponent-based tie-breaks and no score is adjusted.
* Article 10 tie-breaks use games played over the board only.

Rounds the caller does not list are not inferred: give every bye, forfeit and absence as an
:class:`Unplayed`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

from relay.domain.tournament.tie_break_names import (
    RATING_BASED,
    TieBreakName,
    UnknownTieBreakError,
    parse_name,
    parse_order,
)
from relay.domain.tournament.tie_break_ratings import (
    average_rating,
    perfect_performance,
    performance,
)
from relay.domain.tournament.tie_break_results import (
    VOLUNTARY,
    Category,
    Played,
    Unplayed,
    UnplayedKind,
    category,
)

__all__ = [
    "DEFAULT_ORDER",
    "Played",
    "Standing",
    "UnknownTieBreakError",
    "Unplayed",
    "UnplayedKind",
    "parse_order",
    "standings",
]

P = TypeVar("P", bound=Hashable)

#: Tie-breaks in the order they separate equal scores.
DEFAULT_ORDER = ("BH-C1", "BH", "SB", "WIN", "BPG")

_READY = frozenset({UnplayedKind.PAIRING_BYE, UnplayedKind.FORFEIT_WIN})


@dataclass(frozen=True, slots=True)
class Standing(Generic[P]):
    player: P
    points: float
    tie_breaks: dict[str, float]


@dataclass(frozen=True, slots=True)
class _Round(Generic[P]):
    """One round from one player's side."""

    number: int | None
    opponent: P | None  # the opponent met, or the scheduled one of a forfeit
    points: float
    played: bool  # over the board
    black: bool = False
    kind: UnplayedKind | None = None


@dataclass(frozen=True, slots=True)
class _Value:
    value: float
    voluntary: bool  # cut first (16.5)


def standings(
    players: Sequence[P],
    games: Iterable[Played[P]],
    ratings: Mapping[P, int | None] | None = None,
    order: Sequence[str] = DEFAULT_ORDER,
    *,
    unplayed: Iterable[Unplayed[P]] = (),
    rounds: int | None = None,
    round_robin: bool = False,
) -> list[Standing[P]]:
    """Every player with points and tie-breaks, best first; equal on everything, the order
    of ``players`` (start numbers) stays.

    ``order`` names the tie-breaks that rank; each is computed, and so are the
    :data:`DEFAULT_ORDER` ones and, given ``ratings``, ARO. ``rounds`` is the number of
    rounds of the event (Koya's 50 %, the last round for FB); by default the highest round
    number seen, or the most rounds any player has. Raises :class:`UnknownTieBreakError` for an
    unknown name and :class:`ValueError` for a rating tie-break without ratings or a result
    of someone not in ``players``."""
    names = [parse_name(name) for name in order]
    wanted = {str(name): name for name in names}
    for extra in (*DEFAULT_ORDER, *(("ARO",) if ratings is not None else ())):
        wanted.setdefault(extra, parse_name(extra))
    if ratings is None and any(name.base in RATING_BASED for name in names):
        raise ValueError("rating tie-breaks need the players' ratings")
    table = _Table(players, games, unplayed, rounds, round_robin, ratings or {})
    breaks = {
        player: {
            label: table.value(player, name) for label, name in wanted.items() if name.base != "DE"
        }
        for player in players
    }
    if "DE" in wanted:
        labels = [str(name) for name in names]
        before = labels[: labels.index("DE")] if "DE" in labels else []
        for player, value in table.direct_encounter(breaks, before).items():
            breaks[player]["DE"] = value
    rank = {player: index for index, player in enumerate(players)}
    result = [Standing(player, table.points[player], breaks[player]) for player in players]
    result.sort(
        key=lambda row: (
            -row.points,
            *(-row.tie_breaks[str(name)] for name in names),
            rank[row.player],
        )
    )
    return result


class _Table(Generic[P]):
    """Everyone's rounds and the scores the tie-breaks read."""

    def __init__(
        self,
        players: Sequence[P],
        games: Iterable[Played[P]],
        unplayed: Iterable[Unplayed[P]],
        rounds: int | None,
        round_robin: bool,
        ratings: Mapping[P, int | None],
    ) -> None:
        self.round_robin = round_robin
        self.ratings = ratings
        self.rounds: dict[P, list[_Round[P]]] = {player: [] for player in players}
        for game in games:
            self._add(game.white, _Round(game.round, game.black, game.white_points, True))
            self._add(game.black, _Round(game.round, game.white, game.black_points, True, True))
        for entry in unplayed:
            self._add(
                entry.player,
                _Round(entry.round, entry.opponent, entry.points, False, kind=entry.kind),
            )
        numbers = [r.number for rs in self.rounds.values() for r in rs if r.number is not None]
        most = max((len(rs) for rs in self.rounds.values()), default=0)
        self.total = rounds if rounds is not None else max(numbers, default=most)
        self.points = {p: float(sum(r.points for r in rs)) for p, rs in self.rounds.items()}
        self.adjusted = {
            p: sum(self._value_for_opponents(p, r) for r in rs) for p, rs in self.rounds.items()
        }
        self.fore = {p: self._fore(p, self.points[p], False) for p in self.rounds}
        self.fore_adjusted = {p: self._fore(p, self.adjusted[p], True) for p in self.rounds}
        self._bh: dict[P, float] = {}
        self._tpr: dict[P, int | None] = {}
        self._ptp: dict[P, int | None] = {}

    def _add(self, player: P, round_: _Round[P]) -> None:
        if player not in self.rounds:
            raise ValueError(f"a result for {player!r}, who is not among the players")
        self.rounds[player].append(round_)

    # --- article 16 ------------------------------------------------------------------------

    def _category(self, player: P, round_: _Round[P]) -> Category | None:
        if round_.kind is None:
            return None
        later = round_.number is None or any(
            other.number is not None
            and other.number > round_.number
            and (other.played or other.kind in _READY)
            for other in self.rounds[player]
        )
        return category(round_.kind, plays_later=later)

    def _opponent(self, round_: _Round[P]) -> P | None:
        """Whom the round counts against in opponent-based tie-breaks (None: the dummy)."""
        if round_.played or (self.round_robin and round_.opponent is not None):
            return round_.opponent
        return None

    def _fore(self, player: P, score: float, adjusted: bool) -> float:
        last = [r for r in self.rounds[player] if r.number == self.total]
        taken = sum(self._value_for_opponents(player, r) if adjusted else r.points for r in last)
        return score - taken + 0.5 * len(last)

    def _value_for_opponents(self, player: P, round_: _Round[P]) -> float:
        if not self.round_robin and self._category(player, round_) is Category.NOT_PLAYING_ON:
            return 0.5
        return round_.points

    # --- values ----------------------------------------------------------------------------

    def value(self, player: P, name: TieBreakName) -> float:
        return float(self._value(player, name))  # an empty sum() is the int 0

    def _value(self, player: P, name: TieBreakName) -> float:
        rounds = self.rounds[player]
        base = name.base
        if base in ("BH", "FB", "SB"):
            return _modified(self._contributions(player, base), name)
        if base == "WIN":
            return float(sum(1 for r in rounds if r.points == 1.0))
        if base == "WON":
            return float(sum(1 for r in rounds if r.played and r.points == 1.0))
        if base == "BPG":
            return float(sum(1 for r in rounds if r.played and r.black))
        if base == "BWG":
            return float(sum(1 for r in rounds if r.played and r.black and r.points == 1.0))
        if base == "PS":
            ordered = sorted(rounds, key=lambda r: (r.number is None, r.number or 0))
            running = [sum(r.points for r in ordered[: i + 1]) for i in range(len(ordered))]
            return sum(running[name.count :])
        if base == "AOB":
            met = [self.buchholz(r.opponent) for r in rounds if r.played and r.opponent is not None]
            return sum(met) / len(met) if met else 0.0
        if base == "KS":
            return sum(
                r.points
                for r in rounds
                if r.opponent is not None and self.points[r.opponent] * 2 >= self.total
            )
        if base == "SB-IECG":
            return sum(self.points[r.opponent] * r.points for r in rounds if r.opponent is not None)
        return self._rating_based(player, name)

    def _contributions(self, player: P, base: str) -> list[_Value]:
        own = self.fore[player] if base == "FB" else self.points[player]
        scores = self.fore_adjusted if base == "FB" else self.adjusted
        values = []
        for round_ in self.rounds[player]:
            opponent = self._opponent(round_)
            score = own if opponent is None else scores[opponent]
            weight = round_.points if base == "SB" else 1.0
            voluntary = opponent is None and round_.kind in VOLUNTARY
            values.append(_Value(score * weight, voluntary))
        return values

    def buchholz(self, player: P) -> float:
        if player not in self._bh:
            self._bh[player] = sum(v.value for v in self._contributions(player, "BH"))
        return self._bh[player]

    def _rated(self, player: P) -> tuple[list[int], float]:
        """Ratings of the rated opponents met over the board, and the points from them."""
        opponents, score = [], 0.0
        for round_ in self.rounds[player]:
            if round_.played and round_.opponent is not None:
                rating = self.ratings.get(round_.opponent)
                if rating is not None:
                    opponents.append(rating)
                    score += round_.points
        return opponents, score

    def _rating_based(self, player: P, name: TieBreakName) -> float:
        opponents, score = self._rated(player)
        if name.base == "ARO":
            result = average_rating(opponents, cut=name.count)
        elif name.base == "TPR":
            result = performance(opponents, score)
        elif name.base == "PTP":
            result = perfect_performance(opponents, score)
        else:  # APRO, APPO
            of = self._performance if name.base == "APRO" else self._perfect
            values = [
                value
                for r in self.rounds[player]
                if r.played
                and r.opponent is not None
                and self.ratings.get(r.opponent) is not None
                and (value := of(r.opponent)) is not None
            ]
            result = average_rating(values)
        return float(result) if result is not None else 0.0

    def _performance(self, player: P) -> int | None:
        if player not in self._tpr:
            self._tpr[player] = performance(*self._rated(player))
        return self._tpr[player]

    def _perfect(self, player: P) -> int | None:
        if player not in self._ptp:
            self._ptp[player] = perfect_performance(*self._rated(player))
        return self._ptp[player]

    # --- article 6 -------------------------------------------------------------------------

    def direct_encounter(
        self, breaks: Mapping[P, Mapping[str, float]], before: Sequence[str]
    ) -> dict[P, float]:
        groups: dict[tuple[float, ...], list[P]] = defaultdict(list)
        for player in self.rounds:
            groups[(self.points[player], *(breaks[player][n] for n in before))].append(player)
        result = dict.fromkeys(self.rounds, 0.0)
        for group in groups.values():
            tied = set(group)
            met = {
                frozenset((player, opponent))
                for player in group
                for r in self.rounds[player]
                if (opponent := self._opponent(r)) in tied
            }
            if len(group) < 2 or any(frozenset(pair) not in met for pair in combinations(group, 2)):
                continue
            for player in group:
                result[player] = sum(
                    r.points for r in self.rounds[player] if self._opponent(r) in tied
                )
        return result


def _modified(values: list[_Value], name: TieBreakName) -> float:
    """Article 14 modifiers with the 16.5 rule: low cuts take voluntarily unplayed rounds
    first, then the lowest values; a median also drops the highest."""
    if not name.modifier:
        return sum(v.value for v in values)
    low_first = sorted(values, key=lambda v: (not v.voluntary, v.value))
    kept = sorted(v.value for v in low_first[name.count :])
    if name.modifier == "M":
        kept = kept[: max(0, len(kept) - name.count)]
    return sum(kept)
