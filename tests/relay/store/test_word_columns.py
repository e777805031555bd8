"""Columns of the domain's vocabularies: the word itself in the database, the member back."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError
from sqlmodel import Session, select

from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.vocabulary import UnknownWordError
from relay.store.models import Bye, Tournament
from relay.store.pairings import set_bye
from relay.store.tournaments import add_player, create_round, create_tournament

pytestmark = pytest.mark.both_stores


def test_the_database_holds_the_words_and_the_models_read_the_members(engine):
    with Session(engine) as session:
        tournament = create_tournament(session, name="Word Open")
        tournament.pairing_system = PairingSystem.DOUBLE_ROUND_ROBIN
        assert tournament.id is not None
        player = add_player(session, tournament_id=tournament.id, start_number=1, name="A, B")
        round_ = create_round(session, tournament_id=tournament.id, number=1)
        assert round_.id is not None
        assert player.id is not None
        set_bye(session, round_id=round_.id, player_id=player.id, kind=ByeKind.HALF_POINT)
        session.commit()
    with Session(engine) as session:
        stored = session.execute(text("SELECT pairing_system FROM tournament")).scalar_one()
        assert stored == "double-round-robin"
        assert session.execute(text("SELECT kind FROM bye")).scalar_one() == "half"
        read = session.exec(select(Tournament)).one()
        assert read.pairing_system is PairingSystem.DOUBLE_ROUND_ROBIN
        assert session.exec(select(Bye)).one().kind is ByeKind.HALF_POINT


def test_a_word_that_is_none_of_the_vocabulary_is_not_stored(engine):
    with Session(engine) as session:
        tournament = create_tournament(session, name="Word Open")
        tournament.pairing_system = "dutch"  # type: ignore[assignment]
        session.add(tournament)
        with pytest.raises(StatementError) as refused:
            session.flush()
        assert isinstance(refused.value.orig, UnknownWordError)
