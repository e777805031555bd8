"""The real py4swiss engine pairs whole tournaments; our own checker judges every round."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from relay.domain.formats.trf import parse_trf, render_trf
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_rules import check_round, check_tournament
from relay.domain.tournament.swiss import (
    GameResult,
    SwissRound,
    SwissState,
    seed_players,
    tournament_trf,
)
from relay.hub.pairing_engine import (
    PairingEngine,
    PairingEngineError,
    RoundPairing,
    parse_pairings,
)

pytestmark = pytest.mark.anyio
FORFEIT_WINS = (GameResult.WHITE_WINS_BY_FORFEIT, GameResult.BLACK_WINS_BY_FORFEIT)


@pytest.fixture(scope="module")
def engine() -> PairingEngine:
    return PairingEngine.find(time_limit=60)


def field(players: int) -> SwissState:
    ratings = [2600 - round(i * 1200 / (players - 1)) for i in range(players)]
    return SwissState(
        "Relay Open",
        seed_players((f"Player {i:02d}", rating) for i, rating in enumerate(ratings)),
        9,
        first_colour="white",
    )


def play(state: SwissState, paired: SwissRound, rng: random.Random, forfeit: bool) -> SwissRound:
    """Seeded results: the higher rated wins more often, about a quarter are drawn."""
    rating = {p.start_number: p.rating or 0 for p in state.players}
    results = {}
    for board in paired.boards:
        expected = 1 / (1 + 10 ** ((rating[board.black] - rating[board.white]) / 400))
        roll = rng.random()
        if roll < 0.25:
            results[(board.white, board.black)] = GameResult.DRAW
        elif rng.random() < expected:
            results[(board.white, board.black)] = GameResult.WHITE_WINS
        else:
            results[(board.white, board.black)] = GameResult.BLACK_WINS
    if forfeit:
        last = paired.boards[-1]
        results[(last.white, last.black)] = GameResult.WHITE_WINS_BY_FORFEIT
    return paired.with_results(results)


@pytest.mark.parametrize("players", [60, 59])
@pytest.mark.processes
async def test_a_nine_round_swiss_paired_by_the_engine_keeps_the_absolute_rules(engine, players):
    rng = random.Random(players)
    state = field(players)
    requests = {4: {7: ByeKind.HALF_POINT, 20: ByeKind.HALF_POINT}, 6: {33: ByeKind.ZERO_POINT}}
    forfeit_rounds = {3, 7}
    allocated: list[int] = []
    for number in range(1, 10):
        state = state.with_requested_byes(requests.get(number, {}))
        pairing = await engine.pair_next_round(state)
        assert check_round(state, pairing.pairs, pairing.bye) == []
        if pairing.bye is not None:
            allocated.append(pairing.bye)
        paired = state.paired_round(pairing.pairs, pairing.bye)
        state = state.record_round(play(state, paired, rng, number in forfeit_rounds))

    assert check_tournament(state) == []
    games = [frozenset((b.white, b.black)) for r in state.rounds for b in r.boards]
    assert len(games) == len(set(games))  # not even a forfeited pairing was repeated
    assert len(allocated) == len(set(allocated))
    present = [players - len(requests.get(n, {})) for n in range(1, 10)]
    assert len(allocated) == sum(count % 2 for count in present)
    assert len(allocated) >= (5 if players == 59 else 1)
    forfeits = [b for r in state.rounds for b in r.boards if b.result in FORFEIT_WINS]
    assert len(forfeits) == 2  # their winners were never given the bye: check_tournament

    report = tournament_trf(state)
    for dialect in ("trf16", "trf2026"):
        text = render_trf(report, dialect)
        assert parse_trf(text) == report
        assert render_trf(parse_trf(text), dialect) == text


@pytest.mark.processes
async def test_round_one_is_top_half_against_bottom_half(engine):
    pairing = await engine.pair_next_round(field(60))
    expected = [(i, 30 + i) if i % 2 else (30 + i, i) for i in range(1, 31)]
    assert pairing == RoundPairing(tuple(expected), None)
    assert pairing.pairs[:2] == ((1, 31), (32, 2))


@pytest.mark.processes
async def test_round_one_with_black_first_and_an_odd_field(engine):
    state = SwissState("Odd", field(59).players, 9, first_colour="black")
    pairing = await engine.pair_next_round(state)
    assert pairing.pairs[:2] == ((30, 1), (2, 31))
    assert pairing.bye == 59


@pytest.mark.processes
async def test_corrupt_trf_is_an_engine_error_with_its_reason(engine):
    with pytest.raises(PairingEngineError, match="exited with status 1") as caught:
        await engine.pair("012 Broken\n001    1      Someone\n")
    assert str(caught.value).endswith("LineError: Incomplete player section")
    assert "raise LineError" in caught.value.stderr_tail


@pytest.mark.processes
async def test_an_unpairable_round_is_an_engine_error(engine):
    state = field(2)
    paired = state.paired_round([(1, 2)], None)
    state = state.record_round(paired.with_results({(1, 2): GameResult.DRAW}))
    with pytest.raises(PairingEngineError, match="Round can not be paired"):
        await engine.pair_next_round(state)


def fake_engine(tmp_path: Path, script: str) -> PairingEngine:
    program = tmp_path / "fake-engine"
    program.write_text(f"#!{sys.executable}\nimport sys, threading\n{script}\n")
    program.chmod(0o755)
    return PairingEngine(program, time_limit=30)


@pytest.mark.processes
async def test_unreadable_or_incomplete_output_is_an_engine_error(tmp_path):
    silent = fake_engine(tmp_path, "pass")
    with pytest.raises(PairingEngineError, match="wrote no readable pairings file"):
        await silent.pair_next_round(field(4))
    one_pair = fake_engine(tmp_path, "open(sys.argv[4], 'w').write('1\\n1 3\\n')")
    with pytest.raises(PairingEngineError, match=r"leaves out \[2, 4\] and places \[\]"):
        await one_pair.pair_next_round(field(4))


@pytest.mark.processes
async def test_an_engine_that_hangs_is_killed(tmp_path):
    never_answers = fake_engine(tmp_path, "threading.Event().wait()")
    hanging = PairingEngine(never_answers.executable, time_limit=0.5)
    with pytest.raises(PairingEngineError, match=r"took longer than 0\.5 s"):
        await hanging.pair("012 Anything\n")


@pytest.mark.processes
async def test_a_missing_program_is_an_engine_error(tmp_path):
    with pytest.raises(PairingEngineError, match="cannot start"):
        await PairingEngine(tmp_path / "nowhere").pair("012 Anything\n")


def test_find_prefers_the_program_beside_the_interpreter():
    assert PairingEngine.find().executable == Path(sys.executable).with_name("py4swiss")


def test_pairings_file_is_parsed_into_boards_and_a_bye():
    assert parse_pairings("3\n1 4\n5 2\n3 0\n") == RoundPairing(((1, 4), (5, 2)), 3)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "does not start with a count"),
        ("2\n1 2\n", "announces 2 pairs but has 1"),
        ("1\n1 2 3\n", "line 2 is not two numbers"),
        ("1\n1 x\n", "line 2 is not two numbers"),
        ("1\n2 2\n", "not a pair or a bye"),
        ("1\n0 2\n", "not a pair or a bye"),
        ("2\n1 2\n2 3\n", "player 2 is paired twice"),
        ("2\n1 0\n2 0\n", "second bye"),
    ],
)
def test_bad_pairings_files_are_refused(text, reason):
    with pytest.raises(PairingEngineError, match=reason):
        parse_pairings(text)
