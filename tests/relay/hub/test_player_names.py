"""The names desk over a real store (SQLite and PostgreSQL): a tournament's clashes with
their reasons and suggested merges, a merge audited and seen by the views at once, verified
results in published rounds kept from moving unless the arbiter says so, and two players of
one round never merged."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.domain.formats.event_file import EventSetup, PlayerSetup, RoundSetup, TournamentSetup
from relay.domain.game.events import GameEvent, ResultSet, ResultVerified
from relay.domain.results import Result
from relay.hub.game_views import GameViews
from relay.hub.player_names import PlayerNameError, PlayerNames
from relay.hub.recorder import GameRecorder
from relay.hub.tournament_history import PlayedGame, read_history
from relay.store.player_merge import PlayerMergeError
from relay.store.setup import load_event
from relay.store.tournaments import NotFoundError, list_games, list_players, list_rounds
from tests.relay.hub.desk_fakes import ARBITER, audit_trail

pytestmark = [pytest.mark.anyio, pytest.mark.both_stores]

PLAYERS = (
    PlayerSetup(1, "Kramnik, Vladimir", rating=2753),
    PlayerSetup(2, "Carlsen, Magnus", rating=2830),
    PlayerSetup(3, "Kramnik, V"),
    PlayerSetup(4, "Kramnik, Alexander"),
    PlayerSetup(5, "Müller, Jörg"),
    PlayerSetup(6, "Mueller, Joerg"),
)


def load(engine: Engine, *rounds: RoundSetup) -> tuple[int, dict[int, int], list[int]]:
    """The tournament; player id by start number; round ids by number."""
    setup = EventSetup(
        tournament=TournamentSetup(name="Names Open"), players=PLAYERS, rounds=rounds
    )
    with Session(engine) as session:
        tid = load_event(session, setup).tournament_id
        session.commit()
        players = {p.start_number: p.id or 0 for p in list_players(session, tournament_id=tid)}
        round_ids = [r.id or 0 for r in list_rounds(session, tournament_id=tid)]
    return tid, players, round_ids


class Desk:
    def __init__(self, engine: Engine) -> None:
        bus = MemoryBus()
        self.recorder = GameRecorder(engine, bus)
        self.views = GameViews(engine, bus)
        self.names = PlayerNames(self.recorder, self.views)

    async def verify(self, round_id: int, board: int, result: str) -> None:
        games = await self.recorder.run(lambda s: list_games(s, round_id=round_id))
        game = next(g for g in games if g.board == board)
        assert game.id is not None
        events: list[GameEvent] = [
            ResultSet(Result(result), "Chief Arbiter", "scoresheet", 1.0),
            ResultVerified(Result(result), "Chief Arbiter", 2.0),
        ]
        await self.recorder.record(round_id=round_id, game_id=game.id, events=events)


@contextlib.asynccontextmanager
async def desk_on(engine: Engine) -> AsyncIterator[Desk]:
    desk = Desk(engine)
    try:
        yield desk
    finally:
        desk.views.close()
        desk.recorder.close()


async def test_clashes_come_with_reasons_and_a_suggested_merge(engine):
    tid, player, _ = load(engine, RoundSetup(1, pairings=((3, 2),), published=False))
    async with desk_on(engine) as desk:
        clashes = await desk.names.clashes(tournament_id=tid)
        found = [
            (c.first.name, c.second.name, c.reasons, c.keep.id, c.drop.id, c.name) for c in clashes
        ]
        assert found == [
            (
                "Kramnik, Vladimir",
                "Kramnik, V",
                ("initial V matches Vladimir",),
                player[3],  # the row that plays stays
                player[1],
                "Kramnik, Vladimir",  # the fuller name
            ),
            (
                "Müller, Jörg",
                "Mueller, Joerg",
                ("same name with ö written oe, ü written ue",),
                player[5],
                player[6],
                "Müller, Jörg",
            ),
        ]
        assert all(c.refused is None and c.published_results is None for c in clashes)
        assert await desk.names.warning(tournament_id=tid) == (
            "4 players may be the same person: Kramnik, Vladimir and Kramnik, V; "
            "Müller, Jörg and Mueller, Joerg"
        )
        with pytest.raises(NotFoundError):
            await desk.names.clashes(tournament_id=tid + 100)


async def test_a_merge_is_audited_and_the_views_show_the_one_player_at_once(engine):
    tid, player, (round_id,) = load(engine, RoundSetup(1, pairings=((3, 2), (4, 5))))
    async with desk_on(engine) as desk:
        before = await desk.views.round(round_id)
        assert before[0].pairing.white.name == "Kramnik, V"
        merged = await desk.names.merge(
            tournament_id=tid,
            keep_id=player[3],
            drop_id=player[1],
            name=None,
            who=ARBITER,
            reason="one entry typed twice",
        )
        assert (merged.kept.name, merged.kept.start_number, merged.kept.rating) == (
            "Kramnik, Vladimir",
            2,  # 3 moved down: 1 went
            2753,
        )
        after = await desk.views.round(round_id)
        assert [(v.pairing.white.name, v.pairing.black.name) for v in after] == [
            ("Kramnik, Vladimir", "Carlsen, Magnus"),
            ("Kramnik, Alexander", "Müller, Jörg"),
        ]
        assert 'Kramnik, V"' not in after[0].pgn(after[0].version)
        assert '[White "Kramnik, Vladimir"]' in after[0].pgn(after[0].version)
        clashes = await desk.names.clashes(tournament_id=tid)
        assert [(c.first.name, c.second.name) for c in clashes] == [
            ("Müller, Jörg", "Mueller, Joerg")
        ]
    (entry,) = [e for e in audit_trail(engine) if e[1] == "merge-players"]
    user, _, target, reason, detail = entry
    assert (user, target, reason) == (
        "Chief Arbiter",
        f"player {player[3]}",
        "one entry typed twice",
    )
    assert detail["dropped_name"] == "Kramnik, Vladimir"
    assert detail["name_before"] == "Kramnik, V"
    assert detail["renumbered"] == [[2, 1], [3, 2], [4, 3], [5, 4], [6, 5]]


async def test_the_name_chosen_is_written_family_comma_given(engine):
    tid, player, _ = load(engine)
    async with desk_on(engine) as desk:
        merged = await desk.names.merge(
            tournament_id=tid, keep_id=player[5], drop_id=player[6], name=" Jörg  Müller ",
            who=ARBITER,
        )  # fmt: skip
        assert merged.kept.name == "Müller, Jörg"
        with pytest.raises(PlayerNameError):
            await desk.names.merge(
                tournament_id=tid, keep_id=player[1], drop_id=player[3], name=" , ", who=ARBITER
            )


async def test_verified_results_in_published_rounds_move_only_when_the_arbiter_says_so(engine):
    tid, player, (one, two) = load(
        engine,
        RoundSetup(1, pairings=((3, 2),)),  # published: Kramnik, V plays and is verified
        RoundSetup(2, pairings=((1, 4),)),  # published too: Kramnik, Vladimir, verified
    )
    async with desk_on(engine) as desk:
        await desk.verify(one, 1, "1-0")
        (clash, *_) = await desk.names.clashes(tournament_id=tid)
        # The suggestion keeps the row with official results: nothing official moves.
        assert (clash.keep.id, clash.refused, clash.published_results) == (player[3], None, None)
        await desk.verify(two, 1, "1/2-1/2")
        (clash, *_) = await desk.names.clashes(tournament_id=tid)
        # Both rows have official results: whichever goes, results move.
        assert clash.published_results == (
            "Kramnik, V has verified results in published rounds (round 1 (board 1)): merging "
            "moves them to Kramnik, Vladimir, and the public standings change"
        )
        with pytest.raises(PlayerMergeError, match="send rewrite_published"):
            await desk.names.merge(
                tournament_id=tid, keep_id=player[1], drop_id=player[3], name=None, who=ARBITER
            )
        merged = await desk.names.merge(
            tournament_id=tid,
            keep_id=player[1],
            drop_id=player[3],
            name=None,
            who=ARBITER,
            rewrite_published=True,
        )
        assert merged.games == 1
        played = [(g.white, g.black, g.result) for r in await _history(desk, tid) for g in r]
        assert played == [(1, 2, "1-0"), (1, 3, "1/2-1/2")]


async def _history(desk: Desk, tid: int) -> list[list[PlayedGame]]:
    history = await read_history(desk.recorder, desk.views, tid)
    return [list(r.games) for r in history.rounds]


async def test_two_players_of_one_round_are_flagged_but_never_merged(engine):
    tid, player, _ = load(engine, RoundSetup(1, pairings=((1, 3), (5, 2)), published=False))
    async with desk_on(engine) as desk:
        clashes = await desk.names.clashes(tournament_id=tid)
        kramnik = clashes[0]
        assert kramnik.refused == (
            "both play in one round (round 1 (board 1) and round 1 (board 1)): two people"
        )
        # Only the clash a merge could resolve is warned of.
        assert await desk.names.warning(tournament_id=tid) == (
            "2 players may be the same person: Müller, Jörg and Mueller, Joerg"
        )
        with pytest.raises(PlayerMergeError, match="they are two people"):
            await desk.names.merge(
                tournament_id=tid, keep_id=player[1], drop_id=player[3], name=None, who=ARBITER
            )
    assert [e for e in audit_trail(engine) if e[1] == "merge-players"] == []
