"""Dependencies shared by the routers: the hub, a database session, who is asking."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session

from relay.hub.hub import Hub
from relay.store.access import ROLES, Identity, identify, shown_name
from relay.store.engine import database_name

_bearer = HTTPBearer(auto_error=False, description="A token from `relay token create`")


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_session(hub: Annotated[Hub, Depends(get_hub)]) -> Iterator[Session]:
    with Session(hub.engine) as session:
        yield session


HubDep = Annotated[Hub, Depends(get_hub)]
SessionDep = Annotated[Session, Depends(get_session)]


def token_identity(hub: Hub, token: str | None) -> Identity | None:
    """The user a token belongs to; None without a token or for a token that is not valid."""
    if not token:
        return None
    with Session(hub.engine) as session:
        return identify(session, token)


def caller(
    hub: HubDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Identity | None:
    """Who is calling: None without a token, else the token's user (a device too); 401 for
    a token that is not valid."""
    if credentials is None:
        return None
    identity = token_identity(hub, credentials.credentials)
    if identity is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "the token is not valid (unknown or revoked) in this hub's database "
            f"{database_name(hub.settings.db_url)}",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return identity


CallerDep = Annotated[Identity | None, Depends(caller)]


def viewer(identity: CallerDep) -> Identity | None:
    """Who is reading: None for the public (no token, or a device token: a tablet beside a
    board reads what the public reads), else the token's user."""
    return identity if identity is not None and identity.staff else None


ViewerDep = Annotated[Identity | None, Depends(viewer)]


class RoleCheck:
    """The dependency that admits users with ``role`` or a higher one. Every route that
    changes anything has one (``tests/relay/api/test_authorisation.py`` checks it), and
    the OpenAPI document names the role of each route as ``x-role``."""

    def __init__(self, role: str) -> None:
        self.role = role

    def __call__(self, identity: CallerDep, request: Request) -> Identity:
        if identity is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                f"this needs a token with the {self.role} role: send 'Authorization: Bearer TOKEN'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not identity.may(self.role):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"{identity.user} is {identity.role}; this needs {self.role}",
            )
        if identity.game_id is not None and request.path_params.get("game_id") != str(
            identity.game_id
        ):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"{identity.user}'s token is bound to game {identity.game_id}",
            )
        return identity


def require(role: str) -> RoleCheck:
    """A dependency that admits users with ``role`` or a higher one."""
    if role not in ROLES:
        raise ValueError(f"no role {role!r}")
    return RoleCheck(role)


KeyerDep = Annotated[Identity, Depends(require("keyer"))]
OperatorDep = Annotated[Identity, Depends(require("operator"))]
ArbiterDep = Annotated[Identity, Depends(require("arbiter"))]
AdminDep = Annotated[Identity, Depends(require("admin"))]


class ClubCheck(RoleCheck):
    """The dependency of a club's routes (docs/ladders.md): it admits the hub's admin, and
    the keys of the club the path names (``club_id``) whose club role is ``club_role`` or a
    higher one. Its :attr:`role` is ``admin``, the one role of :data:`ROLES` it admits, so
    the OpenAPI document's ``x-role`` and the authorisation tests treat it as an admin's
    route; ``x-club-role`` names the club role."""

    def __init__(self, club_role: str) -> None:
        super().__init__("admin")
        self.club_role = club_role

    def __call__(self, identity: CallerDep, request: Request) -> Identity:
        club = request.path_params.get("club_id", "")
        needs = f"this needs admin or a {self.club_role} key of club {club}"
        if identity is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                f"{needs}: send 'Authorization: Bearer TOKEN'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if identity.may("admin"):
            return identity
        if identity.club_id is not None and str(identity.club_id) != club:
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"{shown_name(identity.user)}'s key is for club {identity.club_id}; {needs}",
            )
        if identity.club_id is None or not identity.may_in_club(identity.club_id, self.club_role):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"{shown_name(identity.user)} is {identity.role}; {needs}",
            )
        return identity


ClubPlayerDep = Annotated[Identity, Depends(ClubCheck("club-player"))]
ClubOfficerDep = Annotated[Identity, Depends(ClubCheck("club-officer"))]
ClubAdminDep = Annotated[Identity, Depends(ClubCheck("club-admin"))]
