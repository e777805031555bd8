from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_rules import Rule, check_round, check_tournament
from relay.domain.tournament.swiss import (
    Board,
    GameResult,
    SwissPlayer,
    SwissRound,
    SwissState,
)

W, B, D = GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW


def state(players: int, total: int, *rounds: SwissRound, **requested: ByeKind) -> SwissState:
    return SwissState(
        "Test Open",
        tuple(SwissPlayer(n, f"Player {n}", 2000 - n) for n in range(1, players + 1)),
        total,
        rounds=rounds,
        requested_byes={int(k[1:]): v for k, v in requested.items()},
    )


def rnd(*boards: tuple[int, int, GameResult], **byes: ByeKind) -> SwissRound:
    return SwissRound(
        tuple(Board(w, b, r) for w, b, r in boards), {int(k[1:]): v for k, v in byes.items()}
    )


def rules(violations) -> list[Rule]:
    return [v.rule for v in violations]


def test_a_good_round_passes():
    before = state(6, 5, rnd((1, 4, W), (5, 2, D), (3, 6, B)))
    assert check_round(before, [(4, 2), (6, 1), (3, 5)], None) == []


def test_a_rematch_is_reported_with_both_players():
    before = state(4, 5, rnd((1, 3, W), (4, 2, D)))
    assert check_round(before, [(2, 1), (3, 4)], None) == []
    found = check_round(before, [(3, 1), (2, 4)], None)
    assert [(v.rule, v.players, v.round) for v in found] == [
        (Rule.REMATCH, (3, 1), 2),
        (Rule.REMATCH, (2, 4), 2),
    ]
    assert "round 2: 3 and 1 have already played" in str(found[0])


def test_a_forfeited_pairing_is_not_a_game_played():
    before = state(4, 5, rnd((1, 3, GameResult.WHITE_WINS_BY_FORFEIT), (4, 2, D)))
    assert check_round(before, [(3, 1)], None) == []


def test_second_pairing_allocated_bye_is_reported():
    before = state(3, 5, rnd((1, 2, W), p3=ByeKind.PAIRING_ALLOCATED))
    (violation,) = check_round(before, [], 3)
    assert violation.rule is Rule.BYE
    assert "after the pairing-allocated bye in round 1" in violation.detail


def test_no_pairing_allocated_bye_after_a_win_without_playing():
    forfeit = state(3, 5, rnd((1, 2, GameResult.BLACK_WINS_BY_FORFEIT), p3=ByeKind.ZERO_POINT))
    assert rules(check_round(forfeit, [(3, 1)], 2)) == [Rule.BYE]
    assert check_round(forfeit, [(3, 2)], 1) == []
    full_point = state(3, 5, rnd((1, 2, D), p3=ByeKind.FULL_POINT))
    assert rules(check_round(full_point, [], 3)) == [Rule.BYE]
    half_point = state(3, 5, rnd((1, 2, D), p3=ByeKind.HALF_POINT))
    assert check_round(half_point, [], 3) == []


def test_colour_difference_beyond_two_is_reported():
    # Player 1: w w b w, then White again: +3, without three in a row.
    before = state(6, 9, rnd((1, 2, D)), rnd((1, 3, D)), rnd((4, 1, D)), rnd((1, 5, D)))
    (violation,) = check_round(before, [(1, 6)], None)
    assert violation.rule is Rule.COLOUR_DIFFERENCE
    assert violation.players == (1,)
    assert "+3" in violation.detail
    assert check_round(before, [(6, 1)], None) == []


def test_same_colour_three_times_is_reported_skipping_unplayed_rounds():
    # Player 1: b, w, (bye), (forfeit), w: a third White in a row would follow.
    before = state(
        6,
        9,
        rnd((2, 1, D)),
        rnd((1, 3, D)),
        rnd((2, 3, D), p1=ByeKind.HALF_POINT),
        rnd((1, 4, GameResult.WHITE_WINS_BY_FORFEIT)),
        rnd((1, 5, D)),
    )
    assert rules(check_round(before, [(1, 6)], None)) == [Rule.COLOUR_REPEAT]
    assert check_round(before, [(6, 1)], None) == []


def test_both_colour_rules_at_once_for_whoever_gets_the_third_white():
    # 1 has w, w; 2 has w, w; one of them must get a third White.
    before = state(6, 9, rnd((1, 3, D), (2, 4, D)), rnd((1, 5, D), (2, 6, D)))
    found = check_round(before, [(1, 2)], None)
    assert rules(found) == [Rule.COLOUR_DIFFERENCE, Rule.COLOUR_REPEAT]
    assert {v.players for v in found} == {(1,)}
    found = check_round(before, [(2, 1)], None)
    assert {v.players for v in found} == {(2,)}


def test_topscorers_may_break_the_colour_rules_in_the_last_round_only():
    # Player 1 won with b, w, w (3 of 3 > half the maximum); player 6 has played nothing.
    rounds = (rnd((2, 1, B)), rnd((1, 3, W)), rnd((1, 4, W)))
    assert check_round(state(6, 4, *rounds), [(1, 6)], None) == []
    assert rules(check_round(state(6, 5, *rounds), [(1, 6)], None)) == [Rule.COLOUR_REPEAT]


