"""The arbiter's checks before a correction: an e-board game's record against its scoresheet,
and the ways out of an illegal position on the board (docs/game-input.md).

Both only read: the correction they propose is made with ``POST /api/games/{id}/moves``.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from relay.api.deps import ArbiterDep, HubDep
from relay.api.ids import GameId
from relay.api.refusals import refusals
from relay.api.schemas.score_check import (
    ProposedCorrection,
    RepairsAnswer,
    ScoreCheckAnswer,
    ScoreDifference,
    SquareToSet,
)
from relay.domain.game.alert_repairs import board_of_alert, repairs
from relay.domain.game.record import GameRecord
from relay.domain.game.score_check import Correction, check_count, check_score, plies_of

router = APIRouter(prefix="/api", tags=["arbiter"])

#: A whole score's length at most (a long game's movetext is a few kilobytes).
MAX_SCORE = 20_000


class ScoreCheckIn(BaseModel):
    """The scoresheet: its move count (``moves`` and who made the last one) or its whole
    score (SAN movetext)."""

    moves: int | None = Field(
        default=None, ge=0, le=2000, description="the number of the scoresheet's last move"
    )
    last: Literal["white", "black"] = Field(
        default="black", description="who made the scoresheet's last move"
    )
    score: str | None = Field(
        default=None,
        max_length=MAX_SCORE,
        description='the whole score, SAN movetext ("1. e4 e5 2. Nf3 ...")',
    )

    @model_validator(mode="after")
    def _one_of(self) -> ScoreCheckIn:
        if (self.moves is None) == (self.score is None or not self.score.strip()):
            raise ValueError("give the scoresheet's move count (moves) or its score, one of them")
        return self


def _proposed(correction: Correction | None) -> ProposedCorrection | None:
    if correction is None:
        return None
    return ProposedCorrection(ply=correction.ply, san=list(correction.san), words=correction.words)


async def _record(hub: HubDep, game_id: int) -> GameRecord:
    view = await hub.views.game(game_id)
    return view.record(view.version)


@router.post("/games/{game_id}/score-check")
async def score_check(
    hub: HubDep, who: ArbiterDep, game_id: GameId, body: ScoreCheckIn
) -> ScoreCheckAnswer:
    """Compare the game's record (an e-board's) with its scoresheet: extra moves at the end,
    a different move at a ply, moves missing; and the correction proposed."""
    with refusals(f"game {game_id}"):
        record = await _record(hub, game_id)
        recorded = [move.uci for move in record.moves]
        if body.score is not None and body.score.strip():
            check = check_score(recorded, body.score)
        else:
            assert body.moves is not None
            check = check_count(recorded, plies_of(body.moves, body.last))
    return ScoreCheckAnswer(
        game_id=game_id,
        recorded_plies=check.recorded_plies,
        scoresheet_plies=check.scoresheet_plies,
        agrees=check.agrees,
        differences=[
            ScoreDifference(
                kind=d.kind,
                ply=d.ply,
                recorded=list(d.recorded),
                scoresheet=list(d.scoresheet),
                words=d.words,
            )
            for d in check.differences
        ],
        correction=_proposed(check.correction),
        words=check.words,
    )


@router.get("/games/{game_id}/repairs")
async def alert_repairs(
    hub: HubDep, who: ArbiterDep, game_id: GameId, board: str | None = None
) -> RepairsAnswer:
    """For an illegal position on the board: the continuation from the record that reaches
    it, and the last legal position with the squares to set. ``board``: the board's piece
    placement (FEN); by default the one the game's latest illegal-position alert names,
    unless the board showed the game again since."""
    with refusals(f"game {game_id}"):
        record = await _record(hub, game_id)
        shown = board if board else _alerted_board(record)
        found = repairs([move.uci for move in record.moves], shown)
    return RepairsAnswer(
        game_id=game_id,
        ply=found.ply,
        game_fen=found.game_fen,
        board_fen=found.board_fen,
        squares=[SquareToSet(square=s.square, game=s.game, board=s.board) for s in found.squares],
        continuation=_proposed(found.continuation),
        words=found.words,
    )


#: Alerts that say what the board shows, or that it is right again.
BOARD_ALERTS = ("illegal-position", "position-restored")


def _alerted_board(record: GameRecord) -> str | None:
    """The board's placement in the newest illegal-position alert, while the game has not
    moved on and the board has not been set right since (other alerts, such as a draw
    claim, say nothing of the board and are passed over)."""
    for alert in reversed(record.alerts):
        if alert.alert not in BOARD_ALERTS:
            continue
        if alert.alert == "position-restored" or alert.ply != len(record.moves):
            return None
        return board_of_alert(alert.detail)
    return None
