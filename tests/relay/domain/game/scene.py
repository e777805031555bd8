"""A board on a table for tracker tests: hands move pieces, time passes, events are kept."""

from __future__ import annotations

from typing import TypeVar

import chess

from relay.domain.game.events import GameEvent, MoveMade
from relay.domain.game.laws import Rules
from relay.domain.game.placement import Placement
from relay.domain.game.settling import Settling
from relay.domain.game.tracker import ClockView, PositionTracker
from relay.domain.results import Result

E = TypeVar("E", bound=GameEvent)

SETTLING = Settling(settle_seconds=0.25, recover_seconds=1.0, alert_seconds=3.0)
TOUCH = 0.1  # between two touches of one move: shorter than the settle window


class Scene:
    def __init__(self, *sans: str, fen: str | None = None, rules: Rules | None = None) -> None:
        game = chess.Board(fen) if fen else chess.Board()
        for san in sans:
            game.push_san(san)
        self.tracker = PositionTracker(game, settling=SETTLING, rules=rules)
        self.shown = chess.BaseBoard(game.board_fen())
        self.markers: frozenset[Result] = frozenset()
        self.now = 100.0
        self.events: list[GameEvent] = []
        self.lever: chess.Color = game.turn
        self.times = [300, 300]
        self.clocked = False

    # Hands

    def show(self) -> None:
        placement = Placement.of_board(self.shown)
        self.events += self.tracker.observe(placement, self.now, self.now, self.markers)

    def lift(self, square: str) -> None:
        self.shown.remove_piece_at(chess.parse_square(square))
        self.show()
        self.wait(TOUCH)

    def put(self, square: str, symbol: str) -> None:
        self.shown.set_piece_at(chess.parse_square(square), chess.Piece.from_symbol(symbol))
        self.show()
        self.wait(TOUCH)

    def move(self, origin: str, target: str, *, then: float = 0.0) -> None:
        """A plain move by hand: captured man off first, then lift and put down."""
        piece = self.shown.piece_at(chess.parse_square(origin))
        assert piece is not None
        if self.shown.piece_at(chess.parse_square(target)) is not None:
            self.lift(target)
        self.lift(origin)
        self.put(target, piece.symbol())
        self.wait(then)

    def set_up(self, fen: str) -> None:
        """Everything at once (an arbiter resetting the board, a dump after a reconnection)."""
        self.shown = chess.BaseBoard(fen)
        self.show()

    def mark(self, result: str | None) -> None:
        self.markers = frozenset({Result(result)}) if result else frozenset()
        self.show()

    # Time and the clock

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.events += self.tracker.settle(self.now, self.now)

    def press(self, player: chess.Color, *, then: float = 0.0) -> None:
        """``player`` presses the clock; ``then`` seconds pass (a press the board has not
        caught up with is judged one settle window later)."""
        if not self.clocked:  # the clock's first reading: no press to see yet
            self.lever = player
            self.clock()
        self.lever = not player
        self.clock()
        self.wait(then)

    def clock(
        self,
        *,
        flag: chess.Color | None = None,
        flags: tuple[bool, bool] = (False, False),
        running: bool = True,
    ) -> None:
        self.clocked = True
        white_flag = flags[0] or flag == chess.WHITE
        black_flag = flags[1] or flag == chess.BLACK
        view = ClockView(
            white_seconds=0 if white_flag else self.times[0],
            black_seconds=0 if black_flag else self.times[1],
            white_flag=white_flag,
            black_flag=black_flag,
            running=running,
            to_move=self.lever,
        )
        self.events += self.tracker.clock(view, self.now, self.now)

    # What came out

    def sans(self) -> list[str]:
        return [e.san for e in self.events if isinstance(e, MoveMade)]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of(self, cls: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, cls)]

    def take(self) -> list[GameEvent]:
        events, self.events = self.events, []
        return events
