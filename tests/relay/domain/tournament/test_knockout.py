"""Knock-out brackets checked by hand, matches through their stages, withdrawals, and the
rules every bracket keeps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.tournament.knockout import (
    WORLD_CUP,
    KnockoutError,
    Match,
    MatchGame,
    MatchState,
    Pairing,
    Stage,
    bracket_order,
    bye_winner,
    first_round,
    next_round,
)


def pairs(round_: list[Pairing]) -> list[tuple[int, int | None]]:
    return [(p.top, p.bottom) for p in round_]


def test_eight_players():
    assert pairs(first_round(8)) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_sixteen_players():
    assert pairs(first_round(16)) == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip


def test_twelve_players_give_the_top_four_a_bye():
    round_1 = first_round(12)
    assert pairs(round_1) == [
        (1, None), (8, 9), (4, None), (5, 12), (2, None), (7, 10), (3, None), (6, 11),
    ]  # fmt: skip
    assert [bye_winner(p) for p in round_1 if p.is_bye] == [1, 4, 2, 3]
    # 9, 12, 10 and 11 win: the byes meet them in round 2
    assert pairs(next_round([1, 9, 4, 12, 2, 10, 3, 11])) == [(1, 9), (4, 12), (2, 10), (3, 11)]


def test_a_match_is_not_a_bye():
    with pytest.raises(KnockoutError):
        bye_winner(Pairing(1, 8))


def test_favourites_meet_as_the_seeding_intends():
    # With the better seed winning every match, round k pairs s with M + 1 - s.
    round_ = first_round(16)
    while True:
        left = 2 * len(round_)
        assert all(p.bottom == left + 1 - p.top for p in round_)
        if len(round_) == 1:
            break
        round_ = next_round([p.top for p in round_])
    assert pairs(round_) == [(1, 2)]


def play(match: Match, *results: float) -> Match:
    for result in results:
        match = match.record(result)
    return match


def test_a_match_decided_in_the_classical_games():
    match = Match(5, 12)
    assert match.next_game == MatchGame(0, 1, 5, 12)
    match = match.record(1.0)  # 5 beats 12 with White
    assert match.state is MatchState.PLAYING
    assert match.next_game == MatchGame(0, 2, 12, 5)
    match = match.record(0.5)
    assert match.state is MatchState.DECIDED
    assert match.winner == 5
    assert match.next_game is None
    with pytest.raises(KnockoutError):
        match.record(1.0)


def test_a_level_classical_match_goes_to_the_rapid_games():
    match = play(Match(5, 12), 1.0, 1.0)  # one win each
    assert match.state is MatchState.PLAYING
    assert match.next_game == MatchGame(1, 1, 5, 12)  # colours keep alternating


def test_a_match_decided_in_the_blitz_games():
    # classical 1-1, rapid 1-1 twice, blitz: 12 wins the first game with Black, draws the second
    match = play(Match(5, 12), 0.5, 0.5, 1.0, 1.0, 0.5, 0.5, 0.0)
    assert match.next_game == MatchGame(3, 2, 12, 5)
    match = match.record(0.5)
    assert match.winner == 12


def test_armageddon_a_draw_wins_for_black():
    level = play(Match(5, 12), *[0.5] * 8)
    assert level.next_game == MatchGame(4, 1, 5, 12)
    assert level.record(0.5).winner == 12
    assert level.record(1.0).winner == 5
    drawn_white = play(Match(5, 12, armageddon_white=12), *[0.5] * 8)
    assert drawn_white.next_game == MatchGame(4, 1, 12, 5)
    assert drawn_white.record(0.5).winner == 5


def test_sudden_death_plays_until_a_game_is_won():
    stages = (Stage("classical", 2), Stage("blitz", 5, sudden_death=True))
    match = play(Match(1, 2, stages), 0.5, 0.5, 0.5, 0.5)
    assert match.next_game == MatchGame(1, 3, 1, 2)
    assert match.record(0.0).winner == 2
    assert match.record(1.0).winner == 1


def test_a_stage_stops_when_the_leader_cannot_be_caught():
    four = Match(1, 2, (Stage("classical", 4),))
    assert play(four, 1.0, 0.0).state is MatchState.PLAYING  # 2-0: 2 can still level
    assert play(four, 1.0, 0.0, 1.0).winner == 1  # 3-0 with one game left


def test_level_after_every_stage():
    match = play(Match(1, 2, (Stage("classical", 2),)), 1.0, 1.0)
    assert match.state is MatchState.LEVEL
    assert match.winner is None
    assert match.next_game is None


def test_a_withdrawal_sends_the_opponent_through():
    match = play(Match(3, 6), 1.0).withdraw(3)
    assert match.state is MatchState.DECIDED
    assert match.winner == 6
    assert match.next_game is None
    with pytest.raises(KnockoutError):
        match.withdraw(6)
    with pytest.raises(KnockoutError):
        Match(3, 6).withdraw(4)


def test_results_and_matches_are_checked():
    with pytest.raises(KnockoutError):
        Match(1, 2).record(2.0)
    with pytest.raises(KnockoutError):
        Match(1, 1)
    with pytest.raises(KnockoutError):
        Match(1, 2, armageddon_white=3)
    with pytest.raises(KnockoutError):
        Stage("armageddon", 2, armageddon=True)
    with pytest.raises(KnockoutError):
        first_round(1)
    with pytest.raises(KnockoutError):
        bracket_order(12)
    with pytest.raises(KnockoutError):
        next_round([1, 2, 3])


def test_the_world_cup_stages():
    assert [s.games for s in WORLD_CUP] == [2, 2, 2, 2, 1]
    assert WORLD_CUP[-1].armageddon


@given(st.integers(min_value=2, max_value=300))
def test_every_seed_once_in_round_one_and_byes_to_the_top(players):
    round_1 = first_round(players)
    seen = [s for p in round_1 for s in (p.top, p.bottom) if s is not None]
    assert sorted(seen) == list(range(1, players + 1))
    byes = sorted(p.top for p in round_1 if p.is_bye)
    assert byes == list(range(1, len(byes) + 1))
    assert len(round_1) & (len(round_1) - 1) == 0


@given(st.integers(min_value=2, max_value=300))
def test_one_and_two_in_opposite_halves(players):
    round_1 = first_round(players)
    half = len(round_1) // 2 or 1
    top_half = {s for p in round_1[:half] for s in (p.top, p.bottom)}
    assert 1 in top_half
    assert (2 in top_half) == (players == 2)


@given(st.integers(min_value=1, max_value=9))
def test_a_full_bracket_has_half_as_many_matches_as_players(k):
    round_1 = first_round(2**k)
    assert len(round_1) == 2 ** (k - 1)
    assert not any(p.is_bye for p in round_1)


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), max_size=30))
def test_a_match_is_always_in_one_state(results):
    match = Match(1, 2)
    for result in results:
        if match.state is not MatchState.PLAYING:
            break
        match = match.record(result)
    if match.state is MatchState.PLAYING:
        assert match.winner is None
        assert match.next_game is not None
    else:
        assert match.winner in (1, 2)  # the World Cup stages end in Armageddon
        assert match.next_game is None
