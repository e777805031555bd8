"""Pairings by start number, byes, withdrawals and the tournament's pairing rules."""

from __future__ import annotations

from pydantic import Field

from relay.api.schemas.common import Schema
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem


class PairedGame(Schema):
    board: int
    white: int = Field(description="start number")
    black: int = Field(description="start number")


class PairedBye(Schema):
    player: int = Field(description="start number")
    kind: ByeKind


class RoundPairingsInfo(Schema):
    """A round's games and byes, with what breaks the pairing rules."""

    round_id: int
    number: int
    published: bool
    games: list[PairedGame]
    byes: list[PairedBye]
    warnings: list[str]


class RequestedBye(Schema):
    round_id: int
    number: int
    player: int = Field(description="start number")


class Withdrawal(Schema):
    player: int = Field(description="start number")
    withdrawn_after: int | None = Field(description="the last round played; null: back in")


class TournamentRules(Schema):
    pairing_system: PairingSystem | None
    tie_breaks: list[str] | None = Field(description="FIDE C.07 names; null: the default")
    tie_break_edition: str | None = Field(
        description="the FIDE C.07 edition named for the tournament, 2024 or 2026; null: none"
    )
    tie_break_edition_in_force: str = Field(
        description=(
            "the edition that ranks the tournament: the one named, else the one in force at"
            " its start date (2024 before 1 March 2026, 2026 from then), else today's"
        )
    )
    tie_breaks_left_out: list[str] = Field(
        default=[],
        description="rating-based tie-breaks of the order that do not rank the tournament: "
        "FIDE C.07 article 10 drops them when unrated players take part",
    )
