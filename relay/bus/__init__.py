"""Publication of stored game events to whoever follows them.

In-process by default (:mod:`relay.bus.memory`); Redis across processes comes later with the
same interface. Only events already committed to the store are published.
"""
