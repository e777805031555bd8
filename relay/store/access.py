"""Users, their API tokens and the audit trail of what they did.

A token is shown once, when it is made; the database keeps only its SHA-256 digest. Tokens
carry 256 random bits, so a fast digest is enough: there is nothing to guess.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from relay.domain.errors import InvalidInputError
from relay.store.models import AuditEntry, Club, ClubMember, Player, Token, User
from relay.store.tournaments import NotFoundError, get_game

#: From least to most: each role may do what the ones before it may.
ROLES = ("keyer", "operator", "arbiter", "admin")
#: The role of a device token (bound to one game).
DEVICE_ROLE = "keyer"
#: Roles of club keys, each bound to one club, from least to most (docs/ladders.md): a
#: player enters the results of their own games, an officer runs the club's ladders, the
#: club's admin also authorises keys. They are none of :data:`ROLES`: a club key does
#: nothing outside its club.
CLUB_ROLES = ("club-player", "club-officer", "club-admin")
#: The role of a correspondence player's key, bound to one player of one event
#: (docs/correspondence.md): the player moves in their own games and announces leave. It is
#: none of :data:`ROLES`.
CC_PLAYER_ROLE = "cc-player"
#: A correspondence player's key's user: ``correspondence player P``.
CC_PLAYER_USER = re.compile(r"correspondence player (\d+)")
TOKEN_PREFIX = "rly_"
#: A player key's user: ``club C member M``, reserved for the player keys of club C.
PLAYER_USER = re.compile(r"club (\d+) member (\d+)")
#: A club officer's or admin's user: ``club C: NAME``, the club's own namespace (shown as
#: NAME), so that no club takes a name another club's keys (or the hub's users) hold.
OFFICER_USER = re.compile(r"club (\d+): (.+)", re.DOTALL)
#: What a hub user's name may not look like: a club key's.
_CLUB_NAME = re.compile(r"club \d+(?: member \d+$|: )|correspondence player \d+$")


def cc_player_user(player_id: int) -> str:
    """The user of the keys of player ``player_id`` of a correspondence event."""
    return f"correspondence player {player_id}"


def player_user(club_id: int, member_id: int) -> str:
    """The user of the player keys of member ``member_id`` of club ``club_id``."""
    return f"club {club_id} member {member_id}"


def club_user(club_id: int, name: str) -> str:
    """The user of club ``club_id``'s officer or admin called ``name`` (its namespace)."""
    return f"club {club_id}: {name}"


def shown_name(user: str) -> str:
    """A user's name as shown: a club officer's without its club's prefix."""
    found = OFFICER_USER.fullmatch(user)
    return user if found is None else found.group(2)


class UnknownRoleError(ValueError, InvalidInputError):
    """A role that is not one of :data:`ROLES` (or, for a club key, :data:`CLUB_ROLES`)."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who presented a valid token; ``game_id`` for a device token, bound to that game;
    ``club_id`` for a club key (and ``member_id`` for a player's), bound to that club;
    ``player_id`` for a correspondence player's key, bound to that player."""

    user: str
    role: str
    game_id: int | None = None
    club_id: int | None = None
    member_id: int | None = None
    player_id: int | None = None

    def may(self, role: str) -> bool:
        """Whether the identity holds ``role`` of :data:`ROLES` or a higher one; a club key
        holds none of them."""
        if self.role not in ROLES:
            return False
        return ROLES.index(self.role) >= ROLES.index(role)

    def may_in_club(self, club_id: int, role: str) -> bool:
        """Whether the identity may act with the club role ``role`` in club ``club_id``: a
        key of that club with that role or a higher one, or the global admin."""
        if self.may("admin"):
            return True
        if self.club_id != club_id or self.role not in CLUB_ROLES:
            return False
        return CLUB_ROLES.index(self.role) >= CLUB_ROLES.index(role)

    @property
    def staff(self) -> bool:
        """Reads live what the public sees late or not at all; a device token, a club key
        and a correspondence player's key do not."""
        return self.game_id is None and self.club_id is None and self.player_id is None


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(
    session: Session,
    *,
    user: str,
    role: str,
    game_id: int | None = None,
    club_id: int | None = None,
    member_id: int | None = None,
    player_id: int | None = None,
) -> str:
    """A new token for ``user`` (created with ``role`` if new; its role updated if not).
    With ``game_id``, a device token: a keyer's, bound to that game (it enters that game's
    moves and reads what the public reads). With ``club_id``, a club key of one of
    :data:`CLUB_ROLES`, bound to that club (``member_id``: the member a player key is
    for); a user is either a club key's or not, never both. A club key's user is named for
    it (:func:`player_user`, :func:`club_user`), and a club key never changes the role (or
    club) of a user that exists: it is refused in words instead.

    The token is stored when the caller commits the session."""
    if player_id is not None or role == CC_PLAYER_ROLE:
        _check_cc_player_key(session, user=user, role=role, player_id=player_id)
    elif club_id is not None or role in CLUB_ROLES:
        _check_club_key(session, user=user, role=role, club_id=club_id, member_id=member_id)
    elif role not in ROLES:
        raise UnknownRoleError(f"role {role!r} is not one of {', '.join(ROLES)}")
    elif member_id is not None:
        raise UnknownRoleError("a token for a club member is a club key: give its club")
    else:
        if _CLUB_NAME.match(user):
            raise UnknownRoleError(
                f"{user!r} is named like a club's or a player's key: give the {role} another name"
            )
        existing = session.exec(select(User).where(User.name == user)).first()
        if existing is not None and (
            existing.role in CLUB_ROLES or existing.role == CC_PLAYER_ROLE
        ):
            raise UnknownRoleError(f"{user} holds a club key: give the {role} another name")
    if game_id is not None:
        if role != DEVICE_ROLE:
            raise UnknownRoleError(f"a token bound to a game is a {DEVICE_ROLE}'s, not {role!r}")
        get_game(session, game_id=game_id)  # NotFoundError: no such game
    row = session.exec(select(User).where(User.name == user)).first()
    if row is None:
        row = User(name=user, role=role)
    row.role = role
    session.add(row)
    session.flush()
    assert row.id is not None
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(
        Token(
            user_id=row.id,
            digest=digest(token),
            created_at=time.time(),
            game_id=game_id,
            club_id=club_id,
            member_id=member_id,
            player_id=player_id,
        )
    )
    return token


