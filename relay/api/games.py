"""Read-only routes: rounds, games and their PGN."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import PlainTextResponse

from relay.api.deps import SessionDep
from relay.api.summaries import game_detail, game_pgn, game_summary
from relay.domain.formats.pgn import render_round
from relay.store.games import NotFoundError, get_game, get_round, list_games, list_rounds
from relay.store.games import read_events as read_log
from relay.store.models import Game

router = APIRouter(prefix="/api", tags=["games"])

PGN_MEDIA_TYPE = "application/x-chess-pgn"


def _game(session: SessionDep, game_id: int) -> Game:
    try:
        return get_game(session, game_id=game_id)
    except NotFoundError:
        raise HTTPException(status_code=404, detail=f"no game {game_id}") from None


@router.get("/health", tags=["service"])
def health() -> dict[str, str]:
    """Liveness check for load balancers and container health checks."""
    return {"status": "ok"}


@router.get("/rounds")
def rounds(session: SessionDep) -> list[dict[str, Any]]:
    """Every round, in tournament and round order."""
    return [
        {"id": r.id, "tournament_id": r.tournament_id, "number": r.number}
        for r in list_rounds(session)
    ]


@router.get("/rounds/{round_id}/games")
def round_games(session: SessionDep, round_id: int) -> list[dict[str, Any]]:
    """Board summaries of a round, in board order."""
    try:
        get_round(session, round_id=round_id)
    except NotFoundError:
        raise HTTPException(status_code=404, detail=f"no round {round_id}") from None
    return [
        game_summary(game, read_log(session, game_id=_id(game)))
        for game in list_games(session, round_id=round_id)
    ]


@router.get(
    "/rounds/{round_id}/games.pgn",
    response_class=PlainTextResponse,
    responses={200: {"content": {PGN_MEDIA_TYPE: {}}}},
)
def round_pgn(session: SessionDep, round_id: int) -> PlainTextResponse:
    """The whole round as one multi-game PGN, in board order."""
    try:
        get_round(session, round_id=round_id)
    except NotFoundError:
        raise HTTPException(status_code=404, detail=f"no round {round_id}") from None
    text = render_round(game_pgn(session, game) for game in list_games(session, round_id=round_id))
    return PlainTextResponse(text, media_type=PGN_MEDIA_TYPE)


@router.get("/games")
def games(session: SessionDep) -> list[dict[str, Any]]:
    """Board summaries of every game."""
    return [
        game_summary(game, read_log(session, game_id=_id(game))) for game in list_games(session)
    ]


@router.get(
    "/games/{game_id}.pgn",
    response_class=PlainTextResponse,
    responses={200: {"content": {PGN_MEDIA_TYPE: {}}}},
)
def pgn(session: SessionDep, game_id: int) -> PlainTextResponse:
    """One game as PGN."""
    return PlainTextResponse(game_pgn(session, _game(session, game_id)), media_type=PGN_MEDIA_TYPE)


@router.get("/games/{game_id}")
def game(session: SessionDep, game_id: int) -> dict[str, Any]:
    """One game with its moves."""
    found = _game(session, game_id)
    return game_detail(found, read_log(session, game_id=game_id))


def _id(game: Game) -> int:
    assert game.id is not None
    return game.id
