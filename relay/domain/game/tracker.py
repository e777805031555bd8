"""From what a board and its clock show to the events of a game.

The board reports every change its sensors see: a lifted piece, a piece put down, a capture
in two or three steps, a piece knocked over, kings put on the centre to show a result. The
tracker keeps the game as it knows it and judges each placement the board holds still
(:mod:`relay.domain.game.settling` says how long, stage by stage):

* settle window: a legal move; the last move corrected (a sibling of it explains the board);
  the start position (a new game, either way round); a result gesture (never a move); a
  promotion to a piece the board cannot tell (a queen is assumed, the arbiter is told); a
  part of an expected position (pieces in a hand: :class:`Waiting`, nothing decided);
* recover window: an earlier position of the game (a takeback); two or three legal plies
  ahead (moves recovered); any number of plies the board was seen making one at a time
  (a host that read its reports late, all at once);
* alert window: nothing explains the board: the arbiter is alerted once, the game stays as
  it was, and the tracker recovers on its own when the board comes back to a legal
  continuation.

A press of the clock by the player to move decides as soon as the board has had time to
report the move (the press window): the move is complete, or, if nothing legal explains the
board, an illegal move was completed (7.5) and its penalty is proposed. Clock readings also
bring flag falls and time trouble.

The press belongs to the move it ends: a move's time (``%clk``) is its mover's time as the
clock showed it at their own press. A press that came before the move was decided (before
the board reported its last square, or with it) gives the move its time when it is decided;
a move decided first is published at once without a time (``unclocked``), and the mover's
first press after it, before the next move is decided, gives it its time in a
:class:`MoveClocked`. A move with no press of its own carries no time: never the last
reading before it, never a later press.

Time is passed in by the caller (seconds on any monotonic scale for settling, Unix seconds
for the event stamps); the tracker never reads a clock and does no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import chess

from relay.domain.game import laws
from relay.domain.game.events import (
    ArbiterAlert,
    BoardRotated,
    Claim,
    ClaimsChanged,
    FlagFell,
    GameEnded,
    GameEvent,
    IllegalMoveCompleted,
    MoveClocked,
    MoveCorrected,
    MoveMade,
    NewGame,
    ResultProposed,
    TakenBack,
    Waiting,
)
from relay.domain.game.fen import fen
from relay.domain.game.gestures import kings_gesture, last_move_then_kings, marker_gesture
from relay.domain.game.laws import Rules
from relay.domain.game.matching import (
    all_sequences,
    find_move,
    find_sibling,
    find_sibling_and_reply,
    moves_shown,
    within_a_move,
)
from relay.domain.game.placement import START, Placement
from relay.domain.game.settling import Settling, Windows
from relay.domain.game.tracker_state import ClockPresses, Pending, Stage
from relay.domain.results import Result

__all__ = ["ClockView", "PositionTracker"]

#: What a position since a press is explained by (a move, moves missed, ...).
_Found = TypeVar("_Found")

_LAST_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_CENTRE = chess.BB_D4 | chess.BB_E4 | chess.BB_D5 | chess.BB_E5

#: The most plies caught up at once: with a running clock counting the presses, and without.
_MOST_MISSED = 4
_MOST_MISSED_UNCOUNTED = 3


@dataclass(frozen=True, slots=True)
class ClockView:
    """What the game's clock shows, by colour (the caller knows who sits where)."""

    white_seconds: int
    black_seconds: int
    white_flag: bool
    black_flag: bool
    running: bool
    #: Whose side of the lever is up: the player to move as far as the clock knows.
    to_move: chess.Color

    def seconds(self, colour: chess.Color) -> int:
        return self.white_seconds if colour == chess.WHITE else self.black_seconds

    def flag(self, colour: chess.Color) -> bool:
        return self.white_flag if colour == chess.WHITE else self.black_flag


@dataclass(frozen=True, slots=True)
class _Promotion:
    """A promotion move whose new piece the board shows wrongly: ``shown`` is what stands
    on the promotion square (None if nothing)."""

    move: chess.Move
    shown: tuple[chess.Color, chess.PieceType] | None

    @property
    def pawn_left(self) -> bool:
        return (
            self.shown is not None
            and self.shown[1] == chess.PAWN
            and (self.shown[0] == (chess.square_rank(self.move.to_square) == 7))
        )

    @property
    def ambiguous(self) -> bool:
        return self.shown is not None and not self.pawn_left


def _sans(board: chess.Board, moves: Sequence[chess.Move]) -> list[str]:
    """``moves`` from ``board`` in SAN (the board is left as it was)."""
    sans = []
    for move in moves:
        sans.append(board.san(move))
        board.push(move)
    for _ in moves:
        board.pop()
    return sans


def _numbered(board: chess.Board, moves: Sequence[chess.Move]) -> str:
    """``moves`` from ``board`` as a scoresheet writes them: "9. e3 c6 10. h5"."""
    return board.variation_san(list(moves))


def _men_of(placements: Iterable[Placement]) -> tuple[int, ...]:
    """Per colour and kind of man, the squares any of ``placements`` has one on."""
    men = [0] * 12
    for placement in placements:
        kinds = (
            placement.pawns,
            placement.knights,
            placement.bishops,
            placement.rooks,
            placement.queens,
            placement.kings,
        )
        for index, kind in enumerate(kinds):
            men[index] |= kind & placement.white
            men[6 + index] |= kind & placement.black
    return tuple(men)


