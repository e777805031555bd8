"""Tournaments: standings, tie-breaks (and, to come, pairings and ratings)."""
