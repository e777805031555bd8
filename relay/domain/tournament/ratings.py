"""Rating systems the seeds and FIDE describe, as pure arithmetic over results.

* FIDE Elo (regulations B.02): the expected-score table with the 400-point rule, K factors,
  rating change, and the performance rating from the dp table.
* New players' ratings by seed 004 appendix 4, with its subtraction table.
* IECG (seed 000 section E): the logistic expectancy, provisional and established ratings.
* Harkness (seed 003 section IV.B) and the WOLC performance formula (IV.C.2).
* Ladder points (seed 002).

A score is the points a player took from one game: 0, 0.5 or 1. A game is seen from one
player's side as :class:`Rated` (the opponent's rating and the player's score). Results are
exact where the rules are tabular (hundredths of a point are counted as integers) and left
unrounded where a rule rounds only the published figure; :func:`round_half_up` is that step.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from relay.domain.errors import InvalidInputError

SCORES = (0.0, 0.5, 1.0)


class RatingError(ValueError, InvalidInputError):
    """Input a rating rule does not cover: a score other than 0, ½ or 1, no games, a
    fraction outside 0..1, or a case outside a seed's table."""


@dataclass(frozen=True, slots=True)
class Rated:
    """One game from a player's side: the opponent's rating and the player's score."""

    opponent: float
    score: float

    def __post_init__(self) -> None:
        _check_score(self.score)


def _check_score(score: float) -> None:
    if score not in SCORES:
        raise RatingError(f"a game scores 0, 0.5 or 1, not {score!r}")


def round_half_up(value: float) -> int:
    """Round to a whole number with .5 going up, as FIDE rounds ratings and rating changes
    (B.02 8.3: "0.5 is rounded up, whether the change is positive or negative")."""
    return math.floor(Fraction(value) + Fraction(1, 2))


# --- FIDE Elo ----------------------------------------------------------------------------

#: FIDE B.02 table 8.1.2 (8.1(b) in earlier editions): the highest rating difference of each
#: band and the higher-rated player's expected score in hundredths; above 735 it is 1.00.
FIDE_EXPECTED_BANDS: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57),
    (61, 58), (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65),
    (121, 66), (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73),
    (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81),
    (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89),
    (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97),
    (619, 98), (735, 99),
)  # fmt: skip

#: FIDE B.02 table 8.1.1 (8.1(a)): dp for a fractional score p of .50 to 1.00, by p in
#: hundredths; below .50, dp(p) = -dp(1 - p). The 1.00 entry (800) is the current one; older
#: editions called dp for a 100 % or 0 % score "indeterminate".
FIDE_DP: dict[int, int] = {
    100: 800, 99: 677, 98: 589, 97: 538, 96: 501, 95: 470, 94: 444, 93: 422, 92: 401,
    91: 383, 90: 366, 89: 351, 88: 336, 87: 322, 86: 309, 85: 296, 84: 284, 83: 273,
    82: 262, 81: 251, 80: 240, 79: 230, 78: 220, 77: 211, 76: 202, 75: 193, 74: 184,
    73: 175, 72: 166, 71: 158, 70: 149, 69: 141, 68: 133, 67: 125, 66: 117, 65: 110,
    64: 102, 63: 95, 62: 87, 61: 80, 60: 72, 59: 65, 58: 57, 57: 50, 56: 43, 55: 36,
    54: 29, 53: 21, 52: 14, 51: 7, 50: 0,
}  # fmt: skip

#: The 400-point rule (B.02 8.3.1 in the 2022 and later editions; 350 points before 2009):
#: a larger difference counts as 400 "for rating purposes".
FIDE_MAX_DIFFERENCE = 400

_BAND_LIMITS = [limit for limit, _ in FIDE_EXPECTED_BANDS]


def fide_expected_hundredths(difference: float, *, cap: int | None = FIDE_MAX_DIFFERENCE) -> int:
    """The expected score, in hundredths, of a player whose rating exceeds the opponent's by
    ``difference`` (negative when lower), from FIDE B.02 table 8.1.2; a fractional difference
    above a band's top falls in the next band. ``cap`` is the
    400-point rule; pass ``None`` for the whole table (up to 1.00 beyond 735), which the
    title regulations use."""
    if cap is not None:
        difference = max(-cap, min(cap, difference))
    band = bisect_left(_BAND_LIMITS, math.ceil(abs(difference)))
    higher = FIDE_EXPECTED_BANDS[band][1] if band < len(FIDE_EXPECTED_BANDS) else 100
    return higher if difference >= 0 else 100 - higher


def fide_expected(difference: float, *, cap: int | None = FIDE_MAX_DIFFERENCE) -> float:
    """:func:`fide_expected_hundredths` as a fraction of a point (FIDE B.02 table 8.1.2)."""
    return fide_expected_hundredths(difference, cap=cap) / 100


