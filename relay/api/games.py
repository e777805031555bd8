"""Read-only routes: tournaments, rounds, games, their PGN, and board health.

Public readers (no token) see published rounds only, and each round as it stood
``delay_seconds`` ago; operators, arbiters and admins see everything live.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import PlainTextResponse, StreamingResponse
from sqlmodel import Session

from relay.api.deps import HubDep, OperatorDep, SessionDep, ViewerDep
from relay.api.ids import GameId, RoundId, TournamentId
from relay.api.schemas.boards import RoundBoard
from relay.api.schemas.games import GameDetail, GameSummary
from relay.api.schemas.rounds import RoundInfo
from relay.api.schemas.tokens import Health, WhoAmI
from relay.api.schemas.tournaments import EBoardInfo, StartingListEntry, TournamentSummary
from relay.domain.formats.pgn import render_round
from relay.edge.board_range import parse_board_range
from relay.hub.game_views import GameView, delay_cut, player_view
from relay.hub.hub import Hub
from relay.store.access import Identity
from relay.store.models import Round, Tournament
from relay.store.tournaments import (
    NotFoundError,
    get_round,
    get_tournament,
    list_eboards,
    list_games,
    list_players,
    list_rounds,
    list_tournaments,
)

router = APIRouter(prefix="/api", tags=["read"])

PGN_MEDIA_TYPE = "application/x-chess-pgn"


class PgnResponse(PlainTextResponse):
    """PGN text (described as such in the OpenAPI document)."""

    media_type = PGN_MEDIA_TYPE


class PgnStreamResponse(StreamingResponse):
    """A chunked stream of PGN text."""

    media_type = PGN_MEDIA_TYPE


PGN_ROUTE: dict[str, Any] = {"response_class": PgnResponse}
#: How often the chunked PGN stream looks for changed games.
STREAM_POLL_SECONDS = 0.5


def public_cut(round_: Round, identity: Identity | None, now: float | None = None) -> float | None:
    """The time up to which ``identity`` may see the round (None: live)."""
    if identity is not None:
        return None
    return delay_cut(round_.delay_seconds, time.time() if now is None else now)


def visible_round(session: Session, round_id: int, identity: Identity | None) -> Round:
    """The round, if the reader may see it; 404 otherwise (an unpublished round does not
    exist for the public)."""
    try:
        round_ = get_round(session, round_id=round_id)
    except NotFoundError:
        raise HTTPException(404, f"no round {round_id}") from None
    if identity is None and not round_.published:
        raise HTTPException(404, f"no round {round_id}")
    return round_


def round_view(round_: Round) -> RoundInfo:
    return RoundInfo.model_validate(
        {
            "id": round_.id,
            "tournament_id": round_.tournament_id,
            "number": round_.number,
            "starts_at": round_.starts_at.isoformat() if round_.starts_at else None,
            "published": round_.published,
            "delay_seconds": round_.delay_seconds,
        }
    )


@router.get("/health", tags=["service"])
def health() -> Health:
    """Liveness check for load balancers and container health checks."""
    return Health(status="ok")


@router.get("/tournaments")
def tournaments(session: SessionDep) -> list[TournamentSummary]:
    return [
        TournamentSummary.model_validate(
            {
                "id": t.id,
                "name": t.name,
                "site": t.site,
                "start_date": t.start_date.isoformat() if t.start_date else None,
                "end_date": t.end_date.isoformat() if t.end_date else None,
                "time_control": t.time_control,
                "rounds_planned": t.rounds_planned,
            }
        )
        for t in list_tournaments(session)
    ]


@router.get("/tournaments/{tournament_id}/players")
def players(session: SessionDep, tournament_id: TournamentId) -> list[StartingListEntry]:
    """The starting list, by start number."""
    tournament_or_404(session, tournament_id)
    return [
        StartingListEntry.model_validate({"id": p.id, **player_view(p)})
        for p in list_players(session, tournament_id=tournament_id)
    ]


@router.get("/tournaments/{tournament_id}/eboards")
def eboards(session: SessionDep, who: OperatorDep, tournament_id: TournamentId) -> list[EBoardInfo]:
    """The tournament's electronic boards (operators and up: ports are not public)."""
    tournament_or_404(session, tournament_id)
    return [
        EBoardInfo.model_validate(
            {"id": b.id, "number": b.number, "driver": b.driver, "url": b.url, "clock": b.clock}
        )
        for b in list_eboards(session, tournament_id=tournament_id)
    ]