def _check_cc_player_key(session: Session, *, user: str, role: str, player_id: int | None) -> None:
    if role != CC_PLAYER_ROLE or player_id is None:
        raise UnknownRoleError(
            f"a correspondence player's key is a {CC_PLAYER_ROLE}'s, for a player"
        )
    if session.get(Player, player_id) is None:
        raise NotFoundError(f"no player {player_id}")
    if user != cc_player_user(player_id):
        raise UnknownRoleError(
            f"a correspondence player's key's user is named {cc_player_user(player_id)!r}"
        )


def _check_club_key(
    session: Session, *, user: str, role: str, club_id: int | None, member_id: int | None
) -> None:
    if role not in CLUB_ROLES:
        raise UnknownRoleError(f"a club key's role is one of {', '.join(CLUB_ROLES)}, not {role!r}")
    if club_id is None:
        raise UnknownRoleError(f"a {role} key is bound to a club: give its club")
    if session.get(Club, club_id) is None:
        raise NotFoundError(f"no club {club_id}")
    if member_id is not None:
        member = session.get(ClubMember, member_id)
        if member is None or member.club_id != club_id:
            raise NotFoundError(f"no member {member_id} in club {club_id}")
    if role == "club-player":
        if member_id is None:
            raise UnknownRoleError("a player key is for a member: give its member")
        if user != player_user(club_id, member_id):
            raise UnknownRoleError(
                f"a player key's user is named {player_user(club_id, member_id)!r}"
            )
    else:
        if member_id is not None:
            raise UnknownRoleError(f"a {role} key is for no member")
        if PLAYER_USER.fullmatch(shown_name(user)):
            raise UnknownRoleError(f"{shown_name(user)!r} is the name of a player key's user")
        found = OFFICER_USER.fullmatch(user)
        if found is None or found.group(1) != str(club_id):
            raise UnknownRoleError(f"a {role} key's user is named 'club {club_id}: NAME'")
    existing = session.exec(select(User).where(User.name == user)).first()
    if existing is not None and existing.role != role:
        raise UnknownRoleError(
            f"{shown_name(user)} holds the {existing.role} role: give the {role} key a name "
            "of its own"
        )
    if existing is not None:
        clubs = session.exec(select(Token.club_id).where(Token.user_id == existing.id)).all()
        if any(other != club_id for other in clubs):
            raise UnknownRoleError(f"{user} holds a key of another club: use another name")


def identify(session: Session, token: str) -> Identity | None:
    """The user a token belongs to (with the game a device token is bound to), or None for
    an unknown or revoked token."""
    row = session.exec(
        select(User, Token)
        .join(Token, col(Token.user_id) == col(User.id))
        .where(Token.digest == digest(token), col(Token.revoked_at).is_(None))
    ).first()
    if row is None:
        return None
    user, key = row
    return Identity(user.name, user.role, key.game_id, key.club_id, key.member_id, key.player_id)


def revoke_tokens(session: Session, *, user: str) -> int:
    """Revoke every live token of ``user`` (when the caller commits); returns how many
    there were."""
    tokens = session.exec(
        select(Token)
        .join(User, col(Token.user_id) == col(User.id))
        .where(User.name == user, col(Token.revoked_at).is_(None))
    ).all()
    now = time.time()
    for token in tokens:
        token.revoked_at = now
        session.add(token)
    return len(tokens)


def revoke_club_tokens(
    session: Session, *, club_id: int, member_id: int | None = None, user: str | None = None
) -> int:
    """Revoke the live keys of club ``club_id`` (when the caller commits): a member's player
    keys (``member_id``), or a user's officer or admin keys (``user``), by the club and
    member the keys are bound to, never by a name alone; returns how many there were."""
    query = (
        select(Token)
        .join(User, col(Token.user_id) == col(User.id))
        .where(Token.club_id == club_id, col(Token.revoked_at).is_(None))
    )
    if member_id is not None:
        query = query.where(Token.member_id == member_id)
    else:
        query = query.where(col(Token.member_id).is_(None), User.name == user)
    tokens = session.exec(query).all()
    now = time.time()
    for token in tokens:
        token.revoked_at = now
        session.add(token)
    return len(tokens)


def list_users(session: Session) -> Sequence[User]:
    return session.exec(select(User).order_by(col(User.name))).all()


def audit(
    session: Session,
    *,
    who: Identity,
    action: str,
    target: str,
    reason: str = "",
    detail: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Add an entry to the audit trail, in the caller's transaction (the caller commits it
    with the change it records, so neither is stored without the other)."""
    entry = AuditEntry(
        at=time.time(),
        user=who.user,
        role=who.role,
        action=action,
        target=target,
        reason=reason,
        detail=json.dumps(dict(detail or {}), separators=(",", ":")),
    )
    session.add(entry)
    session.flush()
    return entry


def read_audit(session: Session, *, limit: int = 100) -> Sequence[AuditEntry]:
    return session.exec(select(AuditEntry).order_by(col(AuditEntry.id).desc()).limit(limit)).all()