def fide_rating_change(
    rating: float, games: Iterable[Rated], k: int, *, cap: int | None = FIDE_MAX_DIFFERENCE
) -> float:
    """Sum of K x (score - expected) over the games (FIDE B.02 8.3), unrounded; FIDE
    publishes :func:`round_half_up` of it."""
    hundredths = sum(
        round(game.score * 100) - fide_expected_hundredths(rating - game.opponent, cap=cap)
        for game in games
    )
    return k * hundredths / 100


def fide_k_factor(
    rating: float,
    *,
    games_played: int,
    junior: bool = False,
    reached_2400: bool = False,
    games_in_period: int | None = None,
) -> int:
    """The development coefficient of FIDE B.02 8.3.3 for standard play: 40 for a player new
    to the list until 30 games are completed, and for a junior (under 18) while rated under
    2300; 20 while under 2400; 10 once a published rating has reached 2400, even if it falls
    again. When K x the games of one rating period would exceed 700, K is the largest whole
    number keeping it within 700."""
    if games_played < 30 or (junior and rating < 2300):
        k = 40
    elif reached_2400 or rating >= 2400:
        k = 10
    else:
        k = 20
    if games_in_period and k * games_in_period > 700:
        k = 700 // games_in_period
    return k


def fraction_hundredths(score: float, games: int) -> int:
    """The fractional score ``score / games`` in hundredths, rounded half up, as the FIDE
    tables take it (p "to two decimal places")."""
    if games <= 0:
        raise RatingError("a fractional score needs at least one game")
    if not 0 <= score <= games:
        raise RatingError(f"a score of {score} from {games} games")
    return math.floor(Fraction(score) * 100 / games + Fraction(1, 2))


def fide_dp(hundredths: int) -> int:
    """dp for a fractional score given in hundredths (FIDE B.02 table 8.1.1): +800 for
    100 % and -800 for 0 %."""
    if not 0 <= hundredths <= 100:
        raise RatingError(f"a fractional score is 0 to 100 hundredths, not {hundredths}")
    return FIDE_DP[hundredths] if hundredths >= 50 else -FIDE_DP[100 - hundredths]


def fide_performance(opponents: Sequence[float], score: float) -> float:
    """Rp = Ra + dp (FIDE B.02 8.2 / B.01 1.4.8): Ra the opponents' average rating, dp from
    table 8.1.1 for the score over those games (a 100 % score gives Ra + 800, 0 % Ra - 800).
    Unrounded: the rules that use it say how they round."""
    if not opponents:
        raise RatingError("a performance needs at least one rated opponent")
    average = sum(opponents) / len(opponents)
    return average + fide_dp(fraction_hundredths(score, len(opponents)))


# --- New players, seed 004 appendix 4 ---------------------------------------------------------

#: Seed 004 appendix 4 rule 7(d): what to subtract from Ra, by (number of games, score in
#: half points), for scores under 50 %, exactly as the seed prints it.
NEW_PLAYER_SUBTRACTION: dict[tuple[int, int], int] = {
    (3, 0): 735, (3, 1): 273, (3, 2): 125,
    (4, 0): 735, (4, 1): 322, (4, 2): 193, (4, 3): 87,
    (5, 0): 735, (5, 1): 366, (5, 2): 240, (5, 3): 149, (5, 4): 72,
    (6, 0): 735, (6, 1): 401, (6, 2): 273, (6, 3): 193, (6, 4): 125, (6, 5): 57,
    (7, 0): 735, (7, 1): 422, (7, 2): 309, (7, 3): 230, (7, 4): 158, (7, 5): 102, (7, 6): 50,
    (8, 0): 735, (8, 1): 444, (8, 2): 322, (8, 3): 251, (8, 4): 193, (8, 5): 141, (8, 6): 87,
    (8, 7): 43,
    (9, 0): 735, (9, 1): 444, (9, 2): 351, (9, 3): 273, (9, 4): 220, (9, 5): 166, (9, 6): 125,
    (9, 7): 80, (9, 8): 43,
    (10, 0): 735, (10, 1): 470, (10, 2): 366, (10, 3): 296, (10, 4): 240, (10, 5): 193,
    (10, 6): 149, (10, 7): 110, (10, 8): 72, (10, 9): 36,
    (11, 0): 735, (11, 1): 470, (11, 2): 366, (11, 3): 383, (11, 4): 262, (11, 5): 211,
    (11, 6): 175, (11, 7): 133, (11, 8): 102, (11, 9): 65, (11, 10): 36,
    (12, 0): 735, (12, 1): 501, (12, 2): 401, (12, 3): 322, (12, 4): 273, (12, 5): 230,
    (12, 6): 193, (12, 7): 158, (12, 8): 125, (12, 9): 87, (12, 10): 57, (12, 11): 29,
    (13, 0): 735, (13, 1): 501, (13, 2): 401, (13, 3): 336, (13, 4): 296, (13, 5): 251,
    (13, 6): 211, (13, 7): 175, (13, 8): 141, (13, 9): 110, (13, 10): 87, (13, 11): 57,
    (13, 12): 29,
    (14, 0): 735, (14, 1): 501, (14, 2): 422, (14, 3): 351, (14, 4): 309, (14, 5): 262,
    (14, 6): 230, (14, 7): 193, (14, 8): 158, (14, 9): 133, (14, 10): 102, (14, 11): 80,
    (14, 12): 50, (14, 13): 29,
}  # fmt: skip

