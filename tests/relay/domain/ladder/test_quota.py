"""Graded ladders: a non-member's graded games counted by rate against the free quotas."""

from __future__ import annotations

from datetime import date

from relay.domain.ladder.quota import graded_counts, quota_warnings
from relay.domain.ladder.rules import ClubResult, Ladder, LadderRate
from relay.domain.results import Result

STANDARD, RAPID, ALL = LadderRate.STANDARD, LadderRate.RAPID, LadderRate.ALL
GRADED = Ladder(STANDARD, date(2024, 9, 1), date(2024, 12, 31), graded=True)
SEASON = Ladder(ALL, date(2024, 9, 1), date(2025, 6, 30), graded=True)
FRIENDLY = Ladder(RAPID, date(2024, 9, 1), date(2024, 12, 31))  # not graded
NON_MEMBER, MEMBER = 7, 8
NAMES = {NON_MEMBER: "Guest, Gus", MEMBER: "Member, May"}


def game(n: int, rate: LadderRate = STANDARD, month: int = 9) -> ClubResult:
    return ClubResult(n, date(2024, month, n), rate, NON_MEMBER, MEMBER, Result.DRAW)


def test_the_third_graded_standard_game_warns_and_the_fourth_is_over():
    games = [game(1), game(2)]
    ladders = [GRADED]
    assert quota_warnings(ladders, games, {NON_MEMBER}, NAMES, game=games[-1]) == []
    games.append(game(3))
    [warning] = quota_warnings(ladders, games, {NON_MEMBER}, NAMES, game=games[-1])
    assert (warning.player, warning.games, warning.quota, warning.over) == (NON_MEMBER, 3, 3, False)
    assert str(warning) == (
        "Guest, Gus is not an ECF member and has played 3 graded standard games, the free "
        "quota: the next one would not be free"
    )
    games.append(game(4))
    [warning] = quota_warnings(ladders, games, {NON_MEMBER}, NAMES, game=games[-1])
    assert warning.over
    assert str(warning).endswith("has now played 4 graded standard games: over the free quota of 3")
    # The member is never warned; the whole club's list names the non-member once.
    assert [w.player for w in quota_warnings(ladders, games, {NON_MEMBER}, NAMES)] == [NON_MEMBER]


def test_a_game_in_two_graded_ladders_is_graded_once_and_ungraded_ladders_do_not_count():
    games = [game(1), game(2), game(3, rate=RAPID), game(4, rate=RAPID)]
    counts = graded_counts([GRADED, SEASON, FRIENDLY], games, {NON_MEMBER})
    assert counts == {(NON_MEMBER, STANDARD): 2, (NON_MEMBER, RAPID): 2}
    assert graded_counts([FRIENDLY], games, {NON_MEMBER}) == {}
    # Rapid games have their own quota: 6.
    rapid = [game(n, rate=RAPID) for n in range(1, 7)]
    [warning] = quota_warnings([SEASON], rapid, {NON_MEMBER}, NAMES, game=rapid[-1])
    assert (warning.rate, warning.games, warning.quota) == (RAPID, 6, 6)
    assert quota_warnings([SEASON], rapid[:5], {NON_MEMBER}, NAMES, game=rapid[4]) == []


def test_quotas_are_configurable_and_an_ungraded_game_never_warns():
    strict = Ladder(STANDARD, date(2024, 9, 1), date(2024, 12, 31), graded=True, free_standard=1)
    [warning] = quota_warnings([strict], [game(1)], {NON_MEMBER}, NAMES, game=game(1))
    assert warning.quota == 1
    outside = game(1, month=8)  # before the period: not graded
    assert quota_warnings([strict], [outside], {NON_MEMBER}, NAMES, game=outside) == []
