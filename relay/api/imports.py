"""The admin's imports: a whole tournament from a TRF, or from its event's PGN.

Each creates a new tournament in one transaction with its audit entry; a file that cannot be
read is a 422 with the reader's words (the line, for a TRF) for every error found, listed in
``errors`` too (``relay.api.refusals``), a contradiction (the name is taken) a 409, and
nothing is stored either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Body, HTTPException, Query
from sqlmodel import Session

from relay.api.deps import AdminDep, HubDep
from relay.api.games import PGN_MEDIA_TYPE
from relay.api.refusals import unreadable
from relay.api.schemas.imports import TournamentImported
from relay.api.text_bodies import NotTextError, text_file
from relay.domain.errors import InvalidInputError
from relay.domain.formats.pgn_import import PgnImportError
from relay.domain.formats.trf import TrfError, parse_trf
from relay.hub.hub import Hub
from relay.hub.pgn_event_import import EventGame, event_games, import_event_pgn
from relay.hub.trf_import import ImportReport, TrfImportError, import_trf
from relay.store.access import Identity, audit
from relay.store.tournaments import ConflictError

router = APIRouter(prefix="/api", tags=["admin"])

TRF_EXAMPLE = """012 Club Open
XXR 1
001    1      Moss, Mary                        1800 ENG                         1.0    1     2 w 1
001    2      Lee, Hugo                         1750 SCO                         0.0    2     1 b 0
"""
PUBLISH = Query(description="publish the imported rounds at once (default: unpublished)")


@router.post("/tournaments.trf")
async def import_tournament_trf(
    hub: HubDep,
    who: AdminDep,
    text: Annotated[
        str,
        Body(
            media_type="text/plain", description="a TRF16 or TRF-2026 file", examples=[TRF_EXAMPLE]
        ),
    ],
    publish: Annotated[bool, PUBLISH] = False,
) -> TournamentImported:
    """Create a tournament from a tournament report file: players, rounds, games, verified
    results and byes (see ``relay.hub.trf_import`` for the choices a TRF leaves open)."""
    try:
        trf = parse_trf(text_file(text))
    except (TrfError, NotTextError) as error:
        raise unreadable(error, "TRF") from None

    def work(session: Session) -> ImportReport:
        report = import_trf(session, trf, who_user=who.user, publish=publish)
        _audit(session, who, "import-trf", report)
        return report

    return await _store(hub, work, (TrfError, TrfImportError), "TRF")


@router.post("/tournaments.pgn")
async def import_tournament_pgn(
    hub: HubDep,
    who: AdminDep,
    text: Annotated[
        str, Body(media_type=PGN_MEDIA_TYPE, description="every game of the event, as PGN")
    ],
    name: Annotated[
        str | None, Query(description="the tournament's name (default: the games' Event tag)")
    ] = None,
    publish: Annotated[bool, PUBLISH] = False,
) -> TournamentImported:
    """Create a tournament from its event's PGN: players from the tags (start numbers by
    rating, then name), rounds and boards from ``Round "r.b"``, verified results, and
    moves when the games have them (see ``relay.hub.pgn_event_import``)."""
    try:
        games: list[EventGame] = event_games(text_file(text))
    except (PgnImportError, NotTextError) as error:
        raise unreadable(error, "PGN") from None

    def work(session: Session) -> ImportReport:
        report = import_event_pgn(session, games, who_user=who.user, name=name, publish=publish)
        _audit(session, who, "import-pgn-event", report)
        return report

    return await _store(hub, work, (PgnImportError,), "PGN")


def _audit(session: Session, who: Identity, action: str, report: ImportReport) -> None:
    audit(
        session,
        who=who,
        action=action,
        target=f"tournament {report.tournament_id}",
        detail={"players": report.players, "rounds": report.rounds, "games": report.games},
    )
    session.commit()


async def _store(
    hub: Hub,
    work: Callable[[Session], ImportReport],
    unreadable_file: tuple[type[InvalidInputError], ...],
    what: str,
) -> TournamentImported:
    try:
        report = await hub.recorder.run(work)
    except ConflictError as error:
        raise HTTPException(409, str(error)) from None
    except unreadable_file as error:
        raise unreadable(error, what) from None
    # New rounds have new ids, but a cache must never hold one from before (an id reused).
    for round_id in report.round_ids:
        hub.views.forget(round_id)
    return TournamentImported(
        tournament_id=report.tournament_id,
        players=report.players,
        rounds=report.rounds,
        games=report.games,
        notes=list(report.notes),
    )