#: Seed 004 appendix 4 rules 3 and 5: rated opponents for a rating from one event alone, and
#: the fewest for the event to count at all.
NEW_PLAYER_GAMES_FOR_RATING = 9
NEW_PLAYER_MINIMUM_OPPONENTS = 3


def new_player_performance(
    opponents: Sequence[float], score: float, *, first_event: bool = True, per_point: float = 12.5
) -> float | None:
    """The rating performance Ru of a previously unrated player (seed 004 appendix 4 rule 7)
    over the games against rated ``opponents``: Ra at 50 %, Ra + ``per_point`` for each point
    over 50 %, Ra minus the seed's table under 50 %. ``None`` when the seed says the result
    does not count: under 3 rated opponents (rule 5), or 0 or ½ in a first event (rule 6).

    The seed reads "12.5 for each point over 50%"; FIDE's rule of the time gave 12.5 per
    *half* point (half of K = 25): pass ``per_point=25`` for that reading."""
    games = len(opponents)
    if not 0 <= score <= games or score * 2 != int(score * 2):
        raise RatingError(f"a score of {score} from {games} games")
    if games < NEW_PLAYER_MINIMUM_OPPONENTS or (first_event and score <= 0.5):
        return None
    average = sum(opponents) / games
    excess = score - games / 2
    if excess >= 0:
        return average + per_point * excess
    subtract = NEW_PLAYER_SUBTRACTION.get((games, int(score * 2)))
    if subtract is None:
        raise RatingError(f"seed 004's table stops at 14 games; {games} were played")
    return average - subtract


# --- IECG, seed 000 section E -----------------------------------------------------------------

#: Seed 000 E.VII.3: the starting rating of a new player without any other rating.
IECG_STARTING_RATING = 800
#: Seed 000 E.III.8: the rating cut-off.
IECG_CUTOFF = 400


def iecg_expected(difference: float) -> float:
    """P(D) = 1 / (1 + 10^(-D/400)) (seed 000 E.I.3), D the player's rating minus the
    opponent's."""
    return 1 / (1 + 10 ** (-difference / 400))


def iecg_difference(p: float) -> float:
    """D(p) = -400 log10((1 - p) / p), with D(0) = -800 and D(1) = 800 (seed 000 E.I.4)."""
    if not 0 <= p <= 1:
        raise RatingError(f"a percentage result is 0 to 1, not {p}")
    if p == 0:
        return -800.0
    if p == 1:
        return 800.0
    return -400 * math.log10((1 - p) / p)


def iecg_percentage(wins: int, draws: int, games: int) -> float:
    """p = (2W + D) / (2N) (seed 000 E.I.6)."""
    if games <= 0 or wins + draws > games or min(wins, draws) < 0:
        raise RatingError(f"{wins} wins and {draws} draws from {games} games")
    return (2 * wins + draws) / (2 * games)


def iecg_cut(rating: float, opponent: float) -> float:
    """The opponent's rating as the cut-off counts it: no more than 400 above or below the
    player's (seed 000 E.III.8)."""
    return max(rating - IECG_CUTOFF, min(rating + IECG_CUTOFF, opponent))


def iecg_provisional(average: float, p: float, *, first_fifteen: bool = True) -> float:
    """Rp = Rc + D(p) x F with F = -2p² + 2p + 0.5 (seed 000 E.IV.1); over 75 % in the first
    15 games, plus (2600 - Rc) x p² / 10 (E.IV.4). ``average`` is Rc, the opponents' average
    (after :func:`iecg_cut`)."""
    factor = -2 * p * p + 2 * p + 0.5
    rating = average + iecg_difference(p) * factor
    if first_fifteen and p > 0.75:
        rating += (2600 - average) * p * p / 10
    return rating


