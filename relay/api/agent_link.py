"""The venue agents' websocket (docs/venue-agent.md): ``/api/agent`` with an operator's
token in ``Authorization: Bearer``. The agent says ``hello``, the hub answers ``welcome``
with what it holds; inputs are acknowledged once committed, clock commands go down.

A message the protocol does not allow closes the link with code 1008 and the reason in
words; the agent then starts again from what the hub holds, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from relay.api.deps import HubDep, OperatorDep
from relay.api.schemas.agents import AgentStatus
from relay.hub.agent_links import AgentMessageError
from relay.hub.hub import Hub
from relay.store.access import identify

router = APIRouter(prefix="/api", tags=["venue agents"])
log = logging.getLogger(__name__)

CLOSE_POLICY = 1008
CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403


@router.get("/agents", response_model=list[AgentStatus])
async def agents(hub: HubDep, who: OperatorDep) -> list[AgentStatus]:
    """Each venue agent: connected or since when not, its last acknowledged input, and its
    boards."""
    return [AgentStatus.model_validate(status) for status in hub.agents.status()]


@router.websocket("/agent")
async def agent_link(websocket: WebSocket) -> None:
    """A venue agent's link; operator role."""
    hub: Hub = websocket.app.state.hub
    scheme, _, token = websocket.headers.get("authorization", "").partition(" ")
    identity = None
    if scheme.lower() == "bearer" and token:
        identity = await hub.recorder.read(lambda session: identify(session, token))
    await websocket.accept()
    if identity is None:
        await websocket.close(CLOSE_UNAUTHORIZED, "an agent needs an operator's token")
        return
    if not identity.staff or not identity.may("operator"):
        await websocket.close(CLOSE_FORBIDDEN, f"{identity.user} may not run a venue agent")
        return
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    writer = asyncio.create_task(_write(websocket, outbox))
    send = outbox.put_nowait
    state = None
    try:
        state = await hub.agents.hello(_message(await _text(websocket)), send)
        while True:
            await hub.agents.received(state, _message(await _text(websocket)), send)
    except WebSocketDisconnect:
        pass
    except AgentMessageError as error:
        log.warning("agent link closed: %s", error)
        await outbox.join()
        with contextlib.suppress(RuntimeError):
            await websocket.close(CLOSE_POLICY, str(error)[:120])
    finally:
        if state is not None:
            hub.agents.gone(state, send)
        writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)


async def _text(websocket: WebSocket) -> str:
    """The next message, which must be text."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise AgentMessageError("messages are JSON text, not bytes")
    return str(text)


def _message(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise AgentMessageError("a message is one JSON object") from None


async def _write(websocket: WebSocket, outbox: asyncio.Queue[dict[str, Any]]) -> None:
    while True:
        message = await outbox.get()
        try:
            await websocket.send_text(json.dumps(message, separators=(",", ":")))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            outbox.task_done()
