"""Club keys (docs/ladders.md): bound to one club, none of the hub's roles, never staff."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from relay.store.access import UnknownRoleError, create_token, identify
from relay.store.clubs import add_member, create_club
from relay.store.tournaments import NotFoundError

pytestmark = pytest.mark.both_stores


def test_a_club_key_is_bound_to_its_club_and_is_no_hub_role(engine):
    with Session(engine) as session:
        club = create_club(session, name="Hexham CC").id
        other = create_club(session, name="Morpeth CC").id
        assert club is not None
        assert other is not None
        member = add_member(
            session, club_id=club, name="Able, Ann", ecf_member=True, grading_code=None
        ).id
        assert member is not None
        key = create_token(
            session,
            user=f"club {club} member {member}",
            role="club-player",
            club_id=club,
            member_id=member,
        )
        officer = create_token(
            session, user=f"club {club}: Captain", role="club-officer", club_id=club
        )
        session.commit()
        who = identify(session, key)
        assert who is not None
        assert (who.role, who.club_id, who.member_id) == ("club-player", club, member)
        assert not who.staff  # reads what the public reads
        assert not who.may("keyer")
        assert who.may_in_club(club, "club-player")
        assert not who.may_in_club(club, "club-officer")
        captain = identify(session, officer)
        assert captain is not None
        assert captain.may_in_club(club, "club-player")
        assert not captain.may_in_club(other, "club-player")
        with pytest.raises(UnknownRoleError, match="bound to a club"):
            create_token(session, user="x", role="club-officer")
        with pytest.raises(UnknownRoleError, match="club key's role"):
            create_token(session, user="x", role="arbiter", club_id=club)
        with pytest.raises(NotFoundError, match="no member"):
            create_token(session, user="y", role="club-player", club_id=other, member_id=member)
        with pytest.raises(UnknownRoleError, match=f"named 'club {other}: NAME'"):
            create_token(session, user=f"club {club}: Captain", role="club-officer", club_id=other)
        create_token(session, user=f"club {club}: Chief", role="club-officer", club_id=club)
        with pytest.raises(UnknownRoleError, match="named like a club's or a player's key"):
            create_token(session, user=f"club {club}: Chief", role="admin")


def test_a_club_key_never_changes_an_existing_user_and_player_names_are_reserved(engine):
    with Session(engine) as session:
        club = create_club(session, name="Hexham CC").id
        other = create_club(session, name="Morpeth CC").id
        assert club is not None
        assert other is not None
        admin = create_token(session, user=f"club {club}: Secretary", role="club-admin",
                             club_id=club)  # fmt: skip
        with pytest.raises(UnknownRoleError, match="holds the club-admin role"):
            create_token(session, user=f"club {club}: Secretary", role="club-officer",
                         club_id=club)  # fmt: skip
        session.commit()
        who = identify(session, admin)
        assert who is not None
        assert who.role == "club-admin"
        # An officer's or admin's user is named in its club's namespace ...
        with pytest.raises(UnknownRoleError, match="named 'club"):
            create_token(session, user="Captain", role="club-officer", club_id=club)
        with pytest.raises(UnknownRoleError, match="named 'club"):
            create_token(session, user=f"club {other}: Captain", role="club-officer",
                         club_id=club)  # fmt: skip
        # ... and a player key's user is its member's.
        with pytest.raises(UnknownRoleError, match="player key"):
            create_token(session, user=f"club {other} member 5", role="club-officer",
                         club_id=club)  # fmt: skip
        # The hub's users keep out of both.
        with pytest.raises(UnknownRoleError, match="club"):
            create_token(session, user=f"club {club}: Boss", role="admin")
        with pytest.raises(UnknownRoleError, match="club"):
            create_token(session, user=f"club {club} member 1", role="arbiter")
