"""Formats the hub reads and writes (PGN now; TRF and LiveChess JSON later)."""
