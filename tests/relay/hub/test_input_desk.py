"""The game-input desk on its own, over a real store: the round's games with their status,
keyed and checked by two keyers (the same one refused), notes, a proposed result and a
take-back, each stored, audited and published; each refusal stores and audits nothing; a
game its electronic board follows takes no take-back."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.domain.game.events import GameEvent, MoveMade
from relay.domain.game.keying import KeyingError
from relay.domain.results import Result
from relay.hub.arbiter_desk import ArbiterDesk
from relay.hub.game_views import GameViews
from relay.hub.input_desk import InputDesk
from relay.hub.recorder import GameRecorder
from relay.store.access import Identity
from tests.pairings import paired_round
from tests.relay.hub.desk_fakes import Heard, audit_trail, kinds, stored, without_at

pytestmark = pytest.mark.anyio

ANN = Identity("Desk Ann", "keyer")
BEN = Identity("Desk Ben", "keyer")


class Desks:
    def __init__(self, engine: Engine, followed: set[int]) -> None:
        self.bus = MemoryBus()
        self.recorder = GameRecorder(engine, self.bus)
        self.views = GameViews(engine, self.bus)
        arbiter = ArbiterDesk(self.recorder, self.views, lambda game_id, record: None)
        self.input = InputDesk(arbiter, self.views, lambda game_id: game_id in followed)

    async def key(self, round_id: int, game_id: int, *sans: str) -> None:
        board = chess.Board()
        events: list[GameEvent] = []
        for san in sans:
            move = board.push_san(san)
            events.append(MoveMade(board.ply(), move.uci(), san, board.fen(), 1.0))
        await self.recorder.record(round_id=round_id, game_id=game_id, events=events)


@contextlib.asynccontextmanager
async def desks_on(engine: Engine, followed: set[int] | None = None) -> AsyncIterator[Desks]:
    desks = Desks(engine, followed or set())
    try:
        yield desks
    finally:
        desks.views.close()
        desks.recorder.close()


async def test_keyed_by_one_keyer_checked_by_another(engine):
    with Session(engine) as session:
        round_id, (game_id, other_id) = paired_round(session, games=2)
    async with desks_on(engine) as desks:
        heard = Heard(desks.bus, game_id)
        await desks.key(round_id, game_id, "e4", "c5", "Nf3")
        keyed = await desks.input.mark(game_id=game_id, status="keyed", who=ANN)
        assert (keyed.record.input_status, keyed.record.keyed_by) == ("keyed", "Desk Ann")
        with pytest.raises(KeyingError, match=r"^Desk Ann keyed this game"):
            await desks.input.mark(game_id=game_id, status="checked", who=ANN)
        with pytest.raises(KeyingError, match="keyed or checked, not 'to-key'"):
            await desks.input.mark(game_id=game_id, status="to-key", who=ANN)
        checked = await desks.input.mark(game_id=game_id, status="checked", who=BEN)
        assert (checked.record.input_status, checked.record.checked_by) == ("checked", "Desk Ben")
        assert await heard.until(5) == ["move"] * 3 + ["input-status"] * 2
        games = await desks.input.round_games(round_id)
    assert [(g.pairing.game_id, g.record.input_status) for g in games] == [
        (game_id, "checked"),
        (other_id, "to-key"),
    ]
    assert [without_at(data) for _, data in stored(engine, game_id)[3:]] == [
        {"status": "keyed", "by": "Desk Ann"},
        {"status": "checked", "by": "Desk Ben"},
    ]
    assert [(user, action, detail) for user, action, _, _, detail in audit_trail(engine)] == [
        ("Desk Ann", "mark-keyed", {"status": "keyed"}),
        ("Desk Ben", "mark-checked", {"status": "checked"}),
    ]


async def test_notes_a_proposed_result_and_a_take_back(engine):
    with Session(engine) as session:
        round_id, (game_id,) = paired_round(session)
    async with desks_on(engine) as desks:
        await desks.key(round_id, game_id, "d4", "d5", "c4", "e6")
        await desks.input.note(game_id=game_id, ply=2, text="(=)", who=ANN)
        back = await desks.input.take_back(game_id=game_id, ply=3, who=ANN)
        assert len(back.record.moves) == 3
        proposed = await desks.input.propose(game_id=game_id, result=Result.DRAW, who=ANN)
        assert proposed.record.proposed_result == Result.DRAW
        game = await desks.input.game(game_id)
        assert [note.text for note in game.record.notes] == ["(=)"]
        assert "Nf6" in game.legal
    assert kinds(engine, game_id) == ["move"] * 4 + ["note", "takeback", "result-proposed"]
    assert [action for _, action, _, _, _ in audit_trail(engine)] == [
        "add-note",
        "take-back",
        "propose-result",
    ]


async def test_a_refusal_stores_and_audits_nothing(engine):
    with Session(engine) as session:
        round_id, (game_id,) = paired_round(session)
    async with desks_on(engine, followed={game_id}) as desks:
        await desks.key(round_id, game_id, "e4")
        with pytest.raises(KeyingError, match="followed by its electronic board"):
            await desks.input.take_back(game_id=game_id, ply=0, who=ANN)
        with pytest.raises(KeyingError, match="not keyed yet"):
            await desks.input.mark(game_id=game_id, status="checked", who=BEN)
        with pytest.raises(KeyingError, match="ply 5 is not in the game"):
            await desks.input.note(game_id=game_id, ply=5, text="time", who=ANN)
        assert (await desks.input.game(game_id)).followed
    assert kinds(engine, game_id) == ["move"]
    assert audit_trail(engine) == []
