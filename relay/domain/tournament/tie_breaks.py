"""Standings with the tie-breaks of FIDE C.07, Play-Off and Tie-Break Regulations, in the
2024 edition (applied from 1 August 2024) or the 2026 one (applied from 1 March 2026): see
:mod:`relay.domain.tournament.tie_break_editions`. The two differ here only in article 16.4;
"C.07" below is either edition, "C.07 (2026)" the newer alone. Also the Sonneborn-Berger of
the IECG (seed 000 section C.14).

Names are the C.07 article 5 acronyms (see :mod:`relay.domain.tournament.tie_break_names`
for modifiers and :func:`parse_order`):

* DE (art. 6): :mod:`relay.domain.tournament.tie_break_encounters`, among the participants
  tied with the player on points and on every tie-break before DE in the order.
* WIN (7.1): rounds in which the player took a win's points, played or not (forfeit wins,
  full-point and pairing-allocated byes count). WON (7.2): games won over the board.
  BPG (7.3): games played with Black. BWG (7.4): games won with Black.
* PS (7.5): the sum of the running scores after each round; PS-C<n> leaves out the first n.
* BH (8.1): the opponents' scores; AOB (8.2): the average of the Buchholz of the opponents
  met over the board; FB (8.3): Buchholz with every game of the last round taken as a draw.
  A forfeit of the last round is such a game, against its scheduled opponent (so an absence
  before it is one followed by a game, 16.2.3); a bye of the last round is not, and keeps
  its points.
* SB (9.1): the opponents' scores times the points taken from them; KS (9.2): the points
  taken from opponents who finished with at least half the rounds' points.
* ARO, TPR, PTP, APRO, APPO (10.1-10.5): :mod:`relay.domain.tournament.tie_break_ratings`.
* SB-IECG (seed 000 C.14): 100 % of the opponent's points for a won game, 50 % for a draw,
  0 % for a loss, summed over the games. The seed knows no adjustment, so the opponents'
  points are their real ones and a forfeit with a named opponent counts as a game.

Unplayed rounds (C.07 article 16, "Unplayed Rounds Management in Swiss Tournaments"):

* 16.2 sorts them into five categories (:func:`tie_break_results.category`): pairing-
  allocated and full-point byes, forfeit wins, requested byes and absences followed by a
  round that is not voluntarily unplayed, forfeit losses, and requested byes or absences
  followed only by voluntarily unplayed rounds, or in the last round (16.2.5).
* 16.3, the opponents' side: in an opponent's score as BH, FB, SB and AOB read it (the
  "adjusted score"), unplayed rounds of categories 16.2.1-16.2.4 count with the points
  awarded and those of category 16.2.5 as draws.
* 16.4, the player's own side: each unplayed round counts as a game against a dummy, the
  player scoring the points awarded. The dummy's score is the player's own (for FB, their
  fore score). C.07 (2026) caps it: no more than the scheduled opponent's adjusted score
  for a forfeit, won or lost (16.4.1), and no more than a draw's points times the number of
  rounds for every other unplayed round (16.4.2). The number of rounds is the ``rounds``
  the standings are computed over.
* Article 14, modifiers: a cut (-C<n>) drops the n least significant values, a median
  (-M<n>) the n most significant too. The least significant value is the one of the
  opponent with the lowest score (for BH and FB the lowest value; for SB, whose values are
  scores times points, not always); the most significant, the highest-scoring opponent's.
* 16.5: a cut of a player with voluntarily unplayed rounds (requested byes, absences,
  forfeit losses; 16.1.2) takes the lowest contribution of such a round instead, as long as
  it is not lower than the least significant value, and so again at each further cut.
  (FIDE's tie-break checker picks the round with the lowest dummy score instead, which in
  the 2026 edition can be another round; the words of 16.5.1 say "the lowest
  contribution".)
* Article 15.2 (round robins): forfeits are treated as regular games. With
  ``round_robin=True`` a forfeit naming its opponent counts against that opponent in the
  opponent-based tie-breaks and no score is adjusted. C.07 (2026) keeps every forfeit out
  of the rating-based tie-breaks and forfeit losses out of article 7's: so do both editions
  here, as article 10 uses games played over the board only, and WIN, WON, BPG and BWG never
  count a forfeit loss.

Rounds the caller does not list are not inferred: give every bye, forfeit and absence as an
:class:`Unplayed`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from relay.domain.tournament.tie_break_editions import Edition
from relay.domain.tournament.tie_break_encounters import direct_encounter
from relay.domain.tournament.tie_break_names import (
    TieBreak,
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
    FORFEITS,
    VOLUNTARY,
    Category,
    Played,
    Unplayed,
    UnplayedKind,
    category,
)

__all__ = [
    "DEFAULT_ORDER",
    "Edition",
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
#: The points of a draw (C.07 (2026) 16.4.2 caps a dummy at this times the rounds).
DRAW = 0.5


@dataclass(frozen=True, slots=True)
class Standing(Generic[P]):
    player: P
    points: float
    tie_breaks: dict[str, float]
    #: The place: shared (C.07 2.1, 4.2) by the players equal in points and in every
    #: tie-break of the tournament's order; the next place after a shared one counts them.
    rank: int = 0
    shared: bool = False

    @property
    def place(self) -> str:
        """The place as it is written: ``"2="`` when shared, else ``"2"``."""
        return f"{self.rank}=" if self.shared else str(self.rank)


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
    """One round's part of BH, FB or SB."""

    value: float
    score: float  # the opponent's (or the dummy's) score: what makes a value least significant
    voluntary: bool  # a voluntarily unplayed round, cut first (16.5)


