"""Rating-based tie-breaks, FIDE C.07 article 10 (numbered alike in the 2024 and 2026
editions), over games played over the board.

* ARO (10.1): the opponents' average rating, rounded half up; ``cut`` leaves out the lowest.
* TPR (10.2): ARO + dp, dp from the FIDE table for the fractional score (B.02 8.1.1).
* PTP (10.3): the lowest whole rating whose expected score (the whole FIDE table, no
  400-point cap) against the opponents reaches the score; a zero score gives the lowest
  opponent - 800, a full score the highest + 800.
* APRO and APPO (10.4, 10.5): averages of the opponents' TPR and PTP, built in
  :mod:`relay.domain.tournament.tie_breaks`.

Unrated opponents are left out of all of them (the regulations let an event give them a
rating instead: pass one in ``ratings``).
"""

from __future__ import annotations

from collections.abc import Sequence

from relay.domain.tournament.ratings import (
    fide_dp,
    fide_expected_hundredths,
    fraction_hundredths,
    round_half_up,
)

PERFECT_MARGIN = 800


def average_rating(ratings: Sequence[int], *, cut: int = 0) -> int | None:
    """ARO: ``None`` without rated opponents (or when the cut leaves none)."""
    kept = sorted(ratings)[cut:]
    if not kept:
        return None
    return round_half_up(sum(kept) / len(kept))


def performance(ratings: Sequence[int], score: float) -> int | None:
    """TPR = ARO + dp(p), p the score over these games (C.07 10.2)."""
    aro = average_rating(ratings)
    if aro is None:
        return None
    return aro + fide_dp(fraction_hundredths(score, len(ratings)))


def perfect_performance(ratings: Sequence[int], score: float) -> int | None:
    """PTP (C.07 10.3); ``None`` without rated opponents."""
    if not ratings:
        return None
    if score <= 0:
        return min(ratings) - PERFECT_MARGIN
    if score >= len(ratings):
        return max(ratings) + PERFECT_MARGIN
    wanted = round(score * 100)
    low, high = min(ratings) - PERFECT_MARGIN, max(ratings) + PERFECT_MARGIN
    while low < high:  # the lowest rating reaching the score; expectation never falls
        middle = (low + high) // 2
        expected = sum(fide_expected_hundredths(middle - r, cap=None) for r in ratings)
        if expected >= wanted:
            high = middle
        else:
            low = middle + 1
    return low
