"""An in-process bus: synchronous callbacks per topic, called in publication order."""

from __future__ import annotations

import logging
from collections.abc import Callable

from relay.bus.messages import Published, game_topic, round_topic

Handler = Callable[[Published], None]

log = logging.getLogger(__name__)


class Subscription:
    """A handler's registration on one topic; :meth:`close` ends it."""

    def __init__(self, bus: MemoryBus, topic: str, handler: Handler) -> None:
        self._bus = bus
        self.topic = topic
        self.handler = handler

    def close(self) -> None:
        self._bus._remove(self)


class MemoryBus:
    """Topics to handlers, in one process. Handlers must not block."""

    def __init__(self) -> None:
        self._topics: dict[str, list[Subscription]] = {}

    def subscribe(self, topic: str, handler: Handler) -> Subscription:
        subscription = Subscription(self, topic, handler)
        self._topics.setdefault(topic, []).append(subscription)
        return subscription

    def publish(self, message: Published) -> None:
        """Deliver to the game's and the round's subscribers.

        A failing handler is logged and does not keep the message from the others.
        """
        for topic in (game_topic(message.game_id), round_topic(message.round_id)):
            for subscription in tuple(self._topics.get(topic, ())):
                try:
                    subscription.handler(message)
                except Exception:
                    log.exception("bus handler for %s failed", topic)

    def subscriber_count(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))

    def _remove(self, subscription: Subscription) -> None:
        handlers = self._topics.get(subscription.topic)
        if handlers and subscription in handlers:
            handlers.remove(subscription)
            if not handlers:
                del self._topics[subscription.topic]
