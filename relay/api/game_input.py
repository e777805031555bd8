"""The game-input desk's routes (docs/game-input.md, "The game-input desk"; the page is
``/input?round=ID``): a round's games with their keying status and progress, one game as
the desk keys it (with the legal moves of its position, for completion), notes, the
scoresheet's result proposed, a keying slip taken back, and the game marked keyed, then
checked by a second keyer. The moves themselves go in as entries
(``POST /api/games/{id}/entries``).

Every route needs a keyer (or a higher role) holding a staff token: a device token (bound to
one game, for a tablet beside its board) is refused here, for its own game too.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, status

from relay.api.deps import HubDep, KeyerDep, SessionDep
from relay.api.ids import GameId, RoundId
from relay.api.refusals import refusals
from relay.api.schemas.game_input import (
    DeskGame,
    DeskGameRow,
    InputProgress,
    NoteIn,
    ProposeIn,
    RoundInput,
    StatusIn,
    TakeBackIn,
)
from relay.domain.game.keying import progress
from relay.hub import input_desk
from relay.hub.arbiter_desk import GameChange
from relay.hub.game_views import player_view
from relay.hub.hub import Hub
from relay.store.access import Identity
from relay.store.tournaments import get_round, get_tournament

router = APIRouter(prefix="/api", tags=["game input"])


def desk_keyer(who: KeyerDep) -> Identity:
    """A keyer (or higher) at the desk: not a device token bound to a game."""
    if not who.staff:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"{who.user}'s token is bound to game {who.game_id}: the game-input desk needs "
            "a keyer's own token",
        )
    return who


DeskKeyerDep = Annotated[Identity, Depends(desk_keyer)]


def _row(game: input_desk.DeskGame) -> dict[str, Any]:
    record = game.record
    return {
        "game_id": game.pairing.game_id,
        "board": game.pairing.game.board,
        "white": player_view(game.pairing.white),
        "black": player_view(game.pairing.black),
        "plies": len(record.moves),
        "result": record.result,
        "proposed_result": record.proposed_result,
        "verified": record.verified,
        "status": record.input_status,
        "keyed_by": record.keyed_by,
        "checked_by": record.checked_by,
        "eboard": game.eboard,
        "notes": len(record.notes),
        "v": game.version,
    }


def _detail(game: input_desk.DeskGame) -> DeskGame:
    record = game.record
    positions = game.positions()
    return DeskGame.model_validate(
        {
            **_row(game),
            "start_fen": positions[0],
            "fen": record.board.fen(),
            "moves": [
                {"ply": ply, "san": move.san, "uci": move.uci, "fen": move.fen}
                for ply, move in enumerate(record.moves, start=1)
            ],
            "legal": game.legal,
            "note_list": [
                {"ply": note.ply, "text": note.text, "by": note.by, "at": note.at}
                for note in record.notes
            ],
        }
    )


async def _after(hub: Hub, change: GameChange) -> DeskGame:
    """The game as the change left it (the readers' copy may not have it yet)."""
    game = await hub.input.game(change.game_id)
    version = change.stored[-1].seq if change.stored else game.version
    return _detail(input_desk.DeskGame(game.pairing, change.record, version, game.followed))


@router.get("/rounds/{round_id}/input")
async def round_input(
    hub: HubDep, session: SessionDep, who: DeskKeyerDep, round_id: RoundId
) -> RoundInput:
    """The round's games from its pairings (players, ratings, board: the skeletons), each
    with its keying status, and the round's progress."""
    with refusals(f"round {round_id}"):
        round_ = get_round(session, round_id=round_id)
        tournament = get_tournament(session, tournament_id=round_.tournament_id)
        games = await hub.input.round_games(round_id)
    rows = [DeskGameRow.model_validate(_row(game)) for game in games]
    counts = progress([row.status for row in rows if not row.eboard])
    return RoundInput(
        round_id=round_id,
        number=round_.number,
        tournament=tournament.name,
        games=rows,
        progress=InputProgress(
            to_key=counts["to-key"],
            keyed=counts["keyed"],
            checked=counts["checked"],
            eboard=sum(row.eboard for row in rows),
        ),
    )


@router.get("/games/{game_id}/input")
async def game_input(hub: HubDep, who: DeskKeyerDep, game_id: GameId) -> DeskGame:
    """One game as the desk keys it: moves with the position after each, the legal moves
    of its position now (SAN, for completion), notes and status."""
    with refusals(f"game {game_id}"):
        game = await hub.input.game(game_id)
    return _detail(game)


@router.post("/games/{game_id}/input/status")
async def mark(hub: HubDep, who: DeskKeyerDep, game_id: GameId, body: StatusIn) -> DeskGame:
    """Mark the game keyed (every move of the scoresheet is in), or checked: by a keyer
    other than the one who keyed it (409 in words for the same keyer)."""
    with refusals(f"game {game_id}"):
        change = await hub.input.mark(game_id=game_id, status=body.status, who=who)
        return await _after(hub, change)


@router.post("/games/{game_id}/input/notes")
async def note(hub: HubDep, who: DeskKeyerDep, game_id: GameId, body: NoteIn) -> DeskGame:
    """A note from the scoresheet after a ply: a comment there in the game's PGN."""
    with refusals(f"game {game_id}"):
        change = await hub.input.note(game_id=game_id, ply=body.ply, text=body.text, who=who)
        return await _after(hub, change)


@router.post("/games/{game_id}/input/result")
async def propose(hub: HubDep, who: DeskKeyerDep, game_id: GameId, body: ProposeIn) -> DeskGame:
    """Propose the scoresheet's result; an arbiter enters and verifies it (409 when the
    game has a result already)."""
    with refusals(f"game {game_id}"):
        change = await hub.input.propose(game_id=game_id, result=body.result, who=who)
        return await _after(hub, change)


@router.post("/games/{game_id}/input/takeback")
async def take_back(hub: HubDep, who: DeskKeyerDep, game_id: GameId, body: TakeBackIn) -> DeskGame:
    """Take back the moves after a ply (a keying slip), to key them again; refused for a
    checked game, a game with a result, or one an electronic board follows."""
    with refusals(f"game {game_id}"):
        change = await hub.input.take_back(game_id=game_id, ply=body.ply, who=who)
        return await _after(hub, change)
