"""Publication of stored game events to whoever follows them.

In-process by default (:mod:`relay.bus.memory`); across server processes through Redis
(:mod:`relay.bus.redis_bus`) with the same interface. Only events already committed to the
store are published.
"""