def test_the_opponent_of_a_topscorer_is_exempt_too_but_not_others():
    # 1 is a topscorer (w, w, b, all won); 2 (b, w, w) meets him with White a third time.
    rounds = (rnd((1, 5, W), (6, 2, W)), rnd((1, 6, W), (2, 5, B)), rnd((4, 1, B), (2, 3, B)))
    last = state(6, 4, *rounds)
    assert check_round(last, [(2, 1)], None) == []
    assert rules(check_round(last, [(2, 4)], None)) == [Rule.COLOUR_REPEAT]


def test_malformed_rounds_are_reported():
    before = state(4, 5, **{"p4": ByeKind.HALF_POINT})
    found = check_round(before, [(1, 1), (2, 9), (3, 4)], 2)
    assert rules(found) == [Rule.MALFORMED] * 5
    details = " / ".join(v.detail for v in found)
    assert "player 9 is not in the tournament" in details
    assert "player 4 has two entries" in details
    assert "player 2 has two entries" in details
    assert "player 1 is paired with himself" in details


def test_check_tournament_replays_every_round():
    clean = state(4, 3, rnd((1, 3, W), (4, 2, D)), rnd((2, 1, D), (3, 4, B)))
    assert check_tournament(clean) == []
    repeat = state(
        5,
        3,
        rnd((1, 3, W), (4, 2, D), p5=ByeKind.PAIRING_ALLOCATED),
        rnd((3, 1, D), (2, 5, W), p4=ByeKind.PAIRING_ALLOCATED),
        rnd((1, 2, D), (4, 3, W), p5=ByeKind.PAIRING_ALLOCATED),
    )
    found = check_tournament(repeat)
    assert [(v.round, v.rule, v.players) for v in found] == [
        (2, Rule.REMATCH, (3, 1)),
        (3, Rule.BYE, (5,)),
    ]


def test_two_pairing_allocated_byes_in_one_round():
    two = state(4, 3, rnd((1, 2, W), p3=ByeKind.PAIRING_ALLOCATED, p4=ByeKind.PAIRING_ALLOCATED))
    assert [(v.rule, v.players) for v in check_tournament(two)] == [(Rule.MALFORMED, (4,))]


@st.composite
def histories(draw: st.DrawFn) -> SwissState:
    """A few rounds of random pairings (random colours and results) among n players."""
    n = draw(st.integers(2, 12))
    results = st.sampled_from(list(GameResult))
    rounds = []
    for _ in range(draw(st.integers(0, 5))):
        order = draw(st.permutations(range(1, n + 1)))
        boards = tuple(Board(order[i], order[i + 1], draw(results)) for i in range(0, n - 1, 2))
        byes = {order[-1]: draw(st.sampled_from(list(ByeKind)))} if n % 2 else {}
        rounds.append(SwissRound(boards, byes))
    return state(n, len(rounds) + 2, *rounds)


@given(
    st.integers(2, 40).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(1, n + 1))))
)
def test_any_first_round_is_valid(case: tuple[int, list[int]]):
    n, order = case
    pairs = [(order[i], order[i + 1]) for i in range(0, n - 1, 2)]
    assert check_round(state(n, 9), pairs, order[-1] if n % 2 else None) == []


@given(histories(), st.data())
def test_every_repeat_of_a_played_game_is_found(before: SwissState, data: st.DataObject):
    played = [
        (b.white, b.black)
        for r in before.rounds
        for b in r.boards
        if b.result in (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW)
    ]
    if not played:
        return
    white, black = data.draw(st.sampled_from(played))
    found = check_round(before, [(black, white)], None)
    assert [v.players for v in found if v.rule is Rule.REMATCH] == [(black, white)]
    assert all(v.rule is not Rule.MALFORMED for v in found)


@given(histories(), st.data())
def test_colour_reports_match_the_colour_histories(before, data):
    # Recomputed here from the boards: a player is reported exactly when the new colour
    # takes the difference further beyond 2, or makes three of the same in a row.
    n = len(before.players)
    order = data.draw(st.permutations(range(1, n + 1)))
    pairs = [(order[i], order[i + 1]) for i in range(0, n - 1, 2)]
    found = check_round(before, pairs, None)
    reported = {
        p
        for v in found
        if v.rule in (Rule.COLOUR_DIFFERENCE, Rule.COLOUR_REPEAT)
        for p in v.players
    }
    played = {GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW}
    for white, black in pairs:
        for player, colour in ((white, "w"), (black, "b")):
            history = [
                "w" if b.white == player else "b"
                for r in before.rounds
                for b in r.boards
                if player in (b.white, b.black) and b.result in played
            ]
            after = [*history, colour]
            difference = abs(after.count("w") - after.count("b"))
            before_difference = abs(history.count("w") - history.count("b"))
            breaks = (difference > 2 and difference > before_difference) or (
                len(after) >= 3 and len(set(after[-3:])) == 1
            )
            assert (player in reported) == breaks
