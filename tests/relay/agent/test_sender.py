"""The agent's side of the link, sans I/O: what it sends after a welcome, an ack, a new
input; what it refuses from a hub."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from relay.agent.queue import AgentQueue
from relay.agent.sender import AgentSender, ClockCommandIn, LinkProtocolError, LinkState

EVENT = {"kind": "Beep", "duration_ms": 1}


@pytest.fixture
def queue(tmp_path: Path) -> AgentQueue:
    return AgentQueue(tmp_path / "queue.db")


def fill(queue: AgentQueue, count: int) -> None:
    for n in range(count):
        queue.put(board="1", mono=float(n), wall=1000.0 + n, event=EVENT)


def seqs(messages: list[dict[str, Any]]) -> list[int]:
    """The inputs sent, by number: at most one message of them per turn."""
    assert len(messages) <= 1
    assert all(message["type"] == "inputs" for message in messages)
    return [item["seq"] for message in messages for item in message["items"]]


def online(queue: AgentQueue, acked: int = 0, window: int = 256) -> tuple[AgentSender, list[Any]]:
    sender = AgentSender("hall", {"1": "/dev/ttyACM0"}, queue, window=window)
    hello = sender.connected()
    boards = [{"board": "1", "port": "/dev/ttyACM0"}]
    # The hello says how far the queue goes: the hub shows the backlog at the venue.
    assert hello == [{"type": "hello", "agent": "hall", "boards": boards, "queued": queue.last_seq}]
    return sender, sender.received({"type": "welcome", "acked": acked})


def test_after_the_welcome_the_backlog_goes_from_what_the_hub_holds(queue: AgentQueue) -> None:
    fill(queue, 5)
    _, sent = online(queue, acked=2)
    assert seqs(sent) == [3, 4, 5]
    assert sent[0]["queued"] == 5
    assert sent[0]["items"][0] == {
        "seq": 3, "board": "1", "mono": 2.0, "wall": 1002.0, "event": EVENT
    }  # fmt: skip
    assert queue.acked == 2  # the welcome acknowledges what the hub holds


def test_new_inputs_go_as_they_are_queued_and_acks_empty_the_queue(queue: AgentQueue) -> None:
    sender, sent = online(queue)
    assert sent == []
    fill(queue, 2)
    assert seqs(sender.queued()) == [1, 2]
    assert sender.queued() == []  # never twice on one connection
    assert sender.received({"type": "ack", "seq": 2}) == []
    assert queue.backlog == 0


def test_at_most_a_window_is_in_flight(queue: AgentQueue) -> None:
    fill(queue, 10)
    sender, sent = online(queue, window=4)
    assert seqs(sent) == [1, 2, 3, 4]
    assert sender.queued() == []
    assert seqs(sender.received({"type": "ack", "seq": 3})) == [5, 6, 7]


def test_what_is_read_while_two_messages_are_in_flight_goes_in_one_message(
    queue: AgentQueue,
) -> None:
    # One message being committed at the hub, one on its way: the rest wait and go
    # together, so a hub that commits once a message is not asked to commit once an input.
    sender, _ = online(queue)
    fill(queue, 1)
    assert seqs(sender.queued()) == [1]
    fill(queue, 1)
    assert seqs(sender.queued()) == [2]
    fill(queue, 3)
    assert sender.queued() == []
    assert seqs(sender.received({"type": "ack", "seq": 1})) == [3, 4, 5]
    assert sender.received({"type": "ack", "seq": 2}) == []  # nothing more to send
    fill(queue, 1)
    assert seqs(sender.queued()) == [6]  # one message in flight: room for another
    assert seqs(sender.received({"type": "ack", "seq": 5})) == []


def test_a_new_connection_resends_what_was_never_acknowledged(queue: AgentQueue) -> None:
    fill(queue, 4)
    sender, sent = online(queue)
    assert seqs(sent) == [1, 2, 3, 4]
    sender.received({"type": "ack", "seq": 1})
    sender.disconnected()
    assert sender.state is LinkState.OFFLINE
    fill(queue, 1)
    assert sender.queued() == []  # offline: it waits in the queue
    sender.connected()
    # The hub had committed 3 before the link dropped, though its ack was lost.
    assert seqs(sender.received({"type": "welcome", "acked": 3})) == [4, 5]


def test_clock_commands_reach_the_agents_boards(queue: AgentQueue) -> None:
    sender, _ = online(queue)
    heard: list[ClockCommandIn] = []
    sender.on_command = heard.append
    command = {"kind": "Beep", "duration_ms": 100}
    assert sender.received({"type": "command", "id": 7, "board": "1", "command": command}) == []
    assert heard == [ClockCommandIn(7, "1", command)]


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ([], "a message is an object"),
        ({"type": "ack", "seq": 1}, "'ack' before the hub's welcome"),
    ],
)
def test_a_message_out_of_turn_is_refused(queue: AgentQueue, message: Any, words: str) -> None:
    sender = AgentSender("hall", {"1": "x"}, queue)
    sender.connected()
    with pytest.raises(LinkProtocolError, match=words):
        sender.received(message)


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "shout"}, "unknown message type 'shout'"),
        ({"type": "ack", "seq": -1}, "seq is a whole number from 0"),
        ({"type": "ack", "seq": True}, "seq is a whole number from 0"),
        ({"type": "ack", "seq": 9}, "holds input 9 of agent 'hall', which numbered only 2"),
        ({"type": "command", "id": 1, "board": "2", "command": {}}, "which this agent lacks"),
        ({"type": "command", "id": "1", "board": "1", "command": {}}, "id is a whole number"),
        ({"type": "command", "id": 1, "board": "1", "command": []}, "command is an object"),
    ],
)
def test_a_bad_message_is_refused_in_words(queue: AgentQueue, message: Any, words: str) -> None:
    fill(queue, 2)
    sender, _ = online(queue)
    with pytest.raises(LinkProtocolError, match=words):
        sender.received(message)


def test_a_hub_that_holds_more_than_the_agent_made_is_refused(queue: AgentQueue) -> None:
    sender = AgentSender("hall", {"1": "x"}, queue)
    sender.connected()
    with pytest.raises(LinkProtocolError, match="another agent uses this name"):
        sender.received({"type": "welcome", "acked": 5})


def test_a_hub_that_lost_what_it_acknowledged_is_named(queue: AgentQueue) -> None:
    fill(queue, 4)
    sender, _ = online(queue)
    sender.received({"type": "ack", "seq": 4})
    sender.disconnected()
    sender.connected()
    with pytest.raises(LinkProtocolError, match=r"holds agent 'hall'.s inputs up to 2, but had"):
        sender.received({"type": "welcome", "acked": 2})
