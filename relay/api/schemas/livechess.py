"""The LiveChess-Cloud-style feed's answers (``relay.hub.livechess_feed`` fills them). The
keys are DGT's, camelCase and all, because the readers of the feed already know them."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema


class LiveChessRound(Schema):
    """One round of ``tournament.json``, round 1 first."""

    count: int = Field(description="the round's games; 0 for a round not paired or published")
    live: int = Field(description="how many of them are being played")


class LiveChessTournament(Schema):
    """``tournament.json``: the tournament and its rounds."""

    id: str = Field(description="the tournament's short name (the hub sends its name)")
    name: str
    location: str | None = Field(description="the tournament's site")
    country: str | None = Field(description="always null: the hub keeps no country code")
    website: str | None = Field(description="always null")
    rules: str = Field(description="STANDARD, RAPID or BLITZ: the time control's FIDE class")
    chess960: str = Field(description="STANDARD: the hub relays standard chess")
    timecontrol: str | None = Field(description="the time control as the event file wrote it")
    rounds: list[LiveChessRound]
    eboards: list[str] = Field(description="the electronic boards' numbers")


class LiveChessPlayer(Schema):
    """One side of a pairing; the name is split from "Family, Given"."""

    fname: str | None = Field(description="given name")
    mname: str | None = Field(description="always null")
    lname: str | None = Field(description="family name")
    title: str | None
    federation: str | None
    gender: str | None = Field(description="always null")
    fideid: int | None


class LiveChessPairing(Schema):
    """One board of ``index.json``."""

    white: LiveChessPlayer
    black: LiveChessPlayer
    result: str = Field(description="1-0, 0-1, 1/2-1/2, or * while the game is open")
    live: bool = Field(description="the game is being played")


class LiveChessIndex(Schema):
    """``round-N/index.json``: the round's boards in order."""

    date: str | None = Field(description="the round's date, YYYY-MM-DD")
    pairings: list[LiveChessPairing]


class LiveChessClock(Schema):
    """A clock reading, as DGT's clocks give it."""

    white: int = Field(description="White's time, whole seconds, as of time")
    black: int = Field(description="Black's time, whole seconds, as of time")
    run: bool | None = Field(description="true: White's clock runs; false: Black's; null: none")
    time: int = Field(description="Unix milliseconds the reading holds at")


class LiveChessGame(Schema):
    """``round-N/game-M.json``: one board's game."""

    live: bool = Field(description="the game is being played")
    serialNr: str | None = Field(description="the electronic board's number; null: none")  # noqa: N815
    firstMove: int | None = Field(description="Unix milliseconds of the first move")  # noqa: N815
    chess960: int = Field(description="518: the standard start position")
    result: str | None = Field(
        description="WHITEWIN, BLACKWIN, DRAW, WHITEFORFAIT, BLACKFORFAIT; null while open"
    )
    comment: str | None = Field(description="always null")
    clock: LiveChessClock | None = Field(description="null once the game is over, or unknown")
    moves: list[str] = Field(
        description='each move as "SAN seconds-left+seconds-spent", such as "e4 5400+12"; '
        "a time not known is left out"
    )
