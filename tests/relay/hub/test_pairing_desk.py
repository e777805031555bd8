"""The pairing desk on its own, over a real store: the next round paired by the
tournament's system once every result is verified, edited, checked and published; byes
asked for; withdrawals; the tournament report. Every change is audited; every refusal
changes nothing."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from relay.bus.memory import MemoryBus
from relay.domain.formats.event_file import EventSetup, PlayerSetup, TournamentSetup
from relay.domain.game.events import GameEvent, MoveMade, ResultSet, ResultVerified
from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.hub.arbiter_desk import ArbiterDesk
from relay.hub.game_views import GameViews
from relay.hub.pairing_desk import PairingDesk, PairingRefusedError, RoundPairings
from relay.hub.recorder import GameRecorder
from relay.store.models import Bye, Player
from relay.store.pairings import player_numbered
from relay.store.setup import load_event
from relay.store.tournaments import (
    ConflictError,
    NotFoundError,
    list_games,
    list_rounds,
    round_pairings,
)
from tests.relay.hub.desk_fakes import ARBITER, audit_trail

pytestmark = pytest.mark.anyio


def tournament(
    engine: Engine, *, players: int, system: str | None, rounds: int | None = None
) -> int:
    """A tournament of ``players``, rated from the top down by start number, no round yet."""
    setup = EventSetup(
        tournament=TournamentSetup(
            name="Pairing Open",
            rounds=rounds,
            pairing_system=None if system is None else PairingSystem(system),
        ),
        players=tuple(
            PlayerSetup(n, f"Player, No{n}", rating=2400 - 25 * n) for n in range(1, players + 1)
        ),
    )
    with Session(engine) as session:
        tournament_id = load_event(session, setup).tournament_id
        session.commit()
        return tournament_id


def stored_pairings(engine: Engine, round_id: int) -> list[tuple[int, int, int]]:
    """The round's games as stored: (board, White's start number, Black's)."""
    with Session(engine) as session:
        return [
            (p.game.board, p.white.start_number, p.black.start_number)
            for p in round_pairings(session, round_id=round_id)
        ]


def stored_byes(engine: Engine, round_id: int) -> list[tuple[int, str]]:
    with Session(engine) as session:
        byes = session.exec(select(Bye).where(Bye.round_id == round_id)).all()
        numbers = {p.id: p.start_number for p in session.exec(select(Player)).all()}
        return sorted((numbers[b.player_id], b.kind) for b in byes)


class Desk:
    """A pairing desk over a real store, and the arbiter's desk for results."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        bus = MemoryBus()
        self.recorder = GameRecorder(engine, bus)
        self.views = GameViews(engine, bus)
        self.pairing = PairingDesk(self.recorder, self.views)
        self.arbiter = ArbiterDesk(self.recorder, self.views, lambda game_id, record: None)

    async def finish(self, round_id: int, results: list[str], *, verify: bool = True) -> None:
        """Enter each board's result (board order), verified unless told otherwise."""
        games = await self.recorder.run(lambda s: list_games(s, round_id=round_id))
        assert len(games) == len(results)
        for game, result in zip(games, results, strict=True):
            assert game.id is not None
            events: list[GameEvent] = [
                ResultSet(Result(result), "Chief Arbiter", "scoresheet", 1.0)
            ]
            if verify:
                events.append(ResultVerified(Result(result), "Chief Arbiter", 2.0))
            await self.recorder.record(round_id=round_id, game_id=game.id, events=events)


@contextlib.asynccontextmanager
async def desk_on(engine: Engine) -> AsyncIterator[Desk]:
    desk = Desk(engine)
    try:
        yield desk
    finally:
        desk.views.close()
        desk.recorder.close()


# Round robins


