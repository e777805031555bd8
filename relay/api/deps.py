"""Dependencies shared by the routers: the hub and a database session per request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import Session

from relay.hub.hub import Hub


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_session(hub: Annotated[Hub, Depends(get_hub)]) -> Iterator[Session]:
    with Session(hub.engine) as session:
        yield session


HubDep = Annotated[Hub, Depends(get_hub)]
SessionDep = Annotated[Session, Depends(get_session)]
