"""Ids and numbers as requests give them, bounded by what the database can hold.

Every id and number the hub stores is an ``INTEGER`` column: 32 bits on PostgreSQL, 64 on
SQLite. A request naming a larger one (``/api/rounds/99999999999999999999``) is answered
422 naming the value before it reaches the database, which would otherwise fail on it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import Field

#: The largest number an ``INTEGER`` column holds on every database the hub runs on.
MAX_STORED = 2**31 - 1

GameId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a game's id")]
RoundId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a round's id")]
TournamentId = Annotated[int, Path(ge=1, le=MAX_STORED, description="a tournament's id")]
EBoardId = Annotated[int, Path(ge=1, le=MAX_STORED, description="an electronic board's id")]
StartNumber = Annotated[int, Path(ge=1, le=MAX_STORED, description="a player's start number")]
RoundNumber = Annotated[int, Path(ge=1, le=MAX_STORED, description="a round's number")]

#: The same bounds for ids and numbers in a request's body.
BodyId = Annotated[int, Field(ge=1, le=MAX_STORED)]
BodyCount = Annotated[int, Field(ge=0, le=MAX_STORED)]


def stored_id(text: str) -> int | None:
    """An id written in a path that names no route parameter (the stream paths): the
    number, or None when it is not one the database could hold."""
    if not text.isdigit() or len(text) > len(str(MAX_STORED)):
        return None
    value = int(text)
    return value if 1 <= value <= MAX_STORED else None
