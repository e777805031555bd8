"""The tournament engine's routes: the next round paired for the arbiter to verify, edited,
published; byes, withdrawals, the tournament's pairing system, tie-break order and C.07
edition; the tournament report as TRF.

Players are named by start number, as arbiters name them. Pairing and editing need an
arbiter token and are audited; a round's pairings are public once the round is published.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from relay.api.deps import ArbiterDep, HubDep, SessionDep, ViewerDep
from relay.api.games import visible_rounds
from relay.api.ids import BodyCount, BodyId, RoundId, RoundNumber, StartNumber, TournamentId
from relay.api.refusals import refusals
from relay.api.schemas.pairings import (
    PairedBye,
    PairedGame,
    RequestedBye,
    RoundPairingsInfo,
    TournamentRules,
    Withdrawal,
)
from relay.domain.formats.trf import TrfError, render_trf
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.tournament.tie_break_editions import EDITIONS, parse_edition
from relay.domain.tournament.tie_break_names import parse_order
from relay.hub.pairing_desk import PairingRefusedError, RoundPairings
from relay.hub.pairing_engine import PairingEngineError
from relay.hub.standings import edition_of, player_standings, ranking_order
from relay.store.access import audit
from relay.store.models import Tournament
from relay.store.pairings import set_tournament_rules
from relay.store.tournaments import ConflictError, get_round, get_tournament, list_players

router = APIRouter(prefix="/api", tags=["pairings"])


class ByeIn(BaseModel):
    player: BodyId = Field(description="start number")
    kind: ByeKind


class PairingsIn(BaseModel):
    games: list[tuple[BodyId, BodyId]] = Field(
        description="[white, black] start numbers, board 1 first"
    )
    byes: list[ByeIn] = Field(default_factory=list)
    reason: str = Field(default="", description="why, for the audit trail")


class RequestedByeIn(BaseModel):
    kind: ByeKind | None = Field(
        description="half, full or zero (pab is the pairing's); null takes the bye back"
    )


class WithdrawalIn(BaseModel):
    after_round: BodyCount | None = Field(
        description="the last round played; null puts the player back"
    )


class RulesIn(BaseModel):
    """Only the fields given change; one left out keeps its stored value, and ``{}`` changes
    nothing. A field given as null is set to null."""

    model_config = ConfigDict(extra="forbid")

    pairing_system: PairingSystem | None = Field(
        default=None, description="null: the arbiter gives the pairings"
    )
    tie_breaks: list[str] | None = Field(
        default=None,
        description="FIDE C.07 names in order, e.g. BH-C1, BH, SB; null for the default",
    )
    tie_break_edition: str | None = Field(
        default=None,
        description=(
            f"the FIDE C.07 edition that ranks the tournament, one of {', '.join(EDITIONS)};"
            " null: the one in force at the start date"
        ),
    )


def _view(pairings: RoundPairings) -> RoundPairingsInfo:
    return RoundPairingsInfo(
        round_id=pairings.round_id,
        number=pairings.number,
        published=pairings.published,
        games=[
            PairedGame(board=board, white=white, black=black)
            for board, (white, black) in enumerate(pairings.games, start=1)
        ],
        byes=[PairedBye(player=player, kind=kind) for player, kind in pairings.byes],
        warnings=pairings.warnings,
    )


_REFUSED = (PairingRefusedError, ConflictError, PairingEngineError, TrfError)


@router.post("/tournaments/{tournament_id}/rounds/next")
async def pair_next_round(
    hub: HubDep, who: ArbiterDep, tournament_id: TournamentId
) -> RoundPairingsInfo:
    """Pair the next round by the tournament's system, as an unpublished round for the
    arbiter to check, edit and publish. Refused (409) while a result is not verified."""
    with refusals(f"tournament {tournament_id}", *_REFUSED):
        pairings = await hub.pairings.pair_next(tournament_id=tournament_id, who=who)
    return _view(pairings)


@router.get("/rounds/{round_id}/pairings")
async def round_pairings(
    hub: HubDep, session: SessionDep, identity: ViewerDep, round_id: RoundId
) -> RoundPairingsInfo:
    """The round's games and byes by start number, with what breaks the pairing rules."""
    with refusals(f"round {round_id}"):
        round_ = get_round(session, round_id=round_id)
    if identity is None and not round_.published:
        raise HTTPException(404, f"no round {round_id}")
    with refusals(f"round {round_id}", *_REFUSED):
        return _view(await hub.pairings.pairings(round_id=round_id))


@router.put("/rounds/{round_id}/pairings")
async def edit_pairings(
    hub: HubDep, who: ArbiterDep, round_id: RoundId, body: PairingsIn
) -> RoundPairingsInfo:
    """Replace the round's pairings (until a game of it begins); the answer lists what
    breaks the pairing rules, for the arbiter to weigh."""
    with refusals(f"round {round_id}", *_REFUSED):
        pairings = await hub.pairings.edit(
            round_id=round_id,
            games=[(white, black) for white, black in body.games],
            byes=[(bye.player, bye.kind) for bye in body.byes],
            who=who,
            reason=body.reason,
        )
    return _view(pairings)


