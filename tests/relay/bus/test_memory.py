from __future__ import annotations

import logging

from relay.bus.memory import MemoryBus
from relay.bus.messages import Published, game_topic, round_topic


def message(seq: int, game_id: int = 7, round_id: int = 2) -> Published:
    return Published(round_id, game_id, seq, "move", {"seq": seq})


def test_game_and_round_subscribers_receive_in_order():
    bus = MemoryBus()
    by_game: list[int] = []
    by_round: list[int] = []
    bus.subscribe(game_topic(7), lambda m: by_game.append(m.seq))
    bus.subscribe(round_topic(2), lambda m: by_round.append(m.seq))
    bus.subscribe(game_topic(8), lambda m: by_game.append(-1))
    for seq in (1, 2, 3):
        bus.publish(message(seq))
    assert by_game == [1, 2, 3]
    assert by_round == [1, 2, 3]


def test_closed_subscription_receives_nothing_and_topic_is_removed():
    bus = MemoryBus()
    got: list[int] = []
    subscription = bus.subscribe(game_topic(7), lambda m: got.append(m.seq))
    subscription.close()
    bus.publish(message(1))
    assert got == []
    assert bus.subscriber_count(game_topic(7)) == 0


def test_failing_handler_does_not_stop_the_others(caplog):
    bus = MemoryBus()
    got: list[int] = []

    def broken(_message: Published) -> None:
        raise RuntimeError("boom")

    bus.subscribe(game_topic(7), broken)
    bus.subscribe(game_topic(7), lambda m: got.append(m.seq))
    with caplog.at_level(logging.ERROR):
        bus.publish(message(1))
    assert got == [1]
    assert "boom" in caplog.text
