"""A stream over an ASGI websocket, where :mod:`relay.edge.protocol` does not serve it (the
test client, another ASGI server): the history, then the member's backlog, until the end.

The connection is accepted and its client's streams counted by the route that mounts this
(:mod:`relay.api.stream_routes`).
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from relay.edge.joining import StreamRefusedError, StreamTarget, join_stream
from relay.edge.rooms import CLOSE_TRY_AGAIN, Member


async def follow(websocket: WebSocket, target: StreamTarget, token: str | None) -> None:
    """Serve ``target`` on an accepted websocket, with the hub and rooms of its app."""
    state = websocket.app.state
    try:
        member, history = await join_stream(state.hub, state.rooms, target, token, None)
    except StreamRefusedError as refused:
        await websocket.close(refused.code, refused.reason)
        return
    try:
        for text in history:
            await websocket.send_text(text)
        member.go_live()
        await _pump(websocket, member)
    except WebSocketDisconnect:
        pass  # the client left; nothing to tell anyone
    finally:
        member.room.leave(member)


async def _pump(websocket: WebSocket, member: Member) -> None:
    """Send the member's messages until the client leaves or falls too far behind."""
    listener = asyncio.create_task(_wait_for_close(websocket, member))
    try:
        while (item := await member.next()) is not None:
            await websocket.send_text(item.text)
        if member.overflowed:
            await websocket.close(CLOSE_TRY_AGAIN, "too far behind; resume from your version")
        elif not listener.done():
            # The room let the client go (a delay changed, the server stops): come back.
            await websocket.close(CLOSE_TRY_AGAIN, "reconnect and resume from your version")
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)


async def _wait_for_close(websocket: WebSocket, member: Member) -> None:
    """Clients send nothing we need; reading only tells us when they have gone."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    finally:
        member.close()
