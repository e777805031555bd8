"""The operator's routes: attaching electronic boards to games and taking them off, each
board's clock setting, and the scoresheet's draw offers (an operator's token, or the
game's own device token: ``relay.api.device_access``)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from relay.api.deps import HubDep, OperatorDep
from relay.api.device_access import ScoresheetDep
from relay.api.ids import BodyId, EBoardId, GameId
from relay.api.refusals import refusals
from relay.api.schemas.boards import (
    BoardAssignment,
    EBoardClockSide,
    EBoardPort,
    GameBoardState,
)
from relay.api.schemas.games import DrawOfferState
from relay.domain.clock.orientation import ClockSide
from relay.domain.game.draw_offers import DrawOfferError
from relay.store.tournaments import ConflictError, NotFoundError

router = APIRouter(prefix="/api", tags=["boards"])


class AssignIn(BaseModel):
    eboard_id: BodyId | None = Field(description="the electronic board, or null to unassign")


@router.put("/games/{game_id}/board")
async def assign(hub: HubDep, who: OperatorDep, game_id: GameId, body: AssignIn) -> BoardAssignment:
    """Assign an electronic board of the tournament to the game."""
    try:
        game = await hub.desk.assign(game_id=game_id, eboard_id=body.eboard_id, who=who)
    except NotFoundError as error:
        raise HTTPException(404, f"no {error}") from None
    except ConflictError as error:
        raise HTTPException(409, str(error)) from None
    return BoardAssignment.model_validate({"game_id": game.id, "eboard_id": game.eboard_id})


class ClockSideIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    clock: ClockSide = Field(
        description="White's side of the clock: white-left, white-right, or auto (decided "
        "from the clock's presses)"
    )


@router.put("/eboards/{eboard_id}/clock")
async def clock_side(
    hub: HubDep, who: OperatorDep, eboard_id: EBoardId, body: ClockSideIn
) -> EBoardClockSide:
    """Set which side of the electronic board's clock White's is. Games following the board
    read their clocks by it from now on; each records the change in its log."""
    with refusals(f"electronic board {eboard_id}"):
        eboard = await hub.set_clock_side(eboard_id=eboard_id, clock=body.clock, who=who)
    return EBoardClockSide.model_validate(
        {"id": eboard.id, "number": eboard.number, "clock": eboard.clock}
    )


class PortIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(
        min_length=1,
        max_length=500,
        pattern=r"^[^\s\x00-\x1f\x7f]+$",
        description="where the board is now: anything pyserial opens (/dev/ttyACM1, "
        "/dev/serial/by-id/..., socket://host:port) or agent://AGENT/BOARD",
    )


@router.put("/eboards/{eboard_id}/port")
async def port(hub: HubDep, who: OperatorDep, eboard_id: EBoardId, body: PortIn) -> EBoardPort:
    """Move the electronic board to another port (a USB board replugged or a machine
    restarted gives it another ``/dev/ttyACM*``). A game following it follows it there from
    now on; the change is audited."""
    with refusals(f"electronic board {eboard_id}"):
        eboard, not_followed = await hub.set_eboard_url(eboard_id=eboard_id, url=body.url, who=who)
    return EBoardPort.model_validate(
        {"id": eboard.id, "number": eboard.number, "url": eboard.url, "not_followed": not_followed}
    )


# A board's unknowns are left out, not null (see BoardHealthFields).
@router.post("/games/{game_id}/attach", response_model_exclude_unset=True)
async def attach(hub: HubDep, who: OperatorDep, game_id: GameId) -> GameBoardState:
    """Start following the game's assigned board."""
    # No board assigned, or the board in use: 409; its port cannot be opened: 503.
    with refusals(f"game {game_id}"):
        await hub.attach_game(game_id)
    return GameBoardState.model_validate({"game_id": game_id, **hub.board_health(game_id)})


@router.post("/games/{game_id}/detach", response_model_exclude_unset=True)
async def detach(hub: HubDep, who: OperatorDep, game_id: GameId) -> GameBoardState:
    """Stop following the game's board; what it decided is saved first."""
    try:
        await hub.detach(game_id)
    except KeyError:
        raise HTTPException(409, f"game {game_id} has no board attached") from None
    return GameBoardState.model_validate({"game_id": game_id, **hub.board_health(game_id)})


class DrawIn(BaseModel):
    player: Literal["white", "black"]
    action: Literal["offer", "accept", "decline", "withdraw"]


@router.post("/games/{game_id}/draw")
async def draw(hub: HubDep, who: ScoresheetDep, game_id: GameId, body: DrawIn) -> DrawOfferState:
    """A draw offer, acceptance, refusal or withdrawal from the scoresheet beside the board
    (9.1.2). An accepted offer proposes the draw for the arbiter to confirm. Operator and
    up, or the game's own device token (a keyer's bound to this game)."""
    with refusals(f"game {game_id}", DrawOfferError):
        change = await hub.desk.draw(
            game_id=game_id, player=body.player, action=body.action, who=who
        )
    return DrawOfferState(
        game_id=game_id,
        draw_offer=change.record.draw_offer,
        proposed_result=change.record.proposed_result,
    )
