"""Who may call each route, read from the routes themselves.

A route's role is the role of the :class:`~relay.api.deps.RoleCheck` among its
dependencies (``OperatorDep``, ``ArbiterDep``, ``AdminDep``), or None for a public route.
:func:`declare` writes it into the OpenAPI document as ``x-role``; the authorisation tests
and the schema fuzz walk the same routes. :data:`ERROR_RESPONSES` are the error answers every
API route may give, as the document describes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute

from relay.api.deps import ClubCheck, RoleCheck
from relay.api.schemas.errors import ErrorAnswer

#: Methods that change something.
MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: Every API route's answers beyond its own: an error, for any other status.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "default": {
        "model": ErrorAnswer,
        "description": "An error: 4xx for the request (401 token, 403 role, 404, 409, 413 "
        "body too large, 422 input, 429 rate limit), 5xx for a fault of the hub's",
    }
}


def role_of(dependant: Dependant) -> str | None:
    """The role a route (or any of its dependencies) requires; None for none."""
    for dependency in _walk(dependant):
        if isinstance(dependency.call, RoleCheck):
            return dependency.call.role
    return None


def club_role_of(dependant: Dependant) -> str | None:
    """The club role a club's route admits besides the admin (docs/ladders.md); None for a
    route that is not a club's."""
    for dependency in _walk(dependant):
        if isinstance(dependency.call, ClubCheck):
            return dependency.call.club_role
    return None


def _walk(dependant: Dependant) -> Iterator[Dependant]:
    yield dependant
    for dependency in dependant.dependencies:
        yield from _walk(dependency)


def api_routes(app: FastAPI) -> Iterator[APIRoute | APIWebSocketRoute]:
    """The app's API routes and websocket routes (``/api/``, and the LiveChess feed's
    ``/livechess/``; not the pages), inside included routers."""
    yield from _routes(app.routes)


def _routes(routes: list[BaseRoute]) -> Iterator[APIRoute | APIWebSocketRoute]:
    for route in routes:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            if route.path.startswith(("/api/", "/livechess/")):
                yield route
            continue
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes)


def declare(app: FastAPI) -> None:
    """Name each route's role in the app's OpenAPI document (``x-role``)."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = make()
            for route in api_routes(app):
                role = role_of(route.dependant) if isinstance(route, APIRoute) else None
                if role is None:
                    continue
                assert isinstance(route, APIRoute)
                club_role = club_role_of(route.dependant)
                for method in route.methods or ():
                    operation = document["paths"].get(route.path, {}).get(method.lower())
                    if operation is not None:
                        operation["x-role"] = role
                        if club_role is not None:
                            operation["x-club-role"] = club_role
        return app.openapi_schema or make()

    app.openapi = openapi  # type: ignore[method-assign]
