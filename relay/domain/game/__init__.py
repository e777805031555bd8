"""One game on one board: from board positions to moves, and the game's event log."""
