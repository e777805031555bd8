"""The outputs' status lines for the console (docs/outputs.md)."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter

from relay.api.deps import HubDep, OperatorDep
from relay.api.schemas.outputs import OutputInfo

router = APIRouter(prefix="/api", tags=["outputs"])


@router.get("/outputs", response_model=list[OutputInfo])
async def outputs(hub: HubDep, who: OperatorDep) -> list[OutputInfo]:
    """Each output the event file asked for: where it goes, whether it works, its last
    success, and while it fails, why and when it tries again."""
    return [
        OutputInfo.model_validate(dataclasses.asdict(status)) for status in hub.outputs.statuses()
    ]
