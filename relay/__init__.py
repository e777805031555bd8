"""chess-relay: a live relay and electronic-board server for over-the-board chess.

The rooms, from the pure core outwards: ``domain`` (rules, no I/O), ``store`` (the event log
on SQLite or PostgreSQL), ``bus`` (publication), ``hub`` (board sessions and services),
``api`` (HTTP and websockets) and ``cli`` (the ``relay`` command).
"""