@router.get("/me")
def me(identity: ViewerDep) -> WhoAmI:
    """Who the token belongs to: ``{"user": ..., "role": ...}``; nulls without a token."""
    if identity is None:
        return WhoAmI(user=None, role=None)
    return WhoAmI(user=identity.user, role=identity.role)


@router.get("/tournaments/{tournament_id}/games.pgn", **PGN_ROUTE)
async def tournament_pgn(
    hub: HubDep, session: SessionDep, identity: ViewerDep, tournament_id: TournamentId
) -> PlainTextResponse:
    """Every round the reader may see, round by round, in board order."""
    tournament_or_404(session, tournament_id)
    parts = [
        await hub.views.round_pgn(round_id, cut)
        for round_id, _, cut in visible_rounds(session, tournament_id, identity)
    ]
    return PlainTextResponse("".join(parts), media_type=PGN_MEDIA_TYPE)


def visible_rounds(
    session: Session, tournament_id: int, identity: Identity | None
) -> list[tuple[int, Round, float | None]]:
    """The tournament's rounds the reader may see (id, round, the time they see it as of):
    the public sees published rounds, each its transmission delay ago."""
    now = time.time()
    return [
        (round_.id, round_, public_cut(round_, identity, now))
        for round_ in list_rounds(session, tournament_id=tournament_id)
        if round_.id is not None and (identity is not None or round_.published)
    ]


def tournament_or_404(session: Session, tournament_id: int) -> Tournament:
    try:
        return get_tournament(session, tournament_id=tournament_id)
    except NotFoundError:
        raise HTTPException(404, f"no tournament {tournament_id}") from None


@router.get("/rounds")
def rounds(session: SessionDep, identity: ViewerDep) -> list[RoundInfo]:
    """Every round the reader may see, in tournament and round order."""
    return [round_view(r) for r in list_rounds(session) if identity is not None or r.published]


@router.get("/rounds/{round_id}")
def round_detail(session: SessionDep, identity: ViewerDep, round_id: RoundId) -> RoundInfo:
    return round_view(visible_round(session, round_id, identity))


@router.get("/rounds/{round_id}/games", response_model=list[GameSummary])
async def round_games(
    hub: HubDep,
    session: SessionDep,
    identity: ViewerDep,
    round_id: RoundId,
    boards: Annotated[
        str | None, Query(description="only these boards, such as 25-48 (a page)")
    ] = None,
) -> list[dict[str, Any]]:
    """Board summaries of a round, in board order."""
    try:
        wanted = None if boards is None else parse_board_range(boards)
    except ValueError as error:
        raise HTTPException(400, str(error)) from None
    round_ = visible_round(session, round_id, identity)
    cut = public_cut(round_, identity)
    return [
        view.summary(view.version_at(cut))
        for view in await hub.views.round(round_id)
        if wanted is None or view.board in wanted
    ]


