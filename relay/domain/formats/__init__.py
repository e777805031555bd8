"""Formats the hub reads and writes: PGN, TRF16 and TRF-2026, the event file.

Each is described for its users in ``docs/formats.md``.
"""
