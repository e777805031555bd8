"""Clocks: time controls, their periods and bonuses, and each game's time, move by move."""
