"""``relay agent``'s loop (relay/agent/runner.py) against a hub of the test's own: a queue
that cannot be written stops the agent, wherever the write comes from."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from drivers.events import EMPTY_POSITION, PositionSnapshot
from drivers.fake import ScriptedBoard
from drivers.link import BoardLink
from relay.agent.queue import AgentQueue, InputRead, QueueWriteError
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


def test_a_time_mark_never_overtakes_an_input_read_before_it(tmp_path: Path) -> None:
    """The hub's trackers take a time mark as the venue's time going on with no new input:
    one sent while an earlier input is still being written to the queue would let the hub
    decide on a board as it stood before that input. The queue is made slow here, so inputs
    wait in it while the marks' tenth-of-a-second comes round."""
    received: list[dict[str, object]] = []

    async def hub(link: ServerConnection) -> None:
        await link.recv()  # hello
        await link.send(json.dumps({"type": "welcome", "acked": 0}))
        async for text in link:
            message = json.loads(text)
            received.append(message)
            if message["type"] == "inputs":
                await link.send(json.dumps({"type": "ack", "seq": message["items"][-1]["seq"]}))

    async def run() -> None:
        board = ScriptedBoard()

        async def open_board(port: str) -> BoardLink:
            return board

        async def play() -> None:
            for _ in range(12):
                board.push(PositionSnapshot(EMPTY_POSITION))
                await asyncio.sleep(0.07)

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
            keep = agent.queue.put_many

            def slow(inputs: Sequence[InputRead]) -> int:
                time.sleep(0.25)
                return keep(inputs)

            agent.queue.put_many = slow  # type: ignore[method-assign]
            running = asyncio.ensure_future(agent.run())
            await asyncio.wait_for(agent.online.wait(), 10)
            await play()

            def settled() -> bool:  # every input in, and a mark after the last of them
                kinds = [str(m["type"]) for m in received]
                if "inputs" not in kinds:
                    return False
                batches = [m["items"] for m in received if m["type"] == "inputs"]
                count = sum(len(batch) for batch in batches if isinstance(batch, list))
                last = len(kinds) - kinds[::-1].index("inputs")
                return count == 12 and "time" in kinds[last:]

            deadline = time.monotonic() + 10
            while not settled():
                assert time.monotonic() < deadline, "the inputs and a later mark never came"
                await asyncio.sleep(0.02)
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)

    asyncio.run(run())
    inputs = [item for m in received if m["type"] == "inputs" for item in m["items"]]  # type: ignore[attr-defined]
    assert [item["seq"] for item in inputs] == list(range(1, 13))
    marks = [m for m in received if m["type"] == "time"]
    assert marks  # the marks went on while the board was still
    seen = 0.0
    for message in received:
        if message["type"] == "inputs":
            seen = max(seen, *(item["mono"] for item in message["items"]))  # type: ignore[attr-defined]
        elif message["type"] == "time":
            later = [
                item["seq"]
                for item in inputs
                if item["mono"] < message["mono"] and item["mono"] > seen
            ]
            assert later == [], f"a mark at {message['mono']} overtook inputs {later}"


def _agent_on(tmp_path: Path, board: ScriptedBoard, port: int) -> Agent:
    async def open_board(_: str) -> BoardLink:
        return board

    settings = AgentSettings(
        hub=f"http://127.0.0.1:{port}",
        token="operator",
        name="hall",
        boards={"1": "fake"},
        queue=tmp_path / "queue.db",
    )
    return Agent(settings, open_board=open_board)


def test_an_agent_stopped_mid_write_keeps_every_input_it_read_in_order(tmp_path: Path) -> None:
    """SIGTERM while a batch syncs and more inputs wait behind it: the batch finishes, the
    rest follow it, numbered in the order they were read."""

    async def run() -> None:
        board = ScriptedBoard()
        agent = _agent_on(tmp_path, board, 9)  # no hub: the agent keeps trying to reach it
        keep = agent.queue.put_many
        writing = asyncio.Event()

        def slow(inputs: Sequence[InputRead]) -> int:
            if not writing.is_set():  # the first batch is slow to sync, the rest are not
                writing.set()
                time.sleep(0.3)
            return keep(inputs)

        agent.queue.put_many = slow  # type: ignore[method-assign]
        running = asyncio.ensure_future(agent.run())
        board.push(PositionSnapshot(EMPTY_POSITION))
        await asyncio.wait_for(writing.wait(), 10)
        for _ in range(5):  # read while the first batch syncs
            board.push(PositionSnapshot(EMPTY_POSITION))
        await asyncio.wait_for(board.handled(), 10)
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    asyncio.run(run())
    queue = AgentQueue(tmp_path / "queue.db")
    kept = queue.pending(after=0)
    assert [q.seq for q in kept] == [1, 2, 3, 4, 5, 6]
    assert [q.mono for q in kept] == sorted(q.mono for q in kept)


def test_after_a_batch_that_could_not_be_kept_nothing_read_later_is_kept(tmp_path: Path) -> None:
    """A failed batch stops the agent; what was read after it stays in the boards' logs,
    so it can never be numbered before the inputs that failed."""

    async def run() -> None:
        board = ScriptedBoard()
        agent = _agent_on(tmp_path, board, 9)
        writing = asyncio.Event()

        def failing(inputs: Sequence[InputRead]) -> int:
            writing.set()
            time.sleep(0.2)
            raise QueueWriteError("the agent's queue cannot be written: disk I/O error")

        agent.queue.put_many = failing  # type: ignore[method-assign]
        running = asyncio.ensure_future(agent.run())
        board.push(PositionSnapshot(EMPTY_POSITION))
        await asyncio.wait_for(writing.wait(), 10)
        board.push(PositionSnapshot(EMPTY_POSITION))  # read while the batch fails
        await asyncio.wait_for(board.handled(), 10)
        del agent.queue.put_many  # the disk would take writes again now
        await asyncio.wait_for(running, 10)

    with pytest.raises(QueueWriteError, match="cannot be written"):
        asyncio.run(run())
    assert AgentQueue(tmp_path / "queue.db").last_seq == 0