@router.put("/tournaments/{tournament_id}/rounds/{number}/byes/{start_number}")
async def request_bye(
    hub: HubDep,
    who: ArbiterDep,
    tournament_id: TournamentId,
    number: RoundNumber,
    start_number: StartNumber,
    body: RequestedByeIn,
) -> RequestedBye:
    """A bye the player asked for, in a round not yet paired."""
    if body.kind is not None and not body.kind.requestable:
        raise HTTPException(422, "a requested bye is half, full or zero")
    with refusals(f"player {start_number} or round {number}", *_REFUSED):
        round_ = await hub.pairings.request_bye(
            tournament_id=tournament_id,
            number=number,
            start_number=start_number,
            kind=body.kind,
            who=who,
        )
    return RequestedBye.model_validate(
        {"round_id": round_.id, "number": round_.number, "player": start_number}
    )


@router.put("/tournaments/{tournament_id}/players/{start_number}/withdrawal")
async def withdraw_player(
    hub: HubDep,
    who: ArbiterDep,
    tournament_id: TournamentId,
    start_number: StartNumber,
    body: WithdrawalIn,
) -> Withdrawal:
    """The player withdraws after a round (seed 004 ch. 12) and is paired no more."""
    with refusals(f"player {start_number}", *_REFUSED):
        await hub.pairings.withdraw(
            tournament_id=tournament_id,
            start_number=start_number,
            after_round=body.after_round,
            who=who,
        )
    return Withdrawal(player=start_number, withdrawn_after=body.after_round)


def _stored_rules(tournament: Tournament) -> dict[str, Any]:
    return {
        "pairing_system": tournament.pairing_system,
        "tie_breaks": (
            None if tournament.tie_breaks is None else list(parse_order(tournament.tie_breaks))
        ),
        "tie_break_edition": tournament.tie_break_edition,
    }


def _rules(session: Session, tournament: Tournament) -> TournamentRules:
    assert tournament.id is not None
    _, left_out = ranking_order(tournament, list_players(session, tournament_id=tournament.id))
    return TournamentRules.model_validate(
        _stored_rules(tournament)
        | {
            "tie_break_edition_in_force": edition_of(tournament).value,
            "tie_breaks_left_out": list(left_out),
        }
    )


@router.get("/tournaments/{tournament_id}/rules")
async def tournament_rules(session: SessionDep, tournament_id: TournamentId) -> TournamentRules:
    """The tournament's pairing system, tie-break order and the edition of FIDE C.07 that
    ranks it (the one it names, else the one in force at its start date)."""
    with refusals(f"tournament {tournament_id}"):
        return _rules(session, get_tournament(session, tournament_id=tournament_id))


@router.put("/tournaments/{tournament_id}/rules")
async def set_rules(
    hub: HubDep, who: ArbiterDep, tournament_id: TournamentId, body: RulesIn
) -> TournamentRules:
    """Change the tournament's pairing system, its tie-break order, its C.07 edition, or
    several: only the fields in the body change (``{}`` changes nothing). The answer is the
    rules as now stored; what changed is audited."""
    given = body.model_fields_set
    try:
        order = None if body.tie_breaks is None else parse_order(", ".join(body.tie_breaks))
    except ValueError as error:
        raise HTTPException(422, f"tie_breaks: {error}") from None
    try:
        edition = None if body.tie_break_edition is None else parse_edition(body.tie_break_edition)
    except ValueError as error:
        raise HTTPException(422, f"tie_break_edition: {error}") from None

    def store(session: Session) -> TournamentRules:
        tournament = get_tournament(session, tournament_id=tournament_id)
        before = _stored_rules(tournament)
        after = dict(before)
        if "pairing_system" in given:
            after["pairing_system"] = body.pairing_system
        if "tie_breaks" in given:
            after["tie_breaks"] = None if order is None else list(order)
        if "tie_break_edition" in given:
            after["tie_break_edition"] = None if edition is None else edition.value
        changed = {k: {"from": before[k], "to": after[k]} for k in before if before[k] != after[k]}
        if changed:
            tournament = set_tournament_rules(
                session,
                tournament_id=tournament_id,
                pairing_system=after["pairing_system"],
                tie_breaks=after["tie_breaks"],
                tie_break_edition=after["tie_break_edition"],
            )
            audit(
                session,
                who=who,
                action="set-rules",
                target=f"tournament {tournament_id}",
                detail=changed,
            )
            session.commit()
        return _rules(session, tournament)

    with refusals(f"tournament {tournament_id}"):
        return await hub.recorder.run(store)


@router.get(
    "/tournaments/{tournament_id}/report.trf",
    response_class=PlainTextResponse,
    responses={
        200: {
            "description": "The tournament report, TRF16 or TRF-2026",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def tournament_report(
    hub: HubDep,
    session: SessionDep,
    who: ArbiterDep,
    tournament_id: TournamentId,
    dialect: Annotated[Literal["trf16", "trf2026"], Query()] = "trf16",
) -> PlainTextResponse:
    """The tournament report (TRF) with every verified result, for the rating officer and
    other pairing programs."""
    with refusals(f"tournament {tournament_id}"):
        tournament = get_tournament(session, tournament_id=tournament_id)
    with refusals(f"tournament {tournament_id}", *_REFUSED):
        report = await hub.pairings.report(tournament_id=tournament_id)
        # The ranks are the standings' over the rounds written (shared places alike).
        written = max((len(p.results) for p in report.players), default=0)
        counted = [r for r in visible_rounds(session, tournament_id, who) if r[1].number <= written]
        places = {
            row.player.start_number: row.rank
            for row in await player_standings(
                hub.views, session, tournament, counted, provisional=False
            )
        }
        report = replace(
            report,
            players=[replace(p, rank=places.get(p.start_number, p.rank)) for p in report.players],
        )
        text = render_trf(report, dialect)
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8")
