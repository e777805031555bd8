"""Moves entered by hand into a game without an electronic board: from the electronic
scoresheet beside the board, or keyed from a paper scoresheet (keyer; docs/game-input.md).
Each entry names its ply, so a device that sends its queue again is acknowledged, never
played twice."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from relay.api.deps import HubDep, KeyerDep
from relay.api.ids import GameId
from relay.api.refusals import refusals
from relay.api.schemas.entries import EntryAnswer, EntryIn
from relay.domain.game.entries import IllegalEntryError, Repeated

router = APIRouter(prefix="/api", tags=["game input"])


@router.post("/games/{game_id}/entries", response_model=EntryAnswer)
async def enter_move(
    hub: HubDep, who: KeyerDep, game_id: GameId, body: EntryIn
) -> EntryAnswer | JSONResponse:
    """Enter the move for ``ply``: recorded when it is the next legal move; acknowledged
    (``repeated``) when that ply already holds it; 409 when it holds another move, when the
    ply is not the next, or when an electronic board follows the game; 422 for no legal
    move, with the legal moves that fit the entry best (``fitting``)."""
    with refusals(f"game {game_id}"):
        try:
            entered = await hub.desk.enter_move(
                game_id=game_id, ply=body.ply, text=body.move, who=who
            )
        except IllegalEntryError as error:
            fitting = [
                {"san": san, "words": words}
                for san, words in zip(error.fitting, error.hints, strict=True)
            ]
            return JSONResponse({"detail": str(error), "fitting": fitting}, status_code=422)
    record = entered.change.record
    stored = entered.change.stored
    return EntryAnswer(
        game_id=game_id,
        ply=entered.judged.ply,
        san=entered.judged.san,
        repeated=isinstance(entered.judged, Repeated),
        v=stored[-1].seq if stored else None,
        plies=len(record.moves),
        fen=record.board.fen(),
        result=record.result,
    )
