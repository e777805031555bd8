"""Users, their API tokens and the audit trail of what they did.

A token is shown once, when it is made; the database keeps only its SHA-256 digest. Tokens
carry 256 random bits, so a fast digest is enough: there is nothing to guess.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from relay.domain.errors import InvalidInputError
from relay.store.models import AuditEntry, Token, User
from relay.store.tournaments import get_game

#: From least to most: each role may do what the ones before it may.
ROLES = ("keyer", "operator", "arbiter", "admin")
#: The role of a device token (bound to one game).
DEVICE_ROLE = "keyer"
TOKEN_PREFIX = "rly_"


class UnknownRoleError(ValueError, InvalidInputError):
    """A role that is not one of :data:`ROLES`."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who presented a valid token; ``game_id`` for a device token, bound to that game."""

    user: str
    role: str
    game_id: int | None = None

    def may(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)

    @property
    def staff(self) -> bool:
        """Reads live what the public sees late or not at all; a device token does not."""
        return self.game_id is None


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(session: Session, *, user: str, role: str, game_id: int | None = None) -> str:
    """A new token for ``user`` (created with ``role`` if new; its role updated if not).
    With ``game_id``, a device token: a keyer's, bound to that game (it enters that game's
    moves and reads what the public reads).

    The token is stored when the caller commits the session."""
    if role not in ROLES:
        raise UnknownRoleError(f"role {role!r} is not one of {', '.join(ROLES)}")
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
        Token(user_id=row.id, digest=digest(token), created_at=time.time(), game_id=game_id)
    )
    return token


def identify(session: Session, token: str) -> Identity | None:
    """The user a token belongs to (with the game a device token is bound to), or None for
    an unknown or revoked token."""
    row = session.exec(
        select(User, Token.game_id)
        .join(Token, col(Token.user_id) == col(User.id))
        .where(Token.digest == digest(token), col(Token.revoked_at).is_(None))
    ).first()
    if row is None:
        return None
    user, game_id = row
    return Identity(user.name, user.role, game_id)


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
