"""The store's data functions never commit: the caller composes a transaction from them and
commits it, so a failure in the middle of one leaves nothing stored."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from relay.bus.memory import MemoryBus
from relay.hub.recorder import GameRecorder
from relay.hub.trf_import import TrfImportError, import_trf
from relay.store.access import Identity, audit
from relay.store.event_log import append_events
from relay.store.models import AuditEntry, Game, GameEventRow, Player, Round, Tournament
from relay.store.pairings import set_pairings, withdraw
from relay.store.tournaments import (
    ConflictError,
    add_player,
    create_game,
    create_round,
    create_tournament,
)
from tests.relay.store.test_trf_import import club_open

pytestmark = pytest.mark.both_stores

MODELS = (Tournament, Player, Round, Game, GameEventRow, AuditEntry)
WHO = Identity("Chief Arbiter", "arbiter")


def counts(engine) -> dict[str, int]:
    with Session(engine) as session:
        return {m.__name__: session.exec(select(func.count()).select_from(m)).one() for m in MODELS}


def nothing(engine) -> bool:
    return set(counts(engine).values()) == {0}


def compose(session: Session) -> tuple[int, int, int]:
    """A tournament, two players, a round and a game with a move, audited: not committed."""
    tournament = create_tournament(session, name="Open")
    assert tournament.id is not None
    a = add_player(session, tournament_id=tournament.id, start_number=1, name="A, A")
    b = add_player(session, tournament_id=tournament.id, start_number=2, name="B, B")
    round_ = create_round(session, tournament_id=tournament.id, number=1)
    assert a.id is not None
    assert b.id is not None
    assert round_.id is not None
    game = create_game(session, round_id=round_.id, board=1, white_id=a.id, black_id=b.id)
    assert game.id is not None
    append_events(session, game_id=game.id, events=[("move", {"uci": "e2e4"})], recorded_at=1.0)
    audit(session, who=WHO, action="test", target=f"game {game.id}")
    return round_.id, a.id, b.id


def test_nothing_is_stored_until_the_caller_commits(engine):
    with Session(engine) as session:
        compose(session)
    assert nothing(engine)
    with Session(engine) as session:
        compose(session)
        session.commit()
    assert counts(engine) == {
        "Tournament": 1, "Player": 2, "Round": 1, "Game": 1, "GameEventRow": 1, "AuditEntry": 1
    }  # fmt: skip


def test_a_failure_in_the_middle_of_a_composed_transaction_leaves_nothing(engine):
    with Session(engine) as session:
        round_id, a, b = compose(session)
        withdraw(session, player_id=b, after_round=None)
        with pytest.raises(ConflictError, match="has begun"):  # the round has a move
            set_pairings(session, round_id=round_id, games=[(b, a)], byes=[])
        # The caller gives up: the session closes without a commit.
    assert nothing(engine)


def test_an_import_and_its_audit_entry_are_one_transaction(engine):
    trf = club_open()

    def work(session: Session) -> None:
        report = import_trf(session, trf, who_user="arbiter")
        audit(session, who=WHO, action="import-trf", target=f"tournament {report.tournament_id}")
        raise RuntimeError("the caller fails before committing")

    with Session(engine) as session, pytest.raises(RuntimeError):
        work(session)
    assert nothing(engine)
    players = []
    for p in trf.players:  # round 3's 9 - 2 made a double forfeit
        if p.start_number in (9, 2):
            results = [r if r.round != 3 else replace(r, result="-") for r in p.results]
            p = replace(p, results=results, points=p.points - (1 if p.start_number == 2 else 0))
        players.append(p)
    with Session(engine) as session:
        with pytest.raises(TrfImportError):
            import_trf(session, replace(trf, players=players), who_user="arbiter")
        session.commit()  # the refusal wrote nothing for the caller to commit
    assert nothing(engine)


@pytest.mark.anyio
async def test_the_store_thread_commits_what_work_leaves_and_nothing_when_it_raises(engine):
    recorder = GameRecorder(engine, MemoryBus())
    try:

        def failing(session: Session) -> None:
            compose(session)
            raise ConflictError("refused after writing")

        with pytest.raises(ConflictError):
            await recorder.run(failing)
        assert nothing(engine)
        await recorder.run(compose)
        assert counts(engine)["GameEventRow"] == 1
    finally:
        recorder.close()