@router.get("/rounds/{round_id}/games.pgn", **PGN_ROUTE)
async def round_pgn(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> PlainTextResponse:
    """The whole round as one multi-game PGN, in board order, with ``%clk`` on every move."""
    round_ = visible_round(session, round_id, identity)
    text = await hub.views.round_pgn(round_id, public_cut(round_, identity))
    return PlainTextResponse(text, media_type=PGN_MEDIA_TYPE)


@router.get("/rounds/{round_id}/archive.pgn", **PGN_ROUTE)
async def round_archive(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> PlainTextResponse:
    """The round's finished games in the strict seven-tag form (seed 001); games still
    in progress are left out."""
    round_ = visible_round(session, round_id, identity)
    cut = public_cut(round_, identity)
    games = []
    for view in await hub.views.round(round_id):
        version = view.version_at(cut)
        if view.record(version).result.is_decided:
            games.append(view.archive_pgn(version))
    return PlainTextResponse(render_round(games), media_type=PGN_MEDIA_TYPE)


@router.get("/rounds/{round_id}/skeleton.pgn", **PGN_ROUTE)
async def round_skeleton(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> PlainTextResponse:
    """One PGN per pairing with the headers filled and no moves (seed 004, chapter 18)."""
    visible_round(session, round_id, identity)
    views = await hub.views.round(round_id)
    return PlainTextResponse(render_round(view.pgn(0) for view in views), media_type=PGN_MEDIA_TYPE)


@router.get("/rounds/{round_id}/stream.pgn", response_class=PgnStreamResponse)
async def round_pgn_stream(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> StreamingResponse:
    """A chunked stream: every game of the round first, then each game again, whole,
    whenever it changes."""
    round_ = visible_round(session, round_id, identity)
    return PgnStreamResponse(_pgn_stream(hub, round_, identity), media_type=PGN_MEDIA_TYPE)


async def _pgn_stream(hub: Hub, round_: Round, identity: Identity | None) -> AsyncIterator[str]:
    assert round_.id is not None
    sent: dict[int, int] = {}
    while True:
        cut = public_cut(round_, identity)
        chunk = []
        for view in await hub.views.round(round_.id):
            version = view.version_at(cut)
            if sent.get(view.game_id) != version:
                sent[view.game_id] = version
                chunk.append(view.pgn(version))
        if chunk:
            yield render_round(chunk)
        await asyncio.sleep(STREAM_POLL_SECONDS)


@router.get(
    "/rounds/{round_id}/boards",
    # A board's unknowns are left out, not null (see BoardHealthFields).
    response_model_exclude_unset=True,
)
def round_boards(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> list[RoundBoard]:
    """Board health: which electronic board plays which game, and whether it is connected."""
    round_ = visible_round(session, round_id, identity)
    eboards = {b.id: b for b in list_eboards(session, tournament_id=round_.tournament_id)}
    health: list[RoundBoard] = []
    for game in list_games(session, round_id=round_id):
        assert game.id is not None
        eboard = eboards.get(game.eboard_id) if game.eboard_id is not None else None
        health.append(
            RoundBoard.model_validate(
                {
                    "game_id": game.id,
                    "board": game.board,
                    "eboard": eboard.number if eboard else None,
                    "eboard_id": eboard.id if eboard else None,
                    "url": eboard.url if eboard and identity is not None else None,
                    "clock_setting": eboard.clock if eboard else None,
                    **hub.board_health(game.id),
                }
            )
        )
    return health


@router.get("/games/{game_id}.pgn", **PGN_ROUTE)
async def game_pgn(
    hub: HubDep, session: SessionDep, identity: ViewerDep, game_id: GameId
) -> PlainTextResponse:
    """One game as PGN."""
    view, cut = await _game(hub, session, identity, game_id)
    return PlainTextResponse(view.pgn(view.version_at(cut)), media_type=PGN_MEDIA_TYPE)


@router.get("/games/{game_id}", response_model=GameDetail)
async def game(
    hub: HubDep, session: SessionDep, identity: ViewerDep, game_id: GameId
) -> dict[str, Any]:
    """One game with its moves, claims and alerts."""
    view, cut = await _game(hub, session, identity, game_id)
    return view.detail(view.version_at(cut))


async def _game(
    hub: Hub, session: Session, identity: Identity | None, game_id: int
) -> tuple[GameView, float | None]:
    try:
        view = await hub.views.game(game_id)
    except NotFoundError:
        raise HTTPException(404, f"no game {game_id}") from None
    round_ = visible_round(session, view.pairing.game.round_id, identity)
    return view, public_cut(round_, identity)
