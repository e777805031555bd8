"""A game's state as a fold of its event log."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import chess

from relay.domain.game.events import GameEnded, GameEvent, MoveMade


class GameLogError(ValueError):
    """An event log that does not describe a game (an illegal or out-of-order move)."""


@dataclass
class GameRecord:
    """Moves and result of one game, rebuilt from its events."""

    board: chess.Board = field(default_factory=chess.Board)
    moves: list[MoveMade] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None

    @classmethod
    def from_events(cls, events: Iterable[GameEvent]) -> GameRecord:
        record = cls()
        for event in events:
            record.apply(event)
        return record

    def apply(self, event: GameEvent) -> None:
        if isinstance(event, MoveMade):
            self._apply_move(event)
        else:
            self._apply_end(event)

    def _apply_move(self, event: MoveMade) -> None:
        if event.ply != len(self.moves) + 1:
            raise GameLogError(f"move at ply {event.ply} follows ply {len(self.moves)}")
        try:
            move = self.board.parse_uci(event.uci)
        except ValueError as error:
            raise GameLogError(f"ply {event.ply}: {error}") from None
        self.board.push(move)
        self.moves.append(event)

    def _apply_end(self, event: GameEnded) -> None:
        self.result = event.result
        self.termination = event.termination

    @property
    def last_move(self) -> MoveMade | None:
        return self.moves[-1] if self.moves else None
