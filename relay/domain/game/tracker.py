"""From a stream of board placements to game events.

The board reports every change its sensors see: a lifted piece, a piece put down, a capture
in two or three steps. The tracker waits until a placement has stood still for the settle
time, then asks which legal move (or two, if one was missed) explains it. Placements that
nothing explains are waited on: a piece is in the air.

Time is passed in by the caller (seconds on any monotonic scale for settling, Unix seconds
for the event stamps); the tracker never reads a clock.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from relay.domain.game.events import GameEnded, GameEvent, MoveMade
from relay.domain.game.matching import find_move, find_moves
from relay.domain.game.placement import Placement

#: How long a placement must stand still before it is decided, by default.
DEFAULT_SETTLE_SECONDS = 0.25

_TERMINATIONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five moves",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}


class PositionTracker:
    """Follows one game on one board."""

    def __init__(
        self, board: chess.Board | None = None, *, settle_seconds: float = DEFAULT_SETTLE_SECONDS
    ) -> None:
        self.board = board.copy() if board is not None else chess.Board()
        self.settle_seconds = settle_seconds
        self._pending: Placement | None = None
        self._since = 0.0
        self._decided = Placement.of_board(self.board)
        self._unexplained: Placement | None = None
        self._finished = self.board.outcome() is not None

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def deadline(self) -> float | None:
        """When :meth:`settle` should next be called, or None if there is nothing to decide."""
        if self._pending is None or self._pending == self._decided or self._finished:
            return None
        if self._pending == self._unexplained:
            return None  # tried already: wait for the board to change
        return self._since + self.settle_seconds

    def observe(self, placement: Placement, now: float, wall_time: float) -> list[GameEvent]:
        """Record what the board shows at monotonic time ``now``.

        The placement this one replaces is decided first if it stood still for the settle
        time, judged by the arrival times of the two: a busy host that comes late to its
        settle timer still sees every position the board held long enough.
        """
        if placement == self._pending:
            return []
        events = self.settle(now, wall_time)
        self._pending = placement
        self._since = now
        return events

    def settle(self, now: float, wall_time: float) -> list[GameEvent]:
        """Decide the pending placement if it has stood still until :attr:`deadline`."""
        deadline = self.deadline
        placement = self._pending
        if deadline is None or placement is None or now < deadline:
            return []
        return self._decide(placement, wall_time)

    def replay(self, placements: Sequence[Placement], wall_time: float) -> list[GameEvent]:
        """Placements the board logged while the link was down, oldest first.

        Each one that continues the game legally is decided at once, unless the next one
        is a legal move from the same position too: then the piece was only passing
        through (a slide: Bf1-e2-d3-c4 is Bc4). The rest are skipped. If the log shows
        the current position, only what follows its last showing is considered, so a
        position from earlier in the game that happens to be legal again is not taken
        for a new move.
        """
        events: list[GameEvent] = []
        if self._decided in placements:
            last = len(placements) - 1 - placements[::-1].index(self._decided)
            placements = placements[last + 1 :]
        for index, placement in enumerate(placements):
            if self._finished:
                break
            if placement == self._decided:
                continue
            following = placements[index + 1] if index + 1 < len(placements) else None
            if (
                following is not None
                and following != placement
                and find_move(self.board, following) is not None
            ):
                continue
            events += self._decide(placement, wall_time)
        self._pending = None
        return events

    def _decide(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        moves = find_moves(self.board, placement)
        if not moves:
            self._unexplained = placement
            return []
        events: list[GameEvent] = []
        for move in moves:
            san = self.board.san(move)
            self.board.push(move)
            events.append(
                MoveMade(
                    ply=len(self.board.move_stack),
                    uci=move.uci(),
                    san=san,
                    fen=self.board.fen(),
                    at=wall_time,
                )
            )
        self._decided = placement
        self._unexplained = None
        outcome = self.board.outcome()
        if outcome is not None:
            self._finished = True
            events.append(
                GameEnded(
                    result=outcome.result(),
                    termination=_TERMINATIONS.get(outcome.termination, outcome.termination.name),
                    at=wall_time,
                )
            )
        return events
