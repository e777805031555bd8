"""``relay agent``'s loop (relay/agent/runner.py) against a hub of the test's own: a queue
that cannot be written stops the agent, wherever the write comes from."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from drivers.events import EMPTY_POSITION, PositionSnapshot
from drivers.fake import ScriptedBoard
from drivers.link import BoardLink
from relay.agent.queue import QueueWriteError
from relay.agent.runner import Agent, AgentSettings


def test_a_queue_that_cannot_keep_an_acknowledgement_stops_the_agent(tmp_path: Path) -> None:
    """The acknowledgement is written to the queue too: a full disk there is the queue's
    error, not the link's, and the agent stops rather than connect again and again."""
    connections = 0

    async def hub(link: ServerConnection) -> None:
        nonlocal connections
        connections += 1
        await link.recv()  # hello
        await link.send(json.dumps({"type": "welcome", "acked": 0}))
        while (message := json.loads(await link.recv()))["type"] != "inputs":
            pass
        await link.send(json.dumps({"type": "ack", "seq": message["items"][-1]["seq"]}))
        await link.wait_closed()

    async def run() -> None:
        board = ScriptedBoard()
        board.push(PositionSnapshot(EMPTY_POSITION))

        async def open_board(port: str) -> BoardLink:
            return board

        async with serve(hub, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            settings = AgentSettings(
                hub=f"http://127.0.0.1:{port}",
                token="operator",
                name="hall",
                boards={"1": "fake"},
                queue=tmp_path / "queue.db",
            )
            agent = Agent(settings, open_board=open_board)

            def full(seq: int) -> None:
                raise QueueWriteError(f"the agent's queue {settings.queue} cannot be written")

            agent.queue.acknowledge = full  # type: ignore[method-assign]
            await asyncio.wait_for(agent.run(), 30)

    with pytest.raises(QueueWriteError, match="cannot be written"):
        asyncio.run(run())
    assert connections == 1
