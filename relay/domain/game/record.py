"""A game's state as a fold of its event log."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import chess

from relay.domain.clock.game_clock import GameClock
from relay.domain.clock.time_control import TimeControl
from relay.domain.errors import RefusedError
from relay.domain.game.events import (
    ArbiterAlert,
    Claim,
    ClaimsChanged,
    ClockSideDecided,
    DrawOffered,
    GameEnded,
    GameEvent,
    IllegalMoveCompleted,
    InputStatusSet,
    MoveClocked,
    MoveCorrected,
    MoveMade,
    MovesReplaced,
    NewGame,
    NoteAdded,
    ResultProposed,
    ResultSet,
    ResultVerified,
    TakenBack,
)
from relay.domain.results import Result


class GameLogError(ValueError, RefusedError):
    """An event log that does not describe a game (an illegal or out-of-order move)."""


@dataclass
class GameRecord:
    """Moves, result and open questions of one game, rebuilt from its events."""

    board: chess.Board = field(default_factory=chess.Board)
    moves: list[MoveMade | MoveCorrected] = field(default_factory=list)
    result: Result = Result.ONGOING
    termination: str | None = None
    proposed_result: Result | None = None
    claims: tuple[Claim, ...] = ()
    illegal_moves: list[IllegalMoveCompleted] = field(default_factory=list)
    alerts: list[ArbiterAlert] = field(default_factory=list)
    restarts: int = 0
    #: Who set the result when an arbiter did; None for a result from the board.
    result_by: str | None = None
    #: The arbiter confirmed the current result (seed 004, ch. 17 item 14).
    verified: bool = False
    #: The player whose draw offer stands, if one does.
    draw_offer: str | None = None
    #: Which side of the e-clock White's is, as last decided (None: never recorded).
    clock_side: ClockSideDecided | None = None
    #: Both players' time, move by move and now (an unknown time control by default).
    clock: GameClock = field(default_factory=lambda: GameClock(TimeControl(known=False)))
    #: Notes keyed from the scoresheet, in the order made (game-input desk).
    notes: list[NoteAdded] = field(default_factory=list)
    #: The game-input desk's status: "to-key", "keyed" or "checked" (who did each below);
    #: any change to the moves makes it "to-key" again.
    input_status: str = "to-key"
    keyed_by: str | None = None
    checked_by: str | None = None

    @property
    def forfeit(self) -> bool:
        """The result was given by forfeit: the game was not played."""
        return self.termination == "forfeit"

    @classmethod
    def from_events(
        cls, events: Iterable[GameEvent], control: TimeControl | None = None
    ) -> GameRecord:
        record = cls() if control is None else cls(clock=GameClock(control))
        for event in events:
            record.apply(event)
        return record

    def apply(self, event: GameEvent) -> None:
        self.clock.apply(event)
        if isinstance(event, MoveMade):
            self._play(event, event.ply - 1)
        elif isinstance(event, MoveCorrected):
            self._take_back(event.ply - 1)
            self._play(event, event.ply - 1)
        elif isinstance(event, MoveClocked):
            self._clocked(event)
        elif isinstance(event, TakenBack):
            self._take_back(event.ply)
        elif isinstance(event, GameEnded):
            self.result = event.result
            self.termination = event.termination
        elif isinstance(event, NewGame):
            self._restart()
        elif isinstance(event, ResultProposed):
            self.proposed_result = event.result
        elif isinstance(event, ClaimsChanged):
            self.claims = event.claims
        elif isinstance(event, IllegalMoveCompleted):
            self.illegal_moves.append(event)
        elif isinstance(event, ArbiterAlert):
            self.alerts.append(event)
        elif isinstance(event, ResultSet):
            self.result = event.result
            self.termination = (
                None if not event.result.is_decided else "forfeit" if event.forfeit else "arbiter"
            )
            self.result_by = event.by
            self.verified = False
        elif isinstance(event, ResultVerified):
            if event.result != self.result:
                raise GameLogError(f"verified {event.result}, but the result is {self.result}")
            self.verified = True
        elif isinstance(event, MovesReplaced):
            self._replace(event)
        elif isinstance(event, DrawOffered):
            self._draw(event)
        elif isinstance(event, ClockSideDecided):
            self.clock_side = event  # the clock stays where it is for the next game too
        elif isinstance(event, NoteAdded):
            self.notes.append(event)
        elif isinstance(event, InputStatusSet):
            self._input_status(event)
        # Clock events live in self.clock; notices: nothing in the game depends on them.

    def _draw(self, event: DrawOffered) -> None:
        if event.action == "offer":
            self.draw_offer = event.player
        elif event.action == "accept":
            self.draw_offer = None
            self.proposed_result = Result.DRAW
        else:  # declined, or withdrawn
            self.draw_offer = None

    def _input_status(self, event: InputStatusSet) -> None:
        self.input_status = event.status
        if event.status == "keyed":
            self.keyed_by, self.checked_by = event.by, None
        elif event.status == "checked":
            self.checked_by = event.by

    def _moves_changed(self) -> None:
        """The keyed game is not the scoresheet's any more: it is to key (and check) again."""
        self.input_status, self.keyed_by, self.checked_by = "to-key", None, None

    def _play(self, event: MoveMade | MoveCorrected, after: int) -> None:
        if after != len(self.moves):
            raise GameLogError(f"move at ply {event.ply} follows ply {len(self.moves)}")
        try:
            move = self.board.parse_uci(event.uci)
        except ValueError as error:
            raise GameLogError(f"ply {event.ply}: {error}") from None
        self.board.push(move)
        self.moves.append(event)
        self.proposed_result = None
        self._moves_changed()
        mover = "white" if event.ply % 2 == 1 else "black"
        if self.draw_offer is not None and self.draw_offer != mover:
            self.draw_offer = None  # the opponent played on: the offer lapsed (9.1.2)

    def _clocked(self, event: MoveClocked) -> None:
        """The mover's press came after the move: the move carries that time from now on
        (a move no longer in the game is left as it is)."""
        if 1 <= event.ply <= len(self.moves):
            move = self.moves[event.ply - 1]
            self.moves[event.ply - 1] = replace(move, clock=event.clock, unclocked=False)

    def _take_back(self, ply: int) -> None:
        if not 0 <= ply <= len(self.moves):
            raise GameLogError(f"back to ply {ply} in a game of {len(self.moves)} plies")
        while len(self.moves) > ply:
            self.board.pop()
            self.moves.pop()
        self.claims = ()
        self._moves_changed()

    def _replace(self, event: MovesReplaced) -> None:
        self._take_back(event.ply - 1)
        for ply, uci in enumerate(event.uci, start=event.ply):
            try:
                move = self.board.parse_uci(uci)
            except ValueError as error:
                raise GameLogError(f"ply {ply}: {error}") from None
            san = self.board.san(move)
            self.board.push(move)
            self.moves.append(MoveMade(ply, uci, san, self.board.fen(), event.at))
        if self.result_by is None:
            # The board's result belonged to the moves that were replaced.
            self.result, self.termination = Result.ONGOING, None
        self.verified = False
        self.proposed_result = None

    def _restart(self) -> None:
        """The board was reset before the game had a result: it starts again."""
        if self.result.is_decided:
            return  # a finished game stays as it ended; the board moved on
        self.board = chess.Board()
        self.moves = []
        self.claims = ()
        self.proposed_result = None
        self.restarts += 1
        self.clock.reset()
        self._moves_changed()

    @property
    def to_move(self) -> str:
        """``"white"`` or ``"black"``."""
        return "white" if self.board.turn == chess.WHITE else "black"

    @property
    def last_move(self) -> MoveMade | MoveCorrected | None:
        return self.moves[-1] if self.moves else None
