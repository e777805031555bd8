"""The tables. One class per entity; the event log is :class:`GameEventRow`."""

from __future__ import annotations

from datetime import date

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class Tournament(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str
    site: str = "?"
    start_date: date | None = None


class Round(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    number: int


class Game(SQLModel, table=True):
    """A pairing on a board. Moves and result come from the game's event log."""

    __table_args__ = (UniqueConstraint("round_id", "board"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    board: int
    white: str
    black: str
    white_elo: int | None = None
    black_elo: int | None = None


class GameEventRow(SQLModel, table=True):
    """One event of a game's log; ``seq`` counts from 1 within the game, with no gaps."""

    __tablename__ = "game_event"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    kind: str
    data: str  # JSON object
    recorded_at: float  # Unix seconds
