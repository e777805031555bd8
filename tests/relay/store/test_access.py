from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select

from relay.store.access import (
    Identity,
    UnknownRoleError,
    audit,
    create_token,
    digest,
    identify,
    list_users,
    read_audit,
    revoke_tokens,
)
from relay.store.models import Token
from relay.store.tournaments import NotFoundError
from tests.pairings import paired_round

pytestmark = pytest.mark.both_stores


def test_a_token_identifies_its_user_and_only_its_digest_is_stored(engine):
    with Session(engine) as session:
        token = create_token(session, user="Chief Arbiter", role="arbiter")
        assert token.startswith("rly_")
        assert identify(session, token) == Identity("Chief Arbiter", "arbiter")
        assert identify(session, token + "x") is None
        stored = session.exec(select(Token)).one()
        assert stored.digest == digest(token)
        assert token not in stored.digest


def test_a_token_and_a_revocation_count_once_the_caller_commits(engine):
    with Session(engine) as session:
        token = create_token(session, user="op", role="operator")
    with Session(engine) as session:
        assert identify(session, token) is None  # never committed
        token = create_token(session, user="op", role="operator")
        session.commit()
    with Session(engine) as session:
        assert revoke_tokens(session, user="op") == 1
    with Session(engine) as session:
        assert identify(session, token) == Identity("op", "operator")  # not committed
        revoke_tokens(session, user="op")
        session.commit()
    with Session(engine) as session:
        assert identify(session, token) is None


def test_a_device_token_is_a_keyers_bound_to_one_game(engine):
    with Session(engine) as session:
        _, (game_id, *_) = paired_round(session)
        token = create_token(session, user="Board 1 tablet", role="keyer", game_id=game_id)
        staff = create_token(session, user="Desk", role="keyer")
        session.commit()
        device = identify(session, token)
        assert device == Identity("Board 1 tablet", "keyer", game_id)
        assert device is not None
        assert not device.staff
        assert identify(session, staff) == Identity("Desk", "keyer", None)
        with pytest.raises(UnknownRoleError, match="a token bound to a game is a keyer's"):
            create_token(session, user="Board 1 tablet", role="operator", game_id=game_id)
        with pytest.raises(NotFoundError):
            create_token(session, user="Board 9 tablet", role="keyer", game_id=game_id + 99)


def test_revoked_tokens_stop_working(engine):
    with Session(engine) as session:
        first = create_token(session, user="op", role="operator")
        second = create_token(session, user="op", role="operator")
        assert first != second
        assert revoke_tokens(session, user="op") == 2
        assert identify(session, first) is None
        assert identify(session, second) is None
        assert [u.name for u in list_users(session)] == ["op"]


def test_roles_are_ordered_and_unknown_ones_refused(engine):
    assert Identity("a", "admin").may("arbiter")
    assert Identity("a", "arbiter").may("operator")
    assert not Identity("a", "operator").may("arbiter")
    with Session(engine) as session, pytest.raises(UnknownRoleError):
        create_token(session, user="x", role="spectator")


def test_audit_keeps_who_what_why_newest_first(engine):
    who = Identity("Jane", "arbiter")
    with Session(engine) as session:
        audit(session, who=who, action="set-result", target="game 1", reason="scoresheet")
        audit(session, who=who, action="verify", target="game 1", detail={"result": "1-0"})
        entries = read_audit(session)
        assert [(e.action, e.user, e.reason) for e in entries] == [
            ("verify", "Jane", ""),
            ("set-result", "Jane", "scoresheet"),
        ]
        assert json.loads(entries[0].detail) == {"result": "1-0"}
