"""Application services: board sessions (driver events -> domain -> store -> bus)."""