def standings(
    players: Sequence[P],
    games: Iterable[Played[P]],
    ratings: Mapping[P, int | None] | None = None,
    order: Sequence[str] = DEFAULT_ORDER,
    *,
    edition: Edition,
    unplayed: Iterable[Unplayed[P]] = (),
    rounds: int | None = None,
    round_robin: bool = False,
) -> list[Standing[P]]:
    """Every player with points and tie-breaks, best first; equal on everything, the order
    of ``players`` (start numbers) stays.

    ``order`` names the tie-breaks that rank; each is computed, and so are the
    :data:`DEFAULT_ORDER` ones and, given ``ratings``, ARO. ``edition`` is the C.07 edition
    that ranks the tournament. ``rounds`` is the number of rounds of the event (Koya's 50 %,
    the last round for FB, the 2026 cap of 16.4.2); by default the highest round number
    seen, or the most rounds any player has. Raises :class:`UnknownTieBreakError` for an
    unknown name and :class:`ValueError` for a rating tie-break without ratings, a result
    of someone not in ``players``, or, in the 2026 edition, a forfeit counted against a
    dummy without its scheduled opponent."""
    names = [parse_name(name) for name in order]
    wanted = {str(name): name for name in names}
    for extra in (*DEFAULT_ORDER, *(("ARO",) if ratings is not None else ())):
        wanted.setdefault(extra, parse_name(extra))
    if ratings is None and any(name.base.rating_based for name in names):
        raise ValueError("rating tie-breaks need the players' ratings")
    table = _Table(players, games, unplayed, rounds, round_robin, ratings or {}, edition)
    breaks = {
        player: {
            label: table.value(player, name)
            for label, name in wanted.items()
            if name.base is not TieBreak.DE
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

    def level(row: Standing[P]) -> tuple[float, ...]:
        return (-row.points, *(-row.tie_breaks[str(name)] for name in names))

    result.sort(key=lambda row: (*level(row), rank[row.player]))
    levels = Counter(level(row) for row in result)
    first: dict[tuple[float, ...], int] = {}
    return [
        replace(
            row,
            rank=first.setdefault(level(row), index),
            shared=levels[level(row)] > 1,
        )
        for index, row in enumerate(result, start=1)
    ]


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
        edition: Edition,
    ) -> None:
        self.round_robin = round_robin
        self.ratings = ratings
        self.edition = edition
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
        self.fore = {p: self._fore(p, False) for p in self.rounds}
        self.fore_adjusted = {p: self._fore(p, True) for p in self.rounds}
        self._bh: dict[P, float] = {}
        self._tpr: dict[P, int | None] = {}
        self._ptp: dict[P, int | None] = {}

    def _add(self, player: P, round_: _Round[P]) -> None:
        if player not in self.rounds:
            raise ValueError(f"a result for {player!r}, who is not among the players")
        self.rounds[player].append(round_)

    # --- article 16 ------------------------------------------------------------------------

    def _category(self, player: P, round_: _Round[P], *, fore: bool = False) -> Category | None:
        """The round's 16.2 category; ``fore``: as FB sees the event, in which a forfeit of
        the last round is a game played."""
        if round_.kind is None:
            return None
        later = round_.number is None or any(
            other.number is not None
            and other.number > round_.number
            and (
                other.played
                or other.kind not in VOLUNTARY
                or (fore and self._last_round_encounter(other))
            )
            for other in self.rounds[player]
        )
        return category(round_.kind, plays_later=later)

    def _opponent(self, round_: _Round[P], *, fore: bool = False) -> P | None:
        """Whom the round counts against in opponent-based tie-breaks (None: the dummy).
        ``fore``: as FB reads it, a forfeit of the last round is a game (8.3)."""
        if round_.played or (self.round_robin and round_.opponent is not None):
            return round_.opponent
        if fore and self._last_round_encounter(round_):
            return round_.opponent
        return None

    def _last_round_encounter(self, round_: _Round[P]) -> bool:
        """A game or a forfeit (with its scheduled opponent) of the last round: FB's draws."""
        return round_.number == self.total and (
            round_.played or (round_.kind in FORFEITS and round_.opponent is not None)
        )

    def _fore(self, player: P, adjusted: bool) -> float:
        """The player's score as FB sees the event: every game of the last round (a forfeit
        too) a draw; ``adjusted``: as the opponents read it (16.3) in that event."""
        total = 0.0
        for r in self.rounds[player]:
            if self._last_round_encounter(r):
                total += DRAW
            elif adjusted:
                total += self._value_for_opponents(player, r, fore=True)
            else:
                total += r.points
        return total

    def _value_for_opponents(self, player: P, round_: _Round[P], *, fore: bool = False) -> float:
        if (
            self.round_robin
            or self._category(player, round_, fore=fore) is not Category.NOT_PLAYING_ON
        ):
            return round_.points
        return DRAW

    def _dummy(self, player: P, round_: _Round[P], own: float, scores: Mapping[P, float]) -> float:
        """The dummy's score for an unplayed round (16.4): the player's ``own``, capped by
        C.07 (2026) at the scheduled opponent's ``scores`` entry for a forfeit (16.4.1) and
        at a draw's points times the rounds for every other unplayed round (16.4.2)."""
        if self.edition is Edition.FIDE_2024:
            return own
        if round_.kind in FORFEITS:
            if round_.opponent is None:
                raise ValueError(
                    f"a forfeit of {player!r} in round {round_.number} names no scheduled "
                    "opponent, whose adjusted score C.07 (2026) 16.4.1 needs"
                )
            return min(own, scores[round_.opponent])
        return min(own, DRAW * self.total)

    # --- values ----------------------------------------------------------------------------

    def value(self, player: P, name: TieBreakName) -> float:
        return float(self._value(player, name))  # an empty sum() is the int 0

    def _value(self, player: P, name: TieBreakName) -> float:
        rounds = self.rounds[player]
        base = name.base
        if base in (TieBreak.BH, TieBreak.FB, TieBreak.SB):
            return _modified(self._contributions(player, base), name)
        if base is TieBreak.WIN:
            return float(sum(1 for r in rounds if r.points == 1.0))
        if base is TieBreak.WON:
            return float(sum(1 for r in rounds if r.played and r.points == 1.0))
        if base is TieBreak.BPG:
            return float(sum(1 for r in rounds if r.played and r.black))
        if base is TieBreak.BWG:
            return float(sum(1 for r in rounds if r.played and r.black and r.points == 1.0))
        if base is TieBreak.PS:
            ordered = sorted(rounds, key=lambda r: (r.number is None, r.number or 0))
            running = [sum(r.points for r in ordered[: i + 1]) for i in range(len(ordered))]
            return sum(running[name.count :])
        if base is TieBreak.AOB:
            met = [self.buchholz(r.opponent) for r in rounds if r.played and r.opponent is not None]
            return sum(met) / len(met) if met else 0.0
        if base is TieBreak.KS:
            return sum(
                r.points
                for r in rounds
                if r.opponent is not None and self.points[r.opponent] * 2 >= self.total
            )
        if base is TieBreak.SB_IECG:
            return sum(self.points[r.opponent] * r.points for r in rounds if r.opponent is not None)
        return self._rating_based(player, name)

    def _contributions(self, player: P, base: TieBreak) -> list[_Value]:
        fore = base is TieBreak.FB
        own = self.fore[player] if fore else self.points[player]
        scores = self.fore_adjusted if fore else self.adjusted
        values = []
        for round_ in self.rounds[player]:
            opponent = self._opponent(round_, fore=fore)
            if opponent is None:
                score = self._dummy(player, round_, own, scores)
            else:
                score = scores[opponent]
            weight = round_.points if base is TieBreak.SB else 1.0
            voluntary = opponent is None and round_.kind in VOLUNTARY
            values.append(_Value(score * weight, score, voluntary))
        return values

    def buchholz(self, player: P) -> float:
        if player not in self._bh:
            self._bh[player] = sum(v.value for v in self._contributions(player, TieBreak.BH))
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
        if name.base is TieBreak.ARO:
            result = average_rating(opponents, cut=name.count)
        elif name.base is TieBreak.TPR:
            result = performance(opponents, score)
        elif name.base is TieBreak.PTP:
            result = perfect_performance(opponents, score)
        else:  # APRO, APPO
            of = self._performance if name.base is TieBreak.APRO else self._perfect
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
        """DE for everyone, each within the group tied with them on points and on the
        tie-breaks ``before`` DE."""
        groups: dict[tuple[float, ...], list[P]] = defaultdict(list)
        for player in self.rounds:
            groups[(self.points[player], *(breaks[player][n] for n in before))].append(player)
        result: dict[P, float] = {}
        for group in groups.values():
            result |= direct_encounter(group, self._encounters)
        return result

    def _encounters(self, player: P) -> list[tuple[P, float]]:
        """The player's encounters DE counts (6.1.1: games over the board; in a round robin
        forfeits too, 15.2), each with the points the player took."""
        return [
            (opponent, r.points)
            for r in self.rounds[player]
            if (opponent := self._opponent(r)) is not None
        ]


def _modified(values: list[_Value], name: TieBreakName) -> float:
    """Article 14 modifiers with article 16.5. The least significant value (14.1.1) is the
    one of the lowest-scoring opponent (for BH and FB the lowest value; for SB not always);
    the most significant, the one of the highest-scoring opponent. A low cut of a player
    with voluntarily unplayed rounds takes the lowest contribution of such a round instead,
    as long as it is not lower than the least significant value (16.5.1), and so again at
    each further cut (16.5.2). A median (-M) also drops the most significant values."""
    kept = list(values)
    for _ in range(min(name.count, len(kept))):
        least = min(kept, key=lambda v: (v.score, v.value))
        voluntary = [v for v in kept if v.voluntary]
        lowest = min(voluntary, key=lambda v: v.value) if voluntary else None
        kept.remove(lowest if lowest is not None and lowest.value >= least.value else least)
    if name.modifier == "M":
        for _ in range(min(name.count, len(kept))):
            kept.remove(max(kept, key=lambda v: (v.score, v.value)))
    return sum(v.value for v in kept)
