"""The admin's routes: setting up an event through the API."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, HTTPException
from sqlmodel import Session

from relay.api.deps import AdminDep, HubDep
from relay.api.refusals import unreadable
from relay.api.schemas.imports import EventLoaded
from relay.api.text_bodies import NotTextError, text_file
from relay.domain.formats.event_file import EventFileError, parse_event_file
from relay.store.access import audit
from relay.store.setup import LoadReport, load_event
from relay.store.tournaments import ConflictError

router = APIRouter(prefix="/api", tags=["admin"])

EVENT_FILE_EXAMPLE = """[tournament]
name = "Club Open"

[[player]]
number = 1
name = "Moss, Mary"

[[player]]
number = 2
name = "Lee, Hugo"

[[round]]
number = 1
pairings = [[1, 2]]
"""


@router.post("/event")
async def load(
    hub: HubDep,
    who: AdminDep,
    text: Annotated[
        str,
        Body(
            media_type="application/toml",
            description="an event file (see the README, 'Event files')",
            examples=[EVENT_FILE_EXAMPLE],
        ),
    ],
) -> EventLoaded:
    """Load an event file: what is new is added, what is stored stays as it is."""
    try:
        setup = parse_event_file(text_file(text))
    except (EventFileError, NotTextError) as error:
        raise unreadable(error, "event file") from None

    def work(session: Session) -> LoadReport:
        report = load_event(session, setup)
        audit(session, who=who, action="load-event", target=f"tournament {report.tournament_id}")
        return report

    try:
        report = await hub.recorder.run(work)
    except ConflictError as error:
        raise HTTPException(409, str(error)) from None
    hub.views.close()  # pairings may have changed: read rounds again when asked
    not_followed = await hub.follow_eboards_as_stored(report.changed_boards)
    return EventLoaded(
        tournament_id=report.tournament_id,
        created=report.created,
        players=report.players,
        boards=report.boards,
        rounds=report.rounds,
        games=report.games,
        notes=list(report.notes),
        not_followed=not_followed,
    )
