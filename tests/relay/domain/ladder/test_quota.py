"""Graded ladders: a non-member's graded games counted by rate against the free quotas."""

from __future__ import annotations

from datetime import date

from relay.domain.ladder.quota import (
    game_warnings,
    graded_counts,
    quota_warnings,
    season_label,
    season_of,
)
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
    assert game_warnings(ladders, games, {NON_MEMBER}, NAMES, games[-1]) == []
    games.append(game(3))
    [warning] = game_warnings(ladders, games, {NON_MEMBER}, NAMES, games[-1])
    assert (warning.player, warning.games, warning.quota, warning.over) == (NON_MEMBER, 3, 3, False)
    assert str(warning) == (
        "Guest, Gus is not an ECF member and has played 3 graded standard games in the 2024-25 "
        "season, the free "
        "quota: the next one would not be free"
    )
    games.append(game(4))
    [warning] = game_warnings(ladders, games, {NON_MEMBER}, NAMES, games[-1])
    assert warning.over
    assert str(warning).endswith(
        "has now played 4 graded standard games in the 2024-25 season: over the free quota of 3"
    )
    # The member is never warned; the whole club's list names the non-member once.
    assert [w.player for w in quota_warnings(ladders, games, {NON_MEMBER}, NAMES, season=2024)] == [
        NON_MEMBER
    ]


def test_a_game_in_two_graded_ladders_is_graded_once_and_ungraded_ladders_do_not_count():
    games = [game(1), game(2), game(3, rate=RAPID), game(4, rate=RAPID)]
    counts = graded_counts([GRADED, SEASON, FRIENDLY], games, {NON_MEMBER}, 2024)
    assert counts == {(NON_MEMBER, STANDARD): 2, (NON_MEMBER, RAPID): 2}
    assert graded_counts([FRIENDLY], games, {NON_MEMBER}, 2024) == {}
    # Rapid games have their own quota: 6.
    rapid = [game(n, rate=RAPID) for n in range(1, 7)]
    [warning] = game_warnings([SEASON], rapid, {NON_MEMBER}, NAMES, rapid[-1])
    assert (warning.rate, warning.games, warning.quota) == (RAPID, 6, 6)
    assert game_warnings([SEASON], rapid[:5], {NON_MEMBER}, NAMES, rapid[4]) == []


def test_quotas_are_configurable_and_an_ungraded_game_never_warns():
    strict = Ladder(STANDARD, date(2024, 9, 1), date(2024, 12, 31), graded=True, free_standard=1)
    [warning] = game_warnings([strict], [game(1)], {NON_MEMBER}, NAMES, game(1))
    assert warning.quota == 1
    outside = game(1, month=8)  # before the period: not graded
    assert game_warnings([strict], [outside], {NON_MEMBER}, NAMES, outside) == []


def test_the_season_runs_from_the_first_of_september_to_the_end_of_august():
    assert season_of(date(2024, 8, 31)) == 2023
    assert season_of(date(2024, 9, 1)) == 2024
    assert season_of(date(2025, 1, 15)) == 2024
    assert (season_label(2024), season_label(1999), season_label(2099)) == (
        "2024-25", "1999-00", "2099-00",
    )  # fmt: skip


def test_the_quota_starts_again_each_season():
    # A ladder running over two seasons: three graded games in August, two in September.
    long = Ladder(STANDARD, date(2024, 6, 1), date(2025, 6, 30), graded=True)
    august = [ClubResult(n, date(2024, 8, n), STANDARD, NON_MEMBER, MEMBER, Result.DRAW)
              for n in (1, 2, 3)]  # fmt: skip
    september = [ClubResult(n, date(2024, 9, n), STANDARD, NON_MEMBER, MEMBER, Result.DRAW)
                 for n in (4, 5)]  # fmt: skip
    games = august + september
    [warning] = game_warnings([long], august, {NON_MEMBER}, NAMES, august[-1])
    assert (warning.games, warning.season) == (3, 2023)
    # The fifth game of the ladder is the second of the new season: no warning.
    assert game_warnings([long], games, {NON_MEMBER}, NAMES, september[-1]) == []
    assert [(w.season, w.games) for w in quota_warnings(
        [long], games, {NON_MEMBER}, NAMES, season=2023
    )] == [(2023, 3)]  # fmt: skip
    assert quota_warnings([long], games, {NON_MEMBER}, NAMES, season=2024) == []
