"""Electronic boards: which board follows which game, and how each is doing."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Number, Schema


class BoardOrientation(Schema):
    """Which side of the clock White's is: the board's setting and the decision in force."""

    setting: str = Field(description="white-left, white-right or auto")
    white_on: str = Field(description="left or right")
    decided: bool
    source: str | None = Field(description="setting or auto; null before any decision")
    reason: str
    against: int = Field(description="presses in a row against the decision")


class ClockReadingInfo(Schema):
    """What the board's clock shows (whole seconds per side)."""

    left: int
    right: int
    running: bool
    battery_low: bool


class BoardHealthFields(Schema):
    """A game's board as the arbiter's console shows it. Without a board attached only
    ``attached``, ``connected`` and ``unsaved`` are given; ``health``, ``serial``,
    ``battery_percent`` and ``rotated`` once the board has reported its status, ``clock``
    once its clock has been read. A key that is not known is left out, not null."""

    attached: bool
    connected: bool
    unsaved: int = Field(description="batches of decided events not yet in the database")
    clock_connected: bool | None = None
    last_seen_seconds: Number | None = None
    health: str | None = Field(
        default=None, description="active, delayed, not-responding or disconnected"
    )
    serial: str | None = None
    battery_percent: int | None = None
    rotated: bool | None = None
    orientation: BoardOrientation | None = None
    clock: ClockReadingInfo | None = None


class _GameKey(Schema):
    game_id: int


class GameBoardState(BoardHealthFields, _GameKey):
    """A game's board after attaching or detaching it."""


class _RoundBoardKey(Schema):
    game_id: int
    board: int
    eboard: int | None = Field(description="the electronic board's number")
    eboard_id: int | None
    url: str | None = Field(description="the board's port; null for the public")
    clock_setting: str | None = Field(description="the board's clock setting")


class RoundBoard(BoardHealthFields, _RoundBoardKey):
    """Which electronic board plays which game of the round, and how it is doing."""


class BoardAssignment(Schema):
    game_id: int
    eboard_id: int | None


class EBoardClockSide(Schema):
    id: int
    number: int
    clock: str = Field(description="white-left, white-right or auto")


class EBoardPort(Schema):
    """An electronic board moved to another port, and the games that could not follow it."""

    id: int
    number: int
    url: str
    not_followed: dict[int, str] = Field(
        description="games following the board whose new port could not be opened, with the "
        "reason (attach them again when the board is there)"
    )
