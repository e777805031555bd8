"""The arbiter's routes: results, verification, move corrections, rounds.

Every route needs an arbiter (or admin) token, and every action is audited with who, when
and why. Refusals say what is wrong: 404 for what does not exist, 409 for an action that does
not fit the game as it stands.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, Field

from relay.api.deps import ArbiterDep, HubDep, SessionDep
from relay.api.games import round_view
from relay.api.ids import MAX_STORED, GameId, RoundId
from relay.api.refusals import refusals, unreadable
from relay.api.schemas.audit import AuditRecord
from relay.api.schemas.games import GameChanged, PgnImported
from relay.api.schemas.player_names import RoundPublished
from relay.api.schemas.rounds import RoundInfo
from relay.api.text_bodies import NotTextError, text_file
from relay.domain.formats.event_file import MAX_DELAY_SECONDS
from relay.domain.formats.pgn_import import PgnImportError, parse_pgn_games
from relay.domain.game.arbiter import ArbiterActionError
from relay.domain.results import Result
from relay.edge.rooms import Rooms
from relay.hub.arbiter_desk import GameChange
from relay.store.access import read_audit

router = APIRouter(prefix="/api", tags=["arbiter"])


class ResultIn(BaseModel):
    result: Result = Field(description='"*" reopens the game')
    reason: str = Field(default="", description="why, for the audit trail")
    forfeit: bool = Field(
        default=False, description="the game was not played: the result is a forfeit win"
    )


class VerifyIn(BaseModel):
    result: Result = Field(description="the result being confirmed, as the arbiter sees it")


class MovesIn(BaseModel):
    ply: int = Field(
        ge=1, le=MAX_STORED, description="first ply to replace (1 = White's first move)"
    )
    san: list[str] = Field(description="the moves from that ply on, in SAN; empty takes back")
    reason: str = Field(default="", description="why, for the audit trail")


class DelayIn(BaseModel):
    seconds: int = Field(ge=0, le=MAX_DELAY_SECONDS)
    reason: str = ""


class PublishIn(BaseModel):
    published: bool = True


def _changed(change: GameChange) -> GameChanged:
    record = change.record
    return GameChanged(
        game_id=change.game_id,
        v=change.stored[-1].seq if change.stored else None,
        result=record.result,
        verified=record.verified,
        ply=len(record.moves),
        fen=record.board.fen(),
    )


@router.post("/games/{game_id}/result")
async def enter_result(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: ResultIn
) -> GameChanged:
    """Enter or change the game's result (it overrides the board's)."""
    with refusals(f"game {game_id}", ArbiterActionError):
        change = await hub.desk.set_result(
            game_id=game_id, result=body.result, who=who, reason=body.reason, forfeit=body.forfeit
        )
    return _changed(change)


@router.post("/games/{game_id}/verify")
async def verify(hub: HubDep, who: ArbiterDep, game_id: GameId, body: VerifyIn) -> GameChanged:
    """Confirm the game's result; public standings count verified results only."""
    with refusals(f"game {game_id}", ArbiterActionError):
        change = await hub.desk.verify(game_id=game_id, result=body.result, who=who)
    return _changed(change)


@router.post("/games/{game_id}/moves")
async def correct_moves(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: MovesIn
) -> GameChanged:
    """Replace the moves from a ply on (the scoresheets disagree with the board)."""
    with refusals(f"game {game_id}", ArbiterActionError):
        change = await hub.desk.replace_moves(
            game_id=game_id, ply=body.ply, san=body.san, who=who, reason=body.reason
        )
    return _changed(change)


@router.post("/rounds/{round_id}/publish")
async def publish(
    request: Request, hub: HubDep, who: ArbiterDep, round_id: RoundId, body: PublishIn
) -> RoundPublished:
    """Show the round to the public (or hide it again). Publishing is never refused for
    names, but ``warnings`` says when players may be one person (docs/game-input.md,
    "Names")."""
    with refusals(f"round {round_id}", ArbiterActionError):
        round_ = await hub.desk.publish(round_id=round_id, published=body.published, who=who)
    rooms: Rooms = request.app.state.rooms
    rooms.drop_public()
    warning = None
    if round_.published:
        warning = await hub.names.warning(tournament_id=round_.tournament_id)
    return RoundPublished(**dict(round_view(round_)), warnings=[warning] if warning else [])


@router.put("/rounds/{round_id}/delay")
async def set_delay(
    request: Request, hub: HubDep, who: ArbiterDep, round_id: RoundId, body: DelayIn
) -> RoundInfo:
    """The round's transmission delay for public views and public PGN (0-3600 s)."""
    with refusals(f"round {round_id}", ArbiterActionError):
        round_ = await hub.desk.set_delay(
            round_id=round_id, seconds=body.seconds, who=who, reason=body.reason
        )
    rooms: Rooms = request.app.state.rooms
    rooms.drop_public()
    return round_view(round_)


@router.post("/rounds/{round_id}/games.pgn")
async def import_pgn(
    hub: HubDep,
    who: ArbiterDep,
    round_id: RoundId,
    text: Annotated[
        str, Body(media_type="application/x-chess-pgn", description="one or more games")
    ],
    reason: str = "",
) -> PgnImported:
    """Import PGN into the round: games it lacks are created (on the ``Board`` tag's board,
    or the next free one), games it has (matched by board, else by the players) take the
    PGN's moves and result. A bad game refuses the whole file."""
    try:
        games = parse_pgn_games(text_file(text))
    except (PgnImportError, NotTextError) as error:
        raise unreadable(error) from None
    with refusals(f"round {round_id}", ArbiterActionError):
        report = await hub.desk.import_pgn(round_id=round_id, games=games, who=who, reason=reason)
    return PgnImported(
        created=report.created, corrected=report.corrected, unchanged=report.unchanged
    )


@router.get("/audit")
def audit_trail(session: SessionDep, who: ArbiterDep, limit: int = 100) -> list[AuditRecord]:
    """The latest actions, newest first: who, when, what, on what, why."""
    return [
        AuditRecord(
            at=entry.at,
            user=entry.user,
            role=entry.role,
            action=entry.action,
            target=entry.target,
            reason=entry.reason,
            detail=entry.detail,
        )
        for entry in read_audit(session, limit=min(max(limit, 1), 1000))
    ]
