"""The LiveChess-Cloud-style JSON feed: ``/livechess/ID/tournament.json``,
``/livechess/ID/round-N/index.json`` and ``/livechess/ID/round-N/game-M.json`` (M, the
board), the paths and shapes of DGT's cloud (``relay.hub.livechess_feed``), so that what
reads that cloud reads the hub.

A tournament has the feed only when its event file asks for it (an ``[[output]]`` of kind
``livechess``); otherwise every path of it is 404. The feed is public and shows what the
public PGN shows: published rounds only, each as it stood its transmission delay ago
(with a staff token: every round, live). Every answer is counted on the console's status
line of the feed. The rate limits count these reads like any other.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path
from sqlmodel import Session

from relay.api.deps import HubDep, SessionDep, ViewerDep
from relay.api.games import tournament_or_404, visible_rounds
from relay.api.ids import MAX_STORED, RoundNumber, TournamentId
from relay.api.schemas.livechess import LiveChessGame, LiveChessIndex, LiveChessTournament
from relay.hub.hub import Hub
from relay.hub.livechess_feed import (
    NO_GAMES,
    game_json,
    index_json,
    round_tally,
    tournament_json,
)
from relay.store.access import Identity
from relay.store.models import Round
from relay.store.tournaments import list_eboards

router = APIRouter(prefix="/livechess", tags=["livechess"])

Board = Annotated[int, Path(ge=1, le=MAX_STORED, description="a board's number in the round")]


def _served(hub: Hub, tournament_id: int) -> None:
    """404 unless the tournament's event file asks for the feed."""
    if not hub.outputs.serves_livechess(tournament_id):
        raise HTTPException(
            404,
            f"tournament {tournament_id} has no LiveChess feed: its event file does not ask "
            'for one (an [[output]] with kind = "livechess")',
        )


def _round(
    session: Session, tournament_id: int, number: int, identity: Identity | None
) -> tuple[Round, float | None, float]:
    """The tournament's round ``number`` if the reader may see it, the time they see it as
    of (None: live) and their delay in seconds; 404 otherwise (an unpublished round does
    not exist for the public)."""
    for _, round_, cut in visible_rounds(session, tournament_id, identity):
        if round_.number == number:
            shift = 0.0 if cut is None else float(round_.delay_seconds)
            return round_, cut, shift
    raise HTTPException(404, f"no round {number} in tournament {tournament_id}")


#: Most planned rounds listed in tournament.json beyond those the hub holds.
MAX_PLANNED_ROUNDS = 99


@router.get("/{tournament_id}/tournament.json", response_model=LiveChessTournament)
async def livechess_tournament(
    hub: HubDep, session: SessionDep, identity: ViewerDep, tournament_id: TournamentId
) -> dict[str, Any]:
    """The tournament and, round 1 first, each round's games and how many are being
    played (a round the reader may not see counts none)."""
    _served(hub, tournament_id)
    tournament = tournament_or_404(session, tournament_id)
    seen = {
        round_.number: (round_id, cut)
        for round_id, round_, cut in visible_rounds(session, tournament_id, identity)
    }
    # Planned rounds not yet made are listed empty, up to a bound: the plan is the
    # organiser's word (an event file's "rounds"), not a count the hub checked.
    planned = min(tournament.rounds_planned or 0, MAX_PLANNED_ROUNDS)
    last = max([planned, *seen])
    tallies = []
    for number in range(1, last + 1):
        if number in seen:
            round_id, cut = seen[number]
            tallies.append(round_tally(await hub.views.round(round_id), cut))
        else:
            tallies.append(NO_GAMES)
    eboards = [board.number for board in list_eboards(session, tournament_id=tournament_id)]
    hub.outputs.note_served(tournament_id)
    return tournament_json(tournament, tallies, eboards)


@router.get("/{tournament_id}/round-{round_number}/index.json", response_model=LiveChessIndex)
async def livechess_round(
    hub: HubDep,
    session: SessionDep,
    identity: ViewerDep,
    tournament_id: TournamentId,
    round_number: RoundNumber,
) -> dict[str, Any]:
    """The round's pairings, board 1 first, with each game's result and whether it is
    being played."""
    _served(hub, tournament_id)
    round_, cut, _ = _round(session, tournament_id, round_number, identity)
    assert round_.id is not None
    answer = index_json(round_, await hub.views.round(round_.id), cut)
    hub.outputs.note_served(tournament_id)
    return answer


@router.get("/{tournament_id}/round-{round_number}/game-{board}.json", response_model=LiveChessGame)
async def livechess_game(
    hub: HubDep,
    session: SessionDep,
    identity: ViewerDep,
    tournament_id: TournamentId,
    round_number: RoundNumber,
    board: Board,
) -> dict[str, Any]:
    """The game on ``board``: its moves with their times, its result, and while it is
    played its clock."""
    _served(hub, tournament_id)
    round_, cut, shift = _round(session, tournament_id, round_number, identity)
    assert round_.id is not None
    for view in await hub.views.round(round_.id):
        if view.board == board:
            answer = game_json(view, view.version_at(cut), now=time.time(), shift=shift)
            hub.outputs.note_served(tournament_id)
            return answer
    raise HTTPException(
        404, f"no board {board} in round {round_number} of tournament {tournament_id}"
    )