class PositionTracker:
    """Follows one game on one board."""

    def __init__(
        self,
        board: chess.Board | None = None,
        *,
        settling: Settling | None = None,
        settle_seconds: float | None = None,
        rules: Rules | None = None,
    ) -> None:
        if settle_seconds is not None:
            settling = Settling.settling_in(settle_seconds)
        self.settling = settling or Settling()
        self.rules = rules or Rules()
        self.rotated = False
        self._clock: ClockView | None = None
        self._pending = Pending()
        self._clock_presses = ClockPresses()
        # What the last decision left open: a press confirmed it, its promotion piece was
        # assumed, a result was proposed since (all forgotten by _forget_decision).
        self._confirmed = False
        self._assumed_promotion = False
        self._proposed: Result | None = None
        self._alerted = False
        self._claims: tuple[Claim, ...] = ()
        self._locked = False
        self._now = 0.0
        #: The time at its mover's press of each decided ply that has one; the ply still
        #: waiting for its mover's press (the last one, decided before it).
        self._times: dict[int, float] = {}
        self._unclocked: int | None = None
        self._reset(board.root() if board is not None else chess.Board())
        for move in board.move_stack if board is not None else ():
            self._push(move)
        self._result = self._ending_of_current()

    # Public state

    @property
    def finished(self) -> bool:
        return self._result is not None

    @property
    def ply(self) -> int:
        return len(self.board.move_stack)

    @property
    def last_move_pressed(self) -> bool:
        """Whether the last move's mover has pressed the clock since it was decided (or the
        press decided it)."""
        return bool(self.board.move_stack) and self._confirmed

    @property
    def illegal_moves(self) -> dict[chess.Color, int]:
        return dict(self._illegal_counts)

    @property
    def deadline(self) -> float | None:
        """When :meth:`settle` should next be called, or None if there is nothing to decide."""
        stage = self._stage_deadline()
        press = self._press_deadline()
        if press is None:
            return stage
        return press if stage is None else min(stage, press)

    def _press_deadline(self) -> float | None:
        """A press waits one settle window for the board to show the move it completes: a
        board reports what its sensors see on its next sweep, often after the press."""
        if self._clock_presses.press is None:
            return None
        return self._clock_presses.press + self.settling.press_window()

    def _stage_deadline(self) -> float | None:
        placement = self._pending.placement
        if placement is None:
            return None
        pending = self._pending
        windows = self._windows()
        if placement == self._placements[-1]:
            if pending.stage is not Stage.FRESH:
                return None
            if pending.markers and not self.finished:
                return pending.since + windows.settle
            return pending.since if self._alerted else None
        if self.finished:
            return pending.since + windows.settle if pending.stage is Stage.FRESH else None
        if pending.stage is Stage.FRESH:
            return pending.since + windows.settle
        if pending.stage is Stage.SETTLED:
            return pending.since + windows.recover
        if pending.stage is Stage.RECOVERED and not pending.waiting:
            return pending.since + windows.alert
        return None

    # Inputs

    def observe(
        self,
        placement: Placement,
        now: float,
        wall_time: float,
        markers: frozenset[Result] = frozenset(),
    ) -> list[GameEvent]:
        """Record what the board shows at monotonic time ``now``.

        The placement this one replaces is judged first, for every stage it stood still
        long enough, by the arrival times of the two: a busy host that comes late to its
        settle timer still sees every position the board held long enough.
        """
        if self.rotated:
            placement = placement.turned()
        if placement == self._pending.placement and markers == self._pending.markers:
            return []
        events = self.settle(now, wall_time)
        self._clock_presses.shown(placement, now)
        self._pending.shown(placement, markers, now)
        if self._clock_presses.owed == self.board.turn and not self.finished:
            # Its mover pressed before the board showed it: complete now.
            move = find_move(self.board, placement)
            if move is not None:
                events += self._play([move], wall_time, confirmed=True)
                self._clock_presses.may_sweep_late(until=now + self._windows().recover)
        return events

    def settle(self, now: float, wall_time: float) -> list[GameEvent]:
        """Judge the pending placement for every stage whose deadline has passed."""
        self._now = now
        events: list[GameEvent] = []
        while True:
            press = self._press_deadline()
            if press is not None and now >= press:
                events += self._judge_press(wall_time)
                continue
            stage = self._stage_deadline()
            if stage is None or now < stage:
                return events
            events += self._advance(wall_time)

    def clock(self, view: ClockView, now: float, wall_time: float) -> list[GameEvent]:
        """A clock reading: a changed lever is a press; a new flag is a flag fall."""
        previous = self._clock
        pressed = previous is not None and view.to_move != previous.to_move
        events = self.judge_waiting_press(now, wall_time) if pressed else []
        self._clock = view
        self._clock_presses.read(
            now, self._silence(), was_running=previous is None or previous.running
        )
        if pressed:
            events += self._press_time(not view.to_move, view, wall_time)
            self._clock_presses.count(view.to_move, self.board.turn)
            events += self._pressed(not view.to_move, now)
        fallen = [
            colour
            for colour in (chess.WHITE, chess.BLACK)
            if view.flag(colour) and (previous is None or not previous.flag(colour))
        ]
        if fallen and not self.finished:
            events += self._flags(fallen, wall_time)
        return events

    def sides_turned(self, view: ClockView) -> None:
        """The clock's sides were found the other way round: ``view`` is the last reading
        read the new way, the lever where it stood (not a press). Presses kept for moves
        not yet decided were read with the wrong colours and are dropped (those moves get
        no time rather than another player's); whether the last mover has handed over is
        read again from the lever."""
        self._clock = view
        self._clock_presses.sides_turned(
            handed_over=bool(self.board.move_stack) and view.to_move == self.board.turn
        )

    def judge_waiting_press(self, now: float, wall_time: float) -> list[GameEvent]:
        """The lever is about to change: a press still waiting to be judged is judged now.

        It is judged on what came before, by the clock as it stood, before the next press
        is counted (:meth:`clock` does this itself; a caller that reads evidence from the
        game at a press calls it first, so that the game it reads is up to date). A press
        judged before its window is over may come before the board's sweep shows its move
        at all (a press with the man still in the hand, lightning play): the move is then
        owed, complete as soon as the board shows it.
        """
        press = self._press_deadline()
        if press is None:
            return []
        self._now = now
        return self._judge_press(wall_time, early=now < press)

    def replay(self, placements: Sequence[Placement], wall_time: float) -> list[GameEvent]:
        """Placements the board logged while the link was down, oldest first.

        Each one that is one legal move on from the game is decided at once, unless the
        next one is a legal move from the same position too: then the piece was only passing
        through (a slide: Bf1-e2-d3-c4 is Bc4). The rest are skipped: the log holds every
        placement, so nothing there is two plies ahead, and a placement with a piece in the
        air (a captured man lifted first) can look like several plies that are not there.
        What the board shows now is judged afterwards as usual. If the log shows
        the current position, only what follows its last showing is considered, so a
        position from earlier in the game that happens to be legal again is not taken
        for a new move.
        """
        if self.rotated:
            placements = [placement.turned() for placement in placements]
        events: list[GameEvent] = []
        for move in moves_shown(self.board, placements):
            if self.finished:
                break
            events += self._play([move], wall_time)
        self._pending.clear()
        return events

    # Stages

    def _windows(self) -> Windows:
        clock = self._clock
        trouble = (
            clock is not None
            and clock.running
            and clock.seconds(self.board.turn) < self.settling.time_trouble_seconds
        )
        return self.settling.windows(trouble)

    def _advance(self, wall_time: float) -> list[GameEvent]:
        placement = self._pending.placement
        assert placement is not None
        stage = self._pending.advance()
        if placement == self._placements[-1]:
            self._pending.give_up()
            events = self._restored(wall_time)
            if self._pending.markers and not self.finished:
                events += self._gesture(placement, wall_time) or []
            return events
        if self.finished:
            return self._after_the_end(placement, wall_time)
        if stage is Stage.FRESH:
            return self._on_settled(placement, wall_time)
        if stage is Stage.SETTLED:
            return self._on_recover(placement, wall_time)
        return self._on_alert(placement, wall_time)

    def _on_settled(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        if not self.rules.moves_need_press:
            move = find_move(self.board, placement)
            if move is not None:
                return self._play([move], wall_time)
        start = self._start_events(placement, wall_time)
        if start:
            return start
        gesture = self._gesture(placement, wall_time)
        if gesture is not None:
            self._pending.give_up()
            return gesture
        if self._correctable() and not self.rules.moves_need_press:
            sibling = find_sibling(self.board, placement)
            if sibling is not None:
                return self._correct(sibling, wall_time)
        if self._counting_presses() and self._clock_presses.presses >= 2:
            # Still for a settle window after presses for moves not decided: the moves
            # the record missed are caught up now, every one of them pressed.
            moves = self._missed_moves(placement, every_ply_pressed=True)
            if moves:
                return self._play(moves, wall_time, recovered=True, confirmed=True)
        promotion = self._promotion(placement)
        if promotion is not None and promotion.ambiguous and not self.rules.moves_need_press:
            return self._promote(promotion, wall_time, confirmed=False)
        missing = self._missing(placement)
        if missing is not None:
            self._pending.wait_for_hands()
            names = tuple(chess.square_name(s) for s in chess.scan_forward(missing))
            return [Waiting(missing=names, at=wall_time)]
        return []

    def _correctable(self) -> bool:
        """Whether the last move may still be replaced by a sibling: no press confirmed it,
        its promotion piece was assumed, or the board may still be reporting it."""
        return not self._confirmed or self._assumed_promotion or self._late_report()

    def _late_report(self) -> bool:
        """Whether the board may still be reporting the move a press decided: it began to
        change within a recover window of the decision, and the opponent has not pressed
        since. A castling whose rook went first is decided as the rook's move when the
        king's sweep comes late (a slow sweep, a busy host); a player moving again on the
        opponent's time starts later.
        """
        return self._clock_presses.late_sweep and self._clock_presses.presses == 0

    def _on_recover(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        if self._pending.waiting:
            return []
        if not self.rules.moves_need_press:
            # A decided move whose man went on, answered before the board showed where:
            # first if the board was seen showing it, else after moves missed outright.
            replaced = find_sibling_and_reply(self.board, placement) if self._correctable() else []
            if replaced and self._sightings(replaced, set(self._pending.trail), replacing=True):
                return self._replace(replaced, wall_time)
            # Shuffling players repeat positions far more often than arbiters take back
            # moves: a placement two or three legal plies ahead is read as moves first.
            moves = self._missed_moves(placement)
            if moves:
                return self._play(moves, wall_time, recovered=True)
            seen = self._seen_moves(placement)
            if seen:
                return self._play(seen, wall_time, recovered=True)
            if replaced:
                return self._replace(replaced, wall_time)
        return self._takeback(placement, wall_time)

    def _replace(
        self, moves: list[chess.Move], wall_time: float, *, confirmed: bool = False
    ) -> list[GameEvent]:
        sibling, reply = moves
        return self._correct(sibling, wall_time) + self._play(
            [reply], wall_time, recovered=True, confirmed=confirmed
        )

    def _missed_moves(
        self, placement: Placement, *, every_ply_pressed: bool = False
    ) -> list[chess.Move]:
        """The shortest sequence of two to four plies reaching ``placement`` that the
        clock's presses account for (three plies at most without a running clock to count
        them); among transpositions, the one whose positions the board was seen passing
        through. ``every_ply_pressed``: the newest ply's mover has pressed too."""
        most = _MOST_MISSED if self._counting_presses() else _MOST_MISSED_UNCOUNTED
        for plies in range(2, most + 1):
            if not self._clock_allows(plies, every_ply_pressed=every_ply_pressed):
                return []
            sequences = all_sequences(self.board, placement, plies)
            if sequences:
                return self._best_orders(sequences)[0]
        return []

    def _best_orders(self, sequences: list[list[chess.Move]]) -> list[list[chess.Move]]:
        """The sequences the evidence supports best, the first of them the one recorded:
        the most positions on the way the board was seen showing, then the fewest men the
        board was seen showing on a square no position on the way has them on (a pawn seen
        on c4 is c2-c4, not c2-c3, whatever took it next)."""
        seen = set(self._pending.trail)
        shown = _men_of(seen)

        def evidence(moves: list[chess.Move]) -> tuple[int, int]:
            way = _men_of(self._positions_on_the_way(moves))
            unexplained = sum(
                (mine & ~theirs).bit_count() for mine, theirs in zip(shown, way, strict=True)
            )
            return self._sightings(moves, seen), -unexplained

        scored = [(evidence(moves), moves) for moves in sequences]
        best = max(score for score, _ in scored)
        return [moves for score, moves in scored if score == best]

    def _positions_on_the_way(self, moves: list[chess.Move]) -> list[Placement]:
        """The positions ``moves`` pass through, the start and the end included."""
        board = self.board
        positions = [Placement.of_board(board)]
        for move in moves:
            board.push(move)
            positions.append(Placement.of_board(board))
        for _ in moves:
            board.pop()
        return positions

    def _clock_allows(self, plies: int, *, every_ply_pressed: bool = False) -> bool:
        """Whether a running clock saw enough presses for ``plies`` missed moves.

        Every mover presses, the last one perhaps not yet. A knocked piece can make the
        board look like a move by the wrong side plus a piece's trip and return; the clock
        tells that apart, unless its readings have gone missing too.
        """
        if not self._counting_presses():
            return True
        return self._clock_presses.presses >= (plies if every_ply_pressed else plies - 1)

    def _counting_presses(self) -> bool:
        """Whether a running clock is counting the presses, its readings not gone missing."""
        running = self._clock is not None and self._clock.running
        return self._clock_presses.counting(running, self._now, self._silence())

    def _silence(self) -> float:
        return self.settling.clock_silence_seconds

    def _count_presses_from_here(self) -> None:
        """The game changed: presses seen so far belong to the moves decided."""
        to_move = None if self._clock is None else self._clock.to_move
        self._clock_presses.count_from_here(to_move, self.board.turn)

    def _sightings(
        self, moves: list[chess.Move], seen: set[Placement], *, replacing: bool = False
    ) -> int:
        """How many of the positions ``moves`` pass through the board was seen showing;
        ``replacing``: the first of them replaces the last move decided."""
        board = self.board
        last = board.pop() if replacing else None
        count = 0
        for move in moves[:-1]:
            board.push(move)
            count += Placement.of_board(board) in seen
        for _ in moves[:-1]:
            board.pop()
        if last is not None:
            board.push(last)
        return count

    def _on_alert(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        promotion = self._promotion(placement)
        if promotion is not None and promotion.pawn_left:
            square = chess.square_name(promotion.move.to_square)
            return [self._alert("pawn-on-last-rank", f"a pawn stands on {square}", wall_time)]
        events: list[GameEvent] = []
        pressed = self._clock_presses.take_pressed_on()
        if pressed is not None and within_a_move(self._placements[-1], placement):
            reason = "no legal move explains the board"
            events += self._illegal_move(pressed, reason, wall_time)
        if not self._alerted:
            self._alerted = True
            events.append(self._alert("illegal-position", self._difference(placement), wall_time))
        return events

    def _after_the_end(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        self._pending.give_up()
        return self._start_events(placement, wall_time)

    # Clock

    def _press_time(
        self, presser: chess.Color, view: ClockView, wall_time: float
    ) -> list[GameEvent]:
        """Whose move a press ends, for its time. The first press since the last decision
        by that move's mover is their press for it (the lever goes from side to side, so
        nothing else stopped their clock in between): a move still without a time gets it
        now, if the board still shows the game as decided (the opponent's first touch ends
        the wait: the lever may be ahead of the record then, this press ending a move the
        board shows but the record has not decided yet). Any other press may end a move not
        yet decided and is kept until one is. The first press seen after the clock's
        readings went missing ends no move: which one it ends is not known."""
        seconds = float(view.seconds(presser))
        if not self._clock_presses.sure():
            return []
        if self._clock_presses.handed_over or presser == self.board.turn:
            self._clock_presses.ended_a_move(presser, seconds)
            return []
        # The last mover handing over (before the first move: Black starting White's time).
        shown = self._pending.placement
        if self._unclocked != self.ply or shown not in (None, self._placements[-1]):
            return []
        self._unclocked = None
        self._times[self.ply] = seconds
        return [MoveClocked(ply=self.ply, clock=seconds, at=wall_time)]

    def _pressed(self, player: chess.Color, now: float) -> list[GameEvent]:
        if self.finished:
            return []
        placement = self._pending.placement
        decided = self._placements[-1]
        if player != self.board.turn:
            if placement in (None, decided):
                # The last mover pressed after their move was decided: it is complete.
                if self.board.move_stack:
                    self._confirmed = True
                return []
            if self._clock_presses.presses < 2:
                return []  # the last mover handing over, the board still settling
            # A press by the side the record does not have to move, the board elsewhere
            # and presses for moves not decided: the record has missed moves. The press is
            # judged as any other, so the record catches up now, not only when the board
            # stands still for the recover window (which play at a lightning pace never
            # gives it).
        self._clock_presses.pressed(player, now, placement)
        return []

    def _judge_press(self, wall_time: float, *, early: bool = False) -> list[GameEvent]:
        """The board had its chance to show the pressed move: judge what it shows.

        A legal continuation, a gesture or a promotion is decided now. Anything else may
        still be the hands' doing (a knocked piece put back, a board's late sweep): the
        stages go on, and if the board still shows no legal position at the alert stage,
        the press completed an illegal move.
        """
        self._clock_presses.judged()
        placement = self._pending.placement
        if placement == self._placements[-1]:
            player = self._clock_presses.presser
            if early and player == self.board.turn:
                self._clock_presses.owe(player)  # its move not swept yet
            else:
                self._clock_presses.ended_nothing()
        if self.finished or placement is None or placement == self._placements[-1]:
            return []
        player = self._clock_presses.presser
        # The presser's own move, as the newest position the board showed since the press
        # that a legal move explains: the board may already show the opponent's hand. Only
        # one ply: a knocked piece on a square it could move to can pass for a second one.
        found = self._newest_since_press(lambda shown: find_move(self.board, shown))
        if found is not None:
            shown, move = found
            events = self._play([move], wall_time, confirmed=True)
            if placement != shown:
                self._pending.judge_afresh()  # what the board shows now is judged afresh
                self._clock_presses.swept_late()
            else:
                self._clock_presses.may_sweep_late(until=self._now + self._windows().recover)
            return events
        gesture = self._gesture(placement, wall_time)
        if gesture is not None:
            self._pending.give_up()
            return gesture
        promotion = self._promotion(placement) if player == self.board.turn else None
        if promotion is not None:
            self._pending.give_up()
            events = self._promote(promotion, wall_time, confirmed=True)
            if promotion.pawn_left:
                events[:0] = self._illegal_move(player, "pawn not replaced (7.5.2)", wall_time)
            return events
        # Moves the record missed, each one pressed: caught up now, to the newest position
        # since the press that they explain (the next player's hand may be at work again).
        missed = self._newest_since_press(
            lambda shown: self._missed_moves(shown, every_ply_pressed=True) or None
        )
        if missed is not None:
            events = self._play(missed[1], wall_time, recovered=True, confirmed=True)
            if placement != missed[0]:
                self._pending.judge_afresh()
            return events
        # Moves the board was seen making one at a time, however many, to the newest
        # position since the press that they reach (a host that read the board late).
        seen = self._newest_since_press(self._seen_moves)
        if seen is not None:
            shown, moves = seen
            last_mover = self.board.turn if len(moves) % 2 else not self.board.turn
            events = self._play(moves, wall_time, recovered=True, confirmed=last_mover == player)
            if placement != shown:
                self._pending.judge_afresh()
            return events
        if player == self.board.turn:
            # The presser answered a move that the board then showed on another square (a
            # slide read at a stop, the opponent's sleeve knocking the man on before the
            # press was judged): a press-confirmed move is corrected only here, when
            # nothing else explains the board.
            replaced = self._newest_since_press(self._sibling_and_reply)
            if replaced is not None:
                events = self._replace(replaced[1], wall_time, confirmed=True)
                if placement != replaced[0]:
                    self._pending.judge_afresh()
                return events
        if player != self.board.turn or not within_a_move(self._placements[-1], placement):
            # Not the presser's move; or the board is further from the record than any one
            # move takes it, which is the record losing track, not an illegal move.
            return self._alert_after_presses(placement, wall_time)
        if (
            self._pending.stage == Stage.DONE
        ):  # the board was alerted on already: the press completes it
            return self._illegal_move(player, "no legal move explains the board", wall_time)
        self._clock_presses.unexplained(player)
        if self._missing(placement) is not None:
            self._clock_presses.owe(player)  # a man still in the hand, or not swept yet
        return self._alert_after_presses(placement, wall_time)

    def _newest_since_press(
        self, explain: Callable[[Placement], _Found | None]
    ) -> tuple[Placement, _Found] | None:
        """The newest position the board showed since the press that ``explain`` explains,
        with its explanation (each position tried once)."""
        tried: set[Placement] = set()
        for shown in reversed(self._clock_presses.since_press):
            if shown in tried:
                continue
            tried.add(shown)
            found = explain(shown)
            if found is not None:
                return shown, found
        return None

    def _seen_moves(self, shown: Placement) -> list[chess.Move] | None:
        """The moves the board was seen making one at a time since the game last changed, up
        to its last showing of ``shown``, if they lead there (:func:`moves_shown`).

        However many there are, the board showed every position on the way whole and in
        order: a host starved for a moment reads its reports late and all at once, with no
        stillness to judge them by and perhaps a press it could not count, and is still
        told every move. Under the "clock move" rule each of them must have been pressed.
        """
        trail = self._pending.trail
        if shown not in trail:
            return None
        end = max(index for index, placement in enumerate(trail) if placement == shown)
        moves = moves_shown(self.board, trail[: end + 1])
        if not moves:
            return None
        if self._positions_on_the_way(moves)[-1] != shown:
            return None
        if self.rules.moves_need_press and not self._clock_allows(
            len(moves), every_ply_pressed=True
        ):
            return None
        return moves

    def _sibling_and_reply(self, shown: Placement) -> list[chess.Move] | None:
        """The last move replaced by its man's move to another square, and the reply, giving
        ``shown``; never a reply that takes that man (it would explain a man in the air)."""
        replaced = find_sibling_and_reply(self.board, shown)
        if replaced and replaced[1].to_square != replaced[0].to_square:
            return replaced
        return None

    def _alert_after_presses(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        """Two presses judged and neither decided anything: the arbiter is told now, without
        waiting for the alert window of stillness that fast play never leaves."""
        if self._clock_presses.decided_nothing() < 2 or self._alerted:
            return []
        self._alerted = True
        return [self._alert("illegal-position", self._difference(placement), wall_time)]

    def _illegal_move(self, player: chess.Color, reason: str, wall_time: float) -> list[GameEvent]:
        self._illegal_counts[player] += 1
        count = self._illegal_counts[player]
        penalty, seconds = laws.illegal_move_penalty(self.rules, count)
        return [
            IllegalMoveCompleted(
                player=chess.COLOR_NAMES[player],
                count=count,
                penalty=penalty,
                seconds=seconds,
                reason=reason,
                at=wall_time,
            )
        ]

    def _flags(self, fallen: list[chess.Color], wall_time: float) -> list[GameEvent]:
        if len(fallen) == 2:
            if self.rules.both_flags == laws.BothFlagsRule.DRAW:
                return self._end(Result.DRAW, "both flags fallen", wall_time)
            return [self._alert("both-flags", "both flags fell at once", wall_time)]
        result, termination = laws.flag_result(self.board, fallen[0])
        name = chess.COLOR_NAMES[fallen[0]]
        flag: list[GameEvent] = [FlagFell(name, wall_time)]
        return flag + self._end(result, f"{termination} ({name})", wall_time)

    # Explanations

    def _start_events(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        if placement == START and self.ply > 0:
            rotated = self.rotated
        elif placement == START.turned():
            rotated = not self.rotated
        else:
            return []
        events: list[GameEvent] = []
        if rotated != self.rotated:
            self.rotated = rotated
            events.append(BoardRotated(rotated=rotated, at=wall_time))
        events.append(NewGame(rotated=rotated, at=wall_time))
        self._reset(chess.Board())
        self._pending.settled_on(START)
        return events

    def _gesture(self, placement: Placement, wall_time: float) -> list[GameEvent] | None:
        decided = self._placements[-1]
        result = marker_gesture(self._pending.markers, placement, decided)
        gesture = "marker"
        if result is None:
            gesture = "kings"
            result = kings_gesture(placement, decided)
        events: list[GameEvent] = []
        if self._spurious_king_move():
            # One king went to the centre first and stood long enough to pass for a move.
            before = kings_gesture(placement, self._placements[-2])
            if before is not None:
                result = before
                events += self._take_back_to(self.ply - 1, wall_time)
        if result is None and not events and self._may_play_late_move():
            late = last_move_then_kings(self.board, placement)
            if late is not None:
                move, result = late
                events += self._play([move], wall_time, confirmed=self._lever_moved())
                if self.finished:
                    return events
        if result is None:
            return None
        if result != self._proposed:
            self._proposed = result
            events.append(ResultProposed(result=result, gesture=gesture, at=wall_time))
        return events

    def _spurious_king_move(self) -> bool:
        if not self.board.move_stack or self._confirmed or self._handed_over():
            return False
        last = self.board.peek()
        return bool(self.board.kings & chess.BB_SQUARES[last.to_square] & _CENTRE)

    def _may_play_late_move(self) -> bool:
        """Whether a move the board shows only with the kings' gesture may be decided:
        always, unless the rules want a press for every move and the mover has not
        pressed."""
        return not self.rules.moves_need_press or self._lever_moved()

    def _lever_moved(self) -> bool:
        """Whether the side to move pressed the clock: the lever gives its opponent the
        move."""
        clock = self._clock
        return clock is not None and clock.to_move != self.board.turn

    def _handed_over(self) -> bool:
        """Whether the clock's lever has the side to move to move: the last mover pressed
        after the last move, even if the press came while a hand was still on the board
        and so confirmed nothing. Running or not: at the end of a game the clock is often
        stopped before the kings show the result."""
        clock = self._clock
        return clock is not None and clock.to_move == self.board.turn

    def _takeback(self, placement: Placement, wall_time: float) -> list[GameEvent]:
        earlier = self._placements[:-1]
        if placement not in earlier:
            return []
        ply = len(earlier) - 1 - earlier[::-1].index(placement)
        return self._take_back_to(ply, wall_time)

    def _take_back_to(self, ply: int, wall_time: float) -> list[GameEvent]:
        while self.ply > ply:
            self._pop()
        # Back to an earlier position: no press confirms it, no result is proposed; a
        # press waiting to be judged still is.
        self._confirmed = False
        self._proposed = None
        events: list[GameEvent] = [TakenBack(ply=ply, fen=fen(self.board), at=wall_time)]
        return events + self._restored(wall_time) + self._judge(wall_time)

    def _promotion(self, placement: Placement) -> _Promotion | None:
        board = self.board
        seventh = chess.BB_RANK_7 if board.turn == chess.WHITE else chess.BB_RANK_2
        pawns = board.pawns & board.occupied_co[board.turn] & seventh
        if not pawns:
            return None
        for move in board.generate_legal_moves(from_mask=pawns):
            if move.promotion != chess.QUEEN:
                continue
            board.push(move)
            expected = Placement.of_board(board)
            board.pop()
            if expected.changed_squares(placement) == chess.BB_SQUARES[move.to_square]:
                return _Promotion(move, placement.piece_at(move.to_square))
        return None

    def _missing(self, placement: Placement) -> int | None:
        """The squares still empty if the board shows part of the game's position or of a
        position one legal move on; None if it shows neither."""
        decided = self._placements[-1]
        if placement.is_part_of(decided):
            return decided.occupied & ~placement.occupied
        board = self.board
        for move in board.generate_legal_moves():
            board.push(move)
            after = Placement.of_board(board)
            board.pop()
            if placement.is_part_of(after):
                return after.occupied & ~placement.occupied
        return None

    def _difference(self, placement: Placement) -> str:
        decided = self._placements[-1]
        squares = chess.SquareSet(decided.changed_squares(placement))
        if not self.board.move_stack and self.board.board_fen() == chess.STARTING_BOARD_FEN:
            # A game not begun: the board still shows the last round's game, or is half set.
            shown = [chess.square_name(square) for square in squares]
            names = " ".join(shown[:8]) + (" …" if len(shown) > 8 else "")
            count = "1 square differs" if len(shown) == 1 else f"{len(shown)} squares differ"
            return f"the board is not set up in the start position: {count} ({names})"
        names = " ".join(chess.square_name(square) for square in squares)
        return f"board {placement.board_fen()} differs from the game on {names}"

    # Changing the game

    def _play(
        self,
        moves: Sequence[chess.Move],
        wall_time: float,
        *,
        recovered: bool = False,
        confirmed: bool = False,
    ) -> list[GameEvent]:
        events: list[GameEvent] = []
        board = self.board
        uncertain = self._uncertain_order(moves, wall_time) if recovered else []
        movers = [board.turn if index % 2 == 0 else not board.turn for index in range(len(moves))]
        times = self._clock_presses.times_of(movers)
        to_move = board.turn if len(moves) % 2 == 0 else not board.turn
        left_over = self._clock_presses.left_over(sum(time is not None for time in times), to_move)
        for move, clock in zip(moves, times, strict=True):
            san = board.san(move)
            self._push(move)
            unclocked = clock is None and self._clock is not None
            if clock is not None:
                self._times[self.ply] = clock
            events.append(
                MoveMade(
                    ply=self.ply,
                    uci=move.uci(),
                    san=san,
                    fen=fen(board),
                    at=wall_time,
                    recovered=recovered,
                    confirmed=confirmed,
                    clock=clock,
                    unclocked=unclocked,
                )
            )
        # Only the last move may still get its mover's press.
        if times:
            self._unclocked = self.ply if times[-1] is None and self._clock is not None else None
        self._forget_decision(confirmed=confirmed)
        if all(time is not None for time in times):
            self._clock_presses.carry(left_over)
        return events + uncertain + self._restored(wall_time) + self._judge(wall_time)

    def _uncertain_order(self, moves: Sequence[chess.Move], wall_time: float) -> list[GameEvent]:
        """Moves caught up together (the board not seen making them): if other orders of as
        many legal moves reach the same position and the evidence supports them as well,
        the arbiter is told which plies and which other orders, to correct in one step."""
        if len(moves) < 2:
            return []
        board = self.board
        reached = self._positions_on_the_way(list(moves))[-1]
        best = self._best_orders(all_sequences(board, reached, len(moves)))
        others = [order for order in best if order != list(moves)]
        if not others:
            return []
        first = self.ply + 1
        recorded, *alternatives = (_numbered(board, order) for order in [list(moves), *others])
        detail = (
            f"plies {first}-{first + len(moves) - 1} were not seen played and are recorded as "
            f"{recorded}; the board fits " + " or ".join(alternatives) + " as well"
        )
        orders = tuple(tuple(_sans(board, order)) for order in others)
        return [ArbiterAlert("uncertain-order", detail, first, wall_time, orders)]

    def _correct(self, move: chess.Move, wall_time: float) -> list[GameEvent]:
        # The last move replaced: a press that confirmed it and the trail still hold; only
        # the guesses about the replaced move go.
        self._assumed_promotion = False
        self._clock_presses.no_late_sweep()
        # The press belongs to the move, whichever square its man ended on: the corrected
        # move keeps the replaced one's time, or waits for its press as that one did.
        clock = self._times.get(self.ply)
        waiting = self._unclocked == self.ply
        replaced = self._pop()
        san = self.board.san(move)
        self._push(move)
        if clock is not None:
            self._times[self.ply] = clock
        if waiting:
            self._unclocked = self.ply
        event = MoveCorrected(
            ply=self.ply,
            uci=move.uci(),
            san=san,
            fen=fen(self.board),
            replaced=replaced.uci(),
            at=wall_time,
            clock=clock,
            unclocked=clock is None and self._clock is not None,
        )
        return [event, *self._restored(wall_time), *self._judge(wall_time)]

    def _promote(
        self, promotion: _Promotion, wall_time: float, *, confirmed: bool
    ) -> list[GameEvent]:
        square = chess.square_name(promotion.move.to_square)
        if promotion.shown is None:
            detail = f"nothing seen on {square}: a queen is assumed"
        else:
            colour, piece_type = promotion.shown
            piece = chess.Piece(piece_type, colour)
            detail = (
                f"{chess.COLOR_NAMES[colour]} {chess.piece_name(piece_type)} ({piece.symbol()})"
            )
            detail += f" on {square}: a queen is assumed"
        alert = self._alert("promotion-assumed", detail, wall_time)
        events = [alert, *self._play([promotion.move], wall_time, confirmed=confirmed)]
        self._assumed_promotion = True  # the piece, once seen, may still correct it
        return events

    def _end(self, result: Result, termination: str, wall_time: float) -> list[GameEvent]:
        self._result = result
        return [GameEnded(result=result, termination=termination, at=wall_time)]

    def _judge(self, wall_time: float) -> list[GameEvent]:
        """Apply the laws to the position just reached."""
        ending = laws.ending(self.board, self._repetitions, wall_time)
        if ending is not None:
            self._result = ending.result
            return [ending]
        events: list[GameEvent] = []
        claims = laws.claims(self.board, self._repetitions)
        if claims != self._claims:
            self._claims = claims
            events.append(ClaimsChanged(ply=self.ply, claims=claims, at=wall_time))
        locked = laws.locked_position(self.board)
        if locked and not self._locked:
            detail = "pawns locked, no king can break in: a dead position (5.2.2)?"
            events.append(self._alert("dead-position", detail, wall_time))
        self._locked = locked
        return events

    def _restored(self, wall_time: float) -> list[GameEvent]:
        if not self._alerted:
            return []
        self._alerted = False
        return [self._alert("position-restored", "the board shows the game again", wall_time)]

    def _alert(self, alert: str, detail: str, wall_time: float) -> ArbiterAlert:
        return ArbiterAlert(alert=alert, detail=detail, ply=self.ply, at=wall_time)

    def _ending_of_current(self) -> Result | None:
        if not self.board.move_stack:
            return None
        ending = laws.ending(self.board, self._repetitions, 0.0)
        return ending.result if ending is not None else None

    # Bookkeeping

    def _reset(self, board: chess.Board) -> None:
        self.board = board
        self._placements = [Placement.of_board(board)]
        self._repetitions = laws.Repetitions(board)
        self._result = None
        self._alerted = False
        self._forget_decision()
        self._claims = ()
        self._locked = False
        self._illegal_counts = {chess.WHITE: 0, chess.BLACK: 0}
        self._times = {}
        self._unclocked = None
        self._count_presses_from_here()

    def _forget_decision(self, *, confirmed: bool = False) -> None:
        """The one place where the game's change lets go of what the last decision left
        open: a press waiting, a late sweep, a proposed result, an assumed promotion, the
        trail of placements. ``confirmed``: a press completed the move just decided."""
        self._confirmed = confirmed
        self._assumed_promotion = False
        self._proposed = None
        self._clock_presses.forget()
        self._pending.forget()

    def _push(self, move: chess.Move) -> None:
        self.board.push(move)
        self._placements.append(Placement.of_board(self.board))
        self._repetitions.push(self.board)
        self._count_presses_from_here()

    def _pop(self) -> chess.Move:
        self._times.pop(self.ply, None)
        if self._unclocked == self.ply:
            self._unclocked = None
        self._repetitions.pop()
        self._placements.pop()
        move = self.board.pop()
        self._count_presses_from_here()
        return move
