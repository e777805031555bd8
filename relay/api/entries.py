"""Moves entered by hand into a game without an electronic board: from the electronic
scoresheet beside the board, or keyed from a paper scoresheet (keyer; docs/game-input.md).
Each entry names its ply, so a device that sends its queue again is acknowledged, never
played twice.

The scoresheet's other entries, for the players (operator and up, or the game's own device
token): a draw claimed with the move to be played or without (9.2, 9.3), and the result
both players confirmed."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from relay.api.deps import HubDep, KeyerDep
from relay.api.device_access import ScoresheetDep
from relay.api.ids import GameId
from relay.api.refusals import refusals
from relay.api.schemas.entries import (
    AgreementAnswer,
    AgreementIn,
    ClaimAnswer,
    ClaimIn,
    EntryAnswer,
    EntryIn,
)
from relay.domain.game.entries import IllegalEntryError, Repeated
from relay.hub.arbiter_desk import EntryChange

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
                game_id=game_id, ply=body.ply, text=body.move, who=who, timed=body.timed
            )
        except IllegalEntryError as error:
            return illegal_entry(error)
    return entry_answer(game_id, entered)


def entry_answer(game_id: int, entered: EntryChange) -> EntryAnswer:
    """What an entry's answer says: the move as recorded, or as recorded before."""
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


@router.post("/games/{game_id}/claims", response_model=ClaimAnswer)
async def claim_draw(
    hub: HubDep, who: ScoresheetDep, game_id: GameId, body: ClaimIn
) -> ClaimAnswer | JSONResponse:
    """A draw claimed by the player to move (9.2 threefold repetition, 9.3 fifty moves),
    with the move about to be played (written, not played) or on the position as it stands;
    ``ply`` is the next move's. The hub checks it: a correct claim proposes the draw for the
    arbiter (``result-proposed``, gesture ``claim``) and plays nothing; a wrong one records
    the move, if any, and an ``alert`` ``wrong-claim`` for the arbiter's penalty (9.5.3). A
    claim made before is acknowledged (``repeated``); 409 in words for one that does not fit
    (another ply, the game over, a claim waiting); 422 with ``fitting`` for an illegal move."""
    with refusals(f"game {game_id}"):
        try:
            claimed = await hub.desk.claim_draw(
                game_id=game_id, ply=body.ply, rule=body.rule, move=body.move, who=who
            )
        except IllegalEntryError as error:
            return illegal_entry(error)
    verdict, record, stored = claimed.verdict, claimed.change.record, claimed.change.stored
    return ClaimAnswer(
        game_id=game_id,
        ply=verdict.ply,
        player=verdict.player,
        rule=verdict.rule,
        san=verdict.san,
        correct=verdict.correct,
        words=verdict.words,
        repeated=verdict.repeated,
        v=stored[-1].seq if stored else None,
        plies=len(record.moves),
        proposed_result=record.proposed_result,
        result=record.result,
    )


@router.post("/games/{game_id}/result-agreement")
async def agree_result(
    hub: HubDep, who: ScoresheetDep, game_id: GameId, body: AgreementIn
) -> AgreementAnswer:
    """The result both players confirmed on the scoresheet, White first, then Black (as
    they sign a paper one): proposed for the arbiter (``result-proposed``, gesture
    ``agreed``), who confirms it. Nothing is recorded when the game has that result or it
    is proposed already; 409 in words for one confirmation, or a result other than the
    game's."""
    with refusals(f"game {game_id}"):
        change = await hub.desk.agree_result(
            game_id=game_id, result=body.result, signed=body.signed, who=who
        )
    return AgreementAnswer(
        game_id=game_id,
        v=change.stored[-1].seq if change.stored else None,
        proposed_result=change.record.proposed_result,
        result=change.record.result,
    )


def illegal_entry(error: IllegalEntryError) -> JSONResponse:
    """422 with the legal moves that fit the entry best, each ``{"san", "words"}``."""
    fitting = [
        {"san": san, "words": words} for san, words in zip(error.fitting, error.hints, strict=True)
    ]
    return JSONResponse({"detail": str(error), "fitting": fitting}, status_code=422)