async def test_a_round_robin_is_paired_by_the_berger_tables_once_results_are_verified(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        assert one == RoundPairings(
            round_id=one.round_id,
            number=1,
            published=False,
            games=[(1, 4), (2, 3)],  # Berger round 1 of four: 1-4, 2-3
            byes=[],
            warnings=[],
        )
        assert stored_pairings(engine, one.round_id) == [(1, 1, 4), (2, 2, 3)]
        with pytest.raises(PairingRefusedError) as open_boards:
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        assert str(open_boards.value) == (
            "every result must be verified before the next round is paired; "
            "not yet: round 1: boards 1, 2"
        )
        games = await desk.recorder.run(lambda s: list_games(s, round_id=one.round_id))
        assert games[0].id is not None
        await desk.arbiter.set_result(
            game_id=games[0].id, result=Result.WHITE_WINS, who=ARBITER, reason=""
        )
        await desk.arbiter.verify(game_id=games[0].id, result=Result.WHITE_WINS, who=ARBITER)
        assert games[1].id is not None
        await desk.arbiter.set_result(
            game_id=games[1].id, result=Result.BLACK_WINS, who=ARBITER, reason=""
        )
        with pytest.raises(PairingRefusedError, match=r"not yet: round 1: board 2$"):
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.arbiter.verify(game_id=games[1].id, result=Result.BLACK_WINS, who=ARBITER)
        two = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(two.round_id, ["1/2-1/2", "1/2-1/2"])
        three = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(three.round_id, ["1-0", "1-0"])
        with pytest.raises(PairingRefusedError, match=r"^all 3 rounds are paired$"):
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    assert (two.number, two.games) == (2, [(4, 3), (1, 2)])
    assert (three.number, three.games) == (3, [(2, 4), (3, 1)])
    with Session(engine) as session:
        assert [r.number for r in list_rounds(session, tournament_id=tid)] == [1, 2, 3]
    assert [
        (action, target, detail)
        for _, action, target, _, detail in audit_trail(engine)
        if action == "pair-round"
    ] == [
        ("pair-round", f"round {r.round_id}", {"system": "round-robin", "number": n, "games": 2})
        for n, r in ((1, one), (2, two), (3, three))
    ]


async def test_a_round_robin_without_a_planned_length_stops_at_its_tables(engine):
    tid = tournament(engine, players=4, system="round-robin")
    async with desk_on(engine) as desk:
        for _ in range(3):
            paired = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
            await desk.finish(paired.round_id, ["1-0", "0-1"])
        with pytest.raises(PairingRefusedError, match=r"^a round-robin of 4 players has 3 rounds$"):
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    with Session(engine) as session:
        assert len(list_rounds(session, tournament_id=tid)) == 3


async def test_an_odd_player_out_rests_in_a_round_robin(engine):
    tid = tournament(engine, players=5, system="round-robin", rounds=5)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    # Berger for six with a dummy sixth: player 1 would meet the dummy, and rests.
    assert (one.games, one.byes) == ([(2, 5), (3, 4)], [])
    assert stored_pairings(engine, one.round_id) == [(1, 2, 5), (2, 3, 4)]
    assert one.warnings == []  # the table's rest is no player left out


async def test_a_tournament_without_a_pairing_system_is_not_paired(engine):
    tid = tournament(engine, players=4, system=None)
    async with desk_on(engine) as desk:
        with pytest.raises(PairingRefusedError, match=r"^the tournament has no pairing system"):
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    with Session(engine) as session:
        assert list_rounds(session, tournament_id=tid) == []
    assert audit_trail(engine) == []


async def test_a_knockout_pairs_its_bracket_by_seed(engine):
    tid = tournament(engine, players=4, system="knockout", rounds=1)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(one.round_id, ["1-0", "1/2-1/2"])
        # Past the planned rounds: a knock-out plays what its matches take.
        two = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    assert (one.games, one.byes, one.warnings) == ([(1, 4), (2, 3)], [], [])
    assert two.number == 2
    assert len(two.games) == 2  # both two-game matches go on: colours reversed
    assert set(two.games) == {(4, 1), (3, 2)}


# Editing and publishing


async def test_pairings_are_edited_until_a_game_begins(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        edited = await desk.pairing.edit(
            round_id=one.round_id,
            games=[(1, 2), (3, 4)],
            byes=[],
            who=ARBITER,
            reason="a player's train is late",
        )
        assert (edited.games, edited.warnings) == ([(1, 2), (3, 4)], [])
        short = await desk.pairing.edit(
            round_id=one.round_id,
            games=[(1, 2)],
            byes=[(3, ByeKind.HALF_POINT)],
            who=ARBITER,
            reason="oops",
        )
        assert (short.games, short.byes, short.warnings) == (
            [(1, 2)],
            [(3, "half")],
            ["not paired: 4"],
        )
        with pytest.raises(PairingRefusedError, match=r"^no player with start number 99$"):
            await desk.pairing.edit(
                round_id=one.round_id, games=[(1, 99)], byes=[], who=ARBITER, reason=""
            )
        with pytest.raises(ConflictError, match=r"is paired twice in round 1$"):
            await desk.pairing.edit(
                round_id=one.round_id, games=[(1, 2), (2, 3)], byes=[], who=ARBITER, reason=""
            )
        restored = await desk.pairing.edit(
            round_id=one.round_id, games=[(1, 4), (2, 3)], byes=[], who=ARBITER, reason="back"
        )
        first = await desk.recorder.run(lambda s: list_games(s, round_id=one.round_id)[0].id)
        assert first is not None
        e4 = MoveMade(1, "e2e4", "e4", "", 1.0)
        await desk.recorder.record(round_id=one.round_id, game_id=first, events=[e4])
        with pytest.raises(ConflictError, match=r"^round 1 has begun: its pairings stay$"):
            await desk.pairing.edit(
                round_id=one.round_id, games=[(1, 2), (3, 4)], byes=[], who=ARBITER, reason="late"
            )
    assert restored.games == [(1, 4), (2, 3)]
    assert stored_pairings(engine, one.round_id) == [(1, 1, 4), (2, 2, 3)]
    assert stored_byes(engine, one.round_id) == []
    assert [
        (reason, detail)
        for _, action, _, reason, detail in audit_trail(engine)
        if action == "edit-pairings"
    ] == [
        ("a player's train is late", {"games": [[1, 2], [3, 4]], "byes": []}),
        ("oops", {"games": [[1, 2]], "byes": [[3, "half"]]}),
        ("back", {"games": [[1, 4], [2, 3]], "byes": []}),
    ]


async def test_a_paired_round_is_published_by_the_arbiter(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        assert (await desk.pairing.pairings(round_id=one.round_id)).published is False
        await desk.arbiter.publish(round_id=one.round_id, published=True, who=ARBITER)
        shown = await desk.pairing.pairings(round_id=one.round_id)
    assert shown == RoundPairings(one.round_id, 1, True, [(1, 4), (2, 3)], [], [])


# Byes and withdrawals


async def test_a_round_robin_goes_on_without_a_withdrawn_player(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(one.round_id, ["1-0", "0-1"])
        await desk.pairing.withdraw(tournament_id=tid, start_number=4, after_round=1, who=ARBITER)
        two = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(two.round_id, ["1/2-1/2"])
        three = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    # Berger for four: round 2 is 4-3, 1-2 and round 3 is 2-4, 3-1; player 4's games go.
    assert (two.games, two.byes) == ([(1, 2)], [])
    assert (three.games, three.byes) == ([(3, 1)], [])
    assert stored_pairings(engine, three.round_id) == [(1, 3, 1)]


async def test_a_bye_asked_for_in_a_round_robin_is_refused_in_words_and_kept(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(one.round_id, ["1-0", "0-1"])
        two = await desk.pairing.request_bye(
            tournament_id=tid, number=2, start_number=3, kind=ByeKind.HALF_POINT, who=ARBITER
        )
        with pytest.raises(PairingRefusedError, match=r"player 3 asked for one"):
            await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        assert two.id is not None
        assert stored_byes(engine, two.id) == [(3, "half")]  # nothing lost
        await desk.pairing.request_bye(
            tournament_id=tid, number=2, start_number=3, kind=None, who=ARBITER
        )
        paired = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
    assert (paired.number, paired.games) == (2, [(4, 3), (1, 2)])


async def test_a_bye_is_asked_for_a_round_not_yet_paired(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        two = await desk.pairing.request_bye(
            tournament_id=tid, number=2, start_number=3, kind=ByeKind.HALF_POINT, who=ARBITER
        )
        assert (two.number, two.published) == (2, False)
        assert two.id is not None
        assert stored_byes(engine, two.id) == [(3, "half")]
        again = await desk.pairing.request_bye(
            tournament_id=tid, number=2, start_number=3, kind=ByeKind.FULL_POINT, who=ARBITER
        )
        assert again.id == two.id
        assert stored_byes(engine, two.id) == [(3, "full")]
        await desk.pairing.request_bye(
            tournament_id=tid, number=2, start_number=3, kind=None, who=ARBITER
        )
        assert stored_byes(engine, two.id) == []
        with pytest.raises(ConflictError, match=r"^Player, No1 plays board 1 in round 1$"):
            await desk.pairing.request_bye(
                tournament_id=tid, number=1, start_number=1, kind=ByeKind.HALF_POINT, who=ARBITER
            )
        with pytest.raises(NotFoundError, match=r"^no player with start number 9$"):
            await desk.pairing.request_bye(
                tournament_id=tid, number=2, start_number=9, kind=ByeKind.HALF_POINT, who=ARBITER
            )
        with pytest.raises(
            ConflictError, match=r"^a bye is one of pab, half, full, zero, not 'x'$"
        ):
            await desk.pairing.request_bye(
                tournament_id=tid,
                number=2,
                start_number=3,
                kind="x",  # type: ignore[arg-type]
                who=ARBITER,
            )
    assert stored_byes(engine, one.round_id) == []
    with Session(engine) as session:
        assert [r.number for r in list_rounds(session, tournament_id=tid)] == [1, 2]
    assert [
        (target, detail) for _, action, target, _, detail in audit_trail(engine) if action == "bye"
    ] == [
        (f"round {two.id}", {"player": 3, "kind": "half"}),
        (f"round {two.id}", {"player": 3, "kind": "full"}),
        (f"round {two.id}", {"player": 3, "kind": None}),
    ]


async def test_a_player_withdraws_and_is_reinstated(engine):
    tid = tournament(engine, players=4, system="swiss", rounds=3)
    async with desk_on(engine) as desk:
        await desk.pairing.withdraw(tournament_id=tid, start_number=4, after_round=1, who=ARBITER)
        with Session(engine) as session:
            player = player_numbered(session, tournament_id=tid, start_number=4)
            assert player.withdrawn_after == 1
        await desk.pairing.withdraw(
            tournament_id=tid, start_number=4, after_round=None, who=ARBITER
        )
        with pytest.raises(NotFoundError, match=r"^no player with start number 7$"):
            await desk.pairing.withdraw(
                tournament_id=tid, start_number=7, after_round=1, who=ARBITER
            )
    with Session(engine) as session:
        player = player_numbered(session, tournament_id=tid, start_number=4)
    assert player.withdrawn_after is None
    assert [(action, target, detail) for _, action, target, _, detail in audit_trail(engine)] == [
        ("withdraw", f"player {player.id}", {"start_number": 4, "after_round": 1}),
        ("reinstate", f"player {player.id}", {"start_number": 4, "after_round": None}),
    ]


# Swiss


@pytest.mark.processes
async def test_a_swiss_round_keeps_the_byes_asked_for_and_leaves_out_the_withdrawn(engine):
    """The FIDE Dutch system by the real engine. Round 1: the bye asked for by player 3
    keeps them out, the four others are split in halves by rating, 1-2 against 4-5,
    colours alternating from board 1. Round 2: player 5 has withdrawn and rests."""
    tid = tournament(engine, players=5, system="swiss", rounds=2)
    async with desk_on(engine) as desk:
        asked = await desk.pairing.request_bye(
            tournament_id=tid, number=1, start_number=3, kind=ByeKind.HALF_POINT, who=ARBITER
        )
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        assert one.round_id == asked.id  # the empty round made for the bye is paired
        assert (one.games, one.byes, one.warnings) == ([(1, 4), (5, 2)], [(3, "half")], [])
        await desk.finish(one.round_id, ["1-0", "0-1"])
        await desk.pairing.withdraw(tournament_id=tid, start_number=5, after_round=1, who=ARBITER)
        two = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        # Swap in a rematch: allowed, with a warning from the pairing rules.
        rematch = await desk.pairing.edit(
            round_id=two.round_id,
            games=[(1, 4), *[g for g in two.games if 1 not in g and 4 not in g]],
            byes=[],
            who=ARBITER,
            reason="test",
        )
    assert stored_byes(engine, one.round_id) == [(3, "half")]
    placed = {n for game in two.games for n in game} | {n for n, _ in two.byes}
    assert placed == {1, 2, 3, 4}  # 5 has withdrawn
    assert len(two.games) == 2
    assert two.warnings == []
    assert not {frozenset(g) for g in two.games} & {frozenset(g) for g in one.games}
    assert any("1 and 4 have already played" in warning for warning in rematch.warnings)


async def test_the_report_has_every_verified_round(engine):
    tid = tournament(engine, players=4, system="round-robin", rounds=3)
    async with desk_on(engine) as desk:
        one = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(one.round_id, ["1-0", "1/2-1/2"])
        two = await desk.pairing.pair_next(tournament_id=tid, who=ARBITER)
        await desk.finish(two.round_id, ["0-1", "1-0"], verify=False)  # not a finished round
        report = await desk.pairing.report(tournament_id=tid)
    assert (report.name, report.rounds) == ("Pairing Open", 3)
    results = {
        p.start_number: (p.points, [(r.round, r.opponent, r.colour, r.result) for r in p.results])
        for p in report.players
    }
    assert results == {
        1: (1.0, [(1, 4, "w", "1")]),
        2: (0.5, [(1, 3, "w", "=")]),
        3: (0.5, [(1, 2, "b", "=")]),
        4: (0.0, [(1, 1, "b", "0")]),
    }
