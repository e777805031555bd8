"""Drivers for electronic chess boards and clocks.

Each driver has a sans-I/O core (bytes in, events out; commands in, bytes out) and a thin
asyncio transport. Drivers know nothing about chess rules or the hub: they report what the
hardware says, as the typed events of :mod:`drivers.events`.
"""
