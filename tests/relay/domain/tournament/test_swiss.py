from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.formats.trf import TrfResult, parse_trf, render_trf
from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.swiss import (
    Board,
    GameResult,
    SwissError,
    SwissRound,
    SwissState,
    engine_trf,
    points,
    ranks,
    seed_players,
    tournament_trf,
)

PLAYERS = seed_players(
    [("Carla", 1900), ("Anna", 2100), ("Bert", 2100), ("Dora", None), ("Emil", 1500)]
)


def played_two_rounds() -> SwissState:
    start = SwissState("Spring Open", PLAYERS, 5, first_colour="black")
    one = start.paired_round([(1, 4), (5, 2)], allocated_bye=3)
    after_one = start.record_round(
        one.with_results({(1, 4): GameResult.WHITE_WINS, (5, 2): GameResult.DRAW})
    )
    absent = after_one.with_requested_byes({5: ByeKind.HALF_POINT})
    two = absent.paired_round([(2, 1), (4, 3)], allocated_bye=None)
    done = absent.record_round(
        two.with_results({(2, 1): GameResult.BLACK_WINS_BY_FORFEIT, (4, 3): GameResult.DRAW})
    )
    return done.with_requested_byes({4: ByeKind.ZERO_POINT})


def test_players_are_seeded_by_rating_then_name():
    assert [(p.start_number, p.name) for p in PLAYERS] == [
        (1, "Anna"),
        (2, "Bert"),
        (3, "Carla"),
        (4, "Emil"),
        (5, "Dora"),
    ]


def test_engine_trf_carries_results_byes_forfeits_ranks_and_the_next_rounds_byes():
    t = engine_trf(played_two_rounds())
    assert (t.rounds, t.first_colour) == (5, "black")
    by_number = {p.start_number: p for p in t.players}
    assert by_number[1].results == [TrfResult(1, 4, "w", "1"), TrfResult(2, 2, "b", "+")]
    assert by_number[2].results == [TrfResult(1, 5, "b", "="), TrfResult(2, 1, "w", "-")]
    assert by_number[3].results == [TrfResult(1, None, "-", "U"), TrfResult(2, 4, "b", "=")]
    assert by_number[5].results == [TrfResult(1, 2, "w", "="), TrfResult(2, None, "-", "H")]
    assert by_number[4].results[-1] == TrfResult(3, None, "-", "Z")
    assert [(p.start_number, p.points, p.rank) for p in t.players] == [
        (1, 2.0, 1),
        (2, 0.5, 4),
        (3, 1.5, 2),
        (4, 0.5, 5),
        (5, 1.0, 3),
    ]
    # The report of the finished rounds has no entry for round 3 yet.
    assert all(len(p.results) == 2 for p in tournament_trf(played_two_rounds()).players)


def test_points_and_ranks_count_finished_rounds():
    state = played_two_rounds()
    assert points(state) == {1: 2.0, 2: 0.5, 3: 1.5, 4: 0.5, 5: 1.0}
    assert ranks(state) == {1: 1, 3: 2, 5: 3, 2: 4, 4: 5}


@pytest.mark.parametrize("dialect", ["trf16", "trf2026"])
def test_engine_trf_renders_and_reads_back_identically(dialect):
    t = engine_trf(played_two_rounds())
    assert parse_trf(render_trf(t, dialect)) == t


def test_absent_players_get_a_zero_point_bye():
    state = SwissState("Open", PLAYERS, 3, rounds=(SwissRound((Board(1, 2, GameResult.DRAW),)),))
    assert {p.start_number: p.results[0].result for p in tournament_trf(state).players} == {
        1: "=",
        2: "=",
        3: "Z",
        4: "Z",
        5: "Z",
    }


def test_inconsistent_states_are_refused():
    with pytest.raises(SwissError, match=r"start numbers must be 1\.\.n"):
        SwissState("Open", PLAYERS[1:], 5)
    start = SwissState("Open", PLAYERS, 5)
    with pytest.raises(SwissError, match="player 1 has two entries"):
        start.paired_round([(1, 2), (3, 1)], None)
    with pytest.raises(SwissError, match="no player 7"):
        start.paired_round([(1, 7)], None)
    with pytest.raises(SwissError, match="has no result"):
        start.record_round(start.paired_round([(1, 2)], None))
    with pytest.raises(SwissError, match="cannot ask for a PAIRING_ALLOCATED bye"):
        start.with_requested_byes({1: ByeKind.PAIRING_ALLOCATED})
    with pytest.raises(SwissError, match="already has a bye"):
        start.with_requested_byes({1: ByeKind.HALF_POINT}).paired_round([(2, 3)], 1)
    with pytest.raises(SwissError, match="no board 2 - 1"):
        start.paired_round([(1, 2)], None).with_results({(2, 1): GameResult.DRAW})
    one_round = SwissState("Open", PLAYERS, 1)
    finished = one_round.record_round(
        one_round.paired_round([(1, 2)], None).with_results({(1, 2): GameResult.DRAW})
    )
    with pytest.raises(SwissError, match="all 1 rounds are paired"):
        engine_trf(finished)


@st.composite
def states(draw: st.DrawFn) -> SwissState:
    n = draw(st.integers(1, 14))
    players = seed_players(
        (f"P{i}", draw(st.one_of(st.none(), st.integers(1000, 2800)))) for i in range(n)
    )
    total = draw(st.integers(1, 6))
    state = SwissState("Hypothesis Cup", players, total, draw(st.sampled_from(["white", "black"])))
    for _ in range(draw(st.integers(0, total - 1))):
        requested = draw(
            st.dictionaries(st.integers(1, n), st.sampled_from(sorted(_requestable(), key=str)))
        )
        state = state.with_requested_byes(requested)
        order = draw(st.permutations(sorted(set(range(1, n + 1)) - set(requested))))
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
        bye = order[-1] if len(order) % 2 else None
        paired = state.paired_round(pairs, bye)
        results = {pair: draw(st.sampled_from(list(GameResult))) for pair in pairs}
        state = state.record_round(paired.with_results(results))
    return state.with_requested_byes(
        draw(st.dictionaries(st.integers(1, n), st.sampled_from(sorted(_requestable(), key=str))))
    )


@pytest.mark.parametrize(
    ("result", "forfeit", "expected"),
    [
        (Result.WHITE_WINS, False, GameResult.WHITE_WINS),
        (Result.BLACK_WINS, False, GameResult.BLACK_WINS),
        (Result.DRAW, False, GameResult.DRAW),
        (Result.WHITE_WINS, True, GameResult.WHITE_WINS_BY_FORFEIT),
        (Result.BLACK_WINS, True, GameResult.BLACK_WINS_BY_FORFEIT),
        (Result.ONGOING, False, None),
    ],
)
def test_a_stored_result_and_its_forfeit_flag_in_trf_terms(result, forfeit, expected):
    assert GameResult.of(result, forfeit=forfeit) is expected


def test_the_forfeits_are_the_games_not_played():
    assert [r for r in GameResult if r.is_forfeit] == [
        GameResult.WHITE_WINS_BY_FORFEIT,
        GameResult.BLACK_WINS_BY_FORFEIT,
        GameResult.DOUBLE_FORFEIT,
    ]


def _requestable() -> list[ByeKind]:
    return [ByeKind.HALF_POINT, ByeKind.FULL_POINT, ByeKind.ZERO_POINT]


@given(states(), st.sampled_from(["trf16", "trf2026"]))
def test_any_state_renders_and_reads_back(state, dialect):
    for t in (engine_trf(state), tournament_trf(state)):
        assert parse_trf(render_trf(t, dialect)) == t
