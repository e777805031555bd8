"""Games as records for tests: the moves of a SAN list, each as the board decided it."""

from __future__ import annotations

import chess

from relay.domain.game.events import MoveMade
from relay.domain.game.record import GameRecord


def record_of(*sans: str) -> GameRecord:
    """A game whose log holds a ``move`` event for each of ``sans``, in order."""
    board = chess.Board()
    record = GameRecord()
    for san in sans:
        move = board.push_san(san)
        record.apply(MoveMade(board.ply(), move.uci(), san, board.fen(), 1.0))
    return record
