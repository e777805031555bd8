"""Who may act for the players of one game on its electronic scoresheet: staff from the
operator up, or the game's own device (a keyer's token bound to that game, from ``relay
token create --role keyer --game ID``: the tablet beside the board). A keyer's token
without a game, or bound to another game, is refused (403), as is the public (401)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from relay.api.deps import CallerDep, RoleCheck
from relay.store.access import DEVICE_ROLE, Identity


class ScoresheetCheck(RoleCheck):
    """Operator and up (their role, named ``x-role`` in the OpenAPI document), or the
    device bound to the game in the path."""

    def __init__(self) -> None:
        super().__init__("operator")

    def __call__(self, identity: CallerDep, request: Request) -> Identity:
        if identity is not None and identity.game_id is not None:
            # A device: its role is enough, for its own game only (403 for any other).
            return RoleCheck(DEVICE_ROLE)(identity, request)
        return super().__call__(identity, request)


ScoresheetDep = Annotated[Identity, Depends(ScoresheetCheck())]
