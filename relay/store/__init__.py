"""Storage: SQLModel tables, the engine, and keyword-only data functions taking a session.

SQLite (WAL) by default, PostgreSQL by URL. A game's moves live only in its append-only event
log; everything else about a game is read by folding that log.
"""