def iecg_k(rating: float, games: int) -> float:
    """k = r x p (seed 000 E.V.3): r = 20 up to 2000, 70 - Ro/40 between, 10 from 2400; p =
    1.5 up to 15 games, 1.25 up to 30, 1.4 - Pn/200 below 80, 1 from 80. Ro is the previous
    list's rating and Pn the rated games up to it."""
    if rating >= 2400:
        r = 10.0
    elif rating > 2000:
        r = 70 - rating / 40
    else:
        r = 20.0
    if games >= 80:
        g = 1.0
    elif games > 30:
        g = 1.4 - games / 200
    elif games > 15:
        g = 1.25
    else:
        g = 1.5
    return r * g


def iecg_established(rating: float, games: Sequence[Rated], k: float) -> float:
    """Rn = Ro + sum of k (W - We) (seed 000 E.V.1-4), We = P(D) against the cut-off
    opponent; more than 75 % from six games or more in the period adds
    (1000 - Ro + Rc + D(p)) / 20 (E.V.5), Rc the period's opponents' average."""
    opponents = [iecg_cut(rating, game.opponent) for game in games]
    change = sum(
        k * (game.score - iecg_expected(rating - opponent))
        for game, opponent in zip(games, opponents, strict=True)
    )
    new = rating + change
    if len(games) >= 6:
        p = sum(game.score for game in games) / len(games)
        if p > 0.75:
            average = sum(opponents) / len(opponents)
            new += (1000 - rating + average + iecg_difference(p)) / 20
    return new


# --- Harkness, seed 003 section IV.B --------------------------------------------------------


def harkness_change(rating: float, opponent: float, score: float) -> int:
    """Points the player gains (negative: loses) in one game by the Harkness system of seed
    003 IV.B.1; the opponent's change is the opposite. With ``n`` whole 25-point groups
    between the ratings: an upset win moves 16 + n (at most 32), an expected win 16 - n (at
    least 1), a draw n (at most 16) towards the lower-rated player. Between equal ratings a
    win moves 16 and a draw nothing."""
    _check_score(score)
    groups = int(abs(rating - opponent) // 25)
    if score == 0.5:
        moved = min(16, groups)
        return moved if rating < opponent else -moved if rating > opponent else 0
    lower_won = (score == 1) == (rating < opponent)
    moved = min(32, 16 + groups) if lower_won else max(1, 16 - groups)
    return moved if score == 1 else -moved


def wolc_performance(average: float, rounds: int, score: float) -> float:
    """OAR ± (400 / rounds) x SC (seed 003 IV.C.2.b.i): the opponents' average plus 400 /
    rounds for each point above (minus, below) an even score."""
    if rounds <= 0:
        raise RatingError("a performance needs at least one round")
    return average + 400 / rounds * (score - rounds / 2)


# --- Ladder, seed 002 -------------------------------------------------------------------------

#: Seed 002's table: the highest difference of each row, and the points for a win by the
#: higher-placed player, a win by the lower, and a draw (to the lower). The seed prints the
#: eighth row as "32 - 37", overlapping "28 - 32"; the rows go in fives, so it is read as 33-37.
LADDER_ROWS: tuple[tuple[int, int, int, int], ...] = (
    (2, 10, 10, 0), (7, 9, 11, 1), (12, 8, 12, 2), (17, 7, 13, 3), (22, 6, 14, 4),
    (27, 5, 15, 5), (32, 4, 16, 6), (37, 3, 17, 7), (42, 2, 18, 8), (47, 1, 19, 9),
    (52, 1, 20, 10), (57, 1, 21, 11), (62, 1, 22, 12), (67, 1, 23, 13), (72, 1, 24, 14),
    (77, 1, 25, 15), (82, 1, 26, 16), (87, 1, 27, 17),
)  # fmt: skip
#: Seed 002's last row, "88 or over".
LADDER_LAST_ROW = (8, 1, 28, 18)

_LADDER_LIMITS = [row[0] for row in LADDER_ROWS]


def ladder_change(points: int, opponent: int, score: float) -> int:
    """Ladder points the player gains (negative: loses) in one game (seed 002): the winner
    takes the table's "High Win" or "Low Win" from the loser; on a draw the lower-placed
    player takes the "Draw" column from the higher. The opponent's change is the opposite."""
    _check_score(score)
    difference = abs(points - opponent)
    row = bisect_left(_LADDER_LIMITS, difference)
    _, high_win, low_win, draw = LADDER_ROWS[row] if row < len(LADDER_ROWS) else LADDER_LAST_ROW
    if score == 0.5:
        return draw if points < opponent else -draw if points > opponent else 0
    won_by_lower = (score == 1) == (points < opponent)
    moved = low_win if won_by_lower else high_win
    return moved if score == 1 else -moved
