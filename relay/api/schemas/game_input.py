"""The game-input desk (docs/game-input.md): a round's games with their keying status, one
game as the desk keys it, and the desk's actions."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from relay.api.ids import MAX_STORED
from relay.api.schemas.common import PLAIN_TEXT, Number, Schema
from relay.api.schemas.tournaments import PlayerInfo
from relay.domain.game.keying import MAX_NOTE
from relay.domain.results import Result

InputStatus = Literal["to-key", "keyed", "checked"]


class InputProgress(Schema):
    """How many of the round's games without an electronic board are at each status."""

    to_key: int
    keyed: int
    checked: int
    eboard: int = Field(description="games an electronic board records (not keyed here)")


class DeskGameRow(Schema):
    """A game as the desk lists it: the skeleton from the pairing and where its keying is."""

    game_id: int
    board: int
    white: PlayerInfo
    black: PlayerInfo
    plies: int
    result: Result
    proposed_result: Result | None = Field(description="a result proposed (the scoresheet's)")
    verified: bool = Field(description="an arbiter verified the result")
    status: InputStatus
    keyed_by: str | None
    checked_by: str | None
    eboard: bool = Field(description="an electronic board records this game's moves")
    notes: int = Field(description="how many notes the game has")
    v: int = Field(description="the number of events in the game's log")


class RoundInput(Schema):
    round_id: int
    number: int
    tournament: str
    games: list[DeskGameRow]
    progress: InputProgress


class DeskMove(Schema):
    ply: int
    san: str
    uci: str
    fen: str = Field(description="the position after the move")


class DeskNote(Schema):
    ply: int = Field(description="the ply it follows; 0 is before the first move")
    text: str
    by: str
    at: Number


class DeskGame(DeskGameRow):
    """One game on the desk: its moves and positions, the legal moves of its position (for
    completion), its notes."""

    start_fen: str
    fen: str = Field(description="the game's position now")
    moves: list[DeskMove]
    legal: list[str] = Field(description="SAN of the legal moves now; empty once decided")
    note_list: list[DeskNote]


class NoteIn(Schema):
    ply: int = Field(ge=0, le=MAX_STORED, description="the ply the note follows; 0: before")
    text: str = Field(
        min_length=1,
        max_length=MAX_NOTE,
        pattern=PLAIN_TEXT,
        description='as on the scoresheet: "rest of score indecipherable", "(=)", "time"',
    )


class StatusIn(Schema):
    status: Literal["keyed", "checked"] = Field(
        description="keyed: every move of the scoresheet is in; checked: a second keyer "
        "read it against the scoresheet"
    )


class ProposeIn(Schema):
    result: Result = Field(description="the result written on the scoresheet")


class TakeBackIn(Schema):
    ply: int = Field(ge=0, le=MAX_STORED, description="keep the moves up to this ply")
