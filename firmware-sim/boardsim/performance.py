"""A whole game as the board experiences it: a timed list of hand actions, sans I/O.

:func:`perform_game` turns the moves of a game into :class:`Step` s — wait ``delay`` seconds,
then put a piece on a square (:class:`Place`, DGT index and code) or press the clock
(:class:`PressLever`). It reads no clock and touches no board, so the same steps can be played
on a board in fake time (:func:`perform_on`, for tests) or in real time by
:func:`boardsim.player.play_game`.

The order of events in a game:

1. set-up: squares that do not hold what the start position needs are emptied, then filled
   (on a board set up the wrong way round, the target is the rotated start position, and
   every later index is mirrored too);
2. the clock is started by Black pressing their side (with ``press_clock``, unless
   ``start_clock`` is False: then the host starts it with a SETNRUN, the arbiter's central
   start, and nobody presses before White's first move);
3. per ply: thinking time, then the move's touches (:mod:`boardsim.hands`), with an
   adjusted piece before or after, or a knocked-over piece put back after, as the noise
   model draws (the first touch never sooner than the pace's reaction time after the last
   ply's last touch); then the mover presses their side of the clock: one pause between touches
   after the last touch, or, as the noise model draws, when the pace's players press
   (:mod:`boardsim.presses`: after a look, after writing the move down, seconds late when
   forgotten, or at once, before the board's sweep has seen the last square);
4. a result gesture, if the noise model draws one and the result is decisive or drawn:
   white win — kings on the light centre squares (white d5, black e4); black win — on the
   dark ones (white d4, black e5); draw — white e4, black e5; or a marker piece (13 draw,
   14 white wins, 15 black wins) on the first empty centre square.

The pace (:mod:`boardsim.pace`) may change within a game: a scramble plays the last plies
faster, and a player on a budget thinks less as their time runs low; the player's time
spent (thinking, touches, press) is counted from the steps themselves.

Clock sides: White sits at ``white_side`` of the clock (left by default). Over a room of
boards, :class:`ClockSide` says where: every White on the left, every White on the right,
or ``mixed``: White on the left on odd boards (1, 3, ...) and on the right on even ones.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

import chess

from boardsim.board import VirtualBoard
from boardsim.clock import Side
from boardsim.hands import Touch, touches_for_move
from boardsim.noise import NoiseModel, chance
from boardsim.pace import Pace
from boardsim.pieces import (
    BLACK_WINS_MARKER,
    DRAW_MARKER,
    START_POSITION,
    WHITE_WINS_MARKER,
    dgt_index,
    piece_code,
    rotated,
)

#: Pause factors for the untidy habits, in "between touches" intervals.
_ADJUST_PAUSE = 0.5
_KNOCK_PAUSE = 0.2
_PICK_UP_PAUSE = 2.0

#: Where the kings go to show a result, as (white king, black king).
KING_GESTURES = {
    "1-0": (chess.D5, chess.E4),
    "0-1": (chess.D4, chess.E5),
    "1/2-1/2": (chess.E4, chess.E5),
}
MARKERS = {"1-0": WHITE_WINS_MARKER, "0-1": BLACK_WINS_MARKER, "1/2-1/2": DRAW_MARKER}
_CENTRE = (chess.D4, chess.E4, chess.D5, chess.E5)


class ClockSide(Enum):
    """Where White's time is on the clocks of a room of boards (``--clock-side``)."""

    LEFT = "left"
    RIGHT = "right"
    #: White on the left on odd boards, on the right on even boards.
    MIXED = "mixed"

    def white_side(self, board: int) -> Side:
        """White's side of the clock on board ``board`` (numbered from 1)."""
        if self is ClockSide.MIXED:
            return Side.LEFT if board % 2 else Side.RIGHT
        return Side(self.value)


@dataclass(frozen=True, slots=True)
class Place:
    """``piece`` (a DGT code, 0 to lift) on square ``index`` (a DGT index, as the board
    sees it: already mirrored on a rotated board)."""

    index: int
    piece: int


@dataclass(frozen=True, slots=True)
class PressLever:
    side: Side


Action = Place | PressLever


@dataclass(frozen=True, slots=True)
class Step:
    """Wait ``delay`` seconds, then do ``action``; ``note`` says why, for logs."""

    delay: float
    action: Action
    note: str = ""
    #: The untidy habit behind this step ("" for none), for noise statistics.
    habit: str = field(default="", compare=False)
    #: The ply this step belongs to (1 = White's first move; 0 for set-up and gestures).
    ply: int = field(default=0, compare=False)


def perform_game(
    moves: Sequence[chess.Move],
    *,
    pace: Pace,
    rng: random.Random,
    noise: NoiseModel | None = None,
    initial: Sequence[int] = START_POSITION,
    result: str | None = None,
    white_side: Side = Side.LEFT,
    press_clock: bool = True,
    start_clock: bool = True,
    rotated_board: bool | None = None,
) -> Iterator[Step]:
    """The steps of a game from ``initial`` (the board's physical squares now).

    ``rotated_board`` forces the board the wrong way round (True) or not (False); None
    leaves it to the noise model.
    """
    noise = noise or NoiseModel.clean()
    turned = chance(rng, noise.rotated) if rotated_board is None else rotated_board
    target = rotated(START_POSITION) if turned else START_POSITION

    def index(square: chess.Square) -> int:
        return 63 - dgt_index(square) if turned else dgt_index(square)

    def place(touch: Touch) -> Place:
        return Place(index(touch.square), touch.dgt_code)

    for step in _set_up(initial, target, pace, rng):
        yield replace(step, habit="rotated") if turned else step
    if press_clock and start_clock:
        yield Step(pace.between_touches(rng), PressLever(white_side.other), "clock started")
    board = chess.Board()
    plies = len(moves)
    # Each player's time on the clock so far: from the opponent's press to their own.
    used = {chess.WHITE: 0.0, chess.BLACK: 0.0}
    landed = 0.0  # since the last ply's last touch (a press may have come since)
    for ply, move in enumerate(moves, start=1):
        mover = board.turn
        mover_side = white_side if mover == chess.WHITE else white_side.other
        here = pace.at_ply(ply, plies)
        note = board.san(move)
        touches = _with_habits(board, move, rng, noise)
        human = press_clock and chance(rng, noise.human_presses)
        handling = here.touch_seconds * sum(touch.pause for touch in touches[1:])
        if press_clock:
            handling += here.presses.mean_seconds if human else here.touch_seconds
        press_after, why = here.presses.draw(rng) if human else (0.0, "")
        for number, touch in enumerate(touches):
            if number == 0:
                delay = pace.think_for(
                    rng, ply=ply, plies=plies, used=used[mover], handling=handling
                )
                delay = max(delay, here.reaction_seconds - landed)  # the move seen to land
            else:
                delay = here.between_touches(rng) * touch.pause
            used[mover] += delay
            yield Step(delay, place(touch), note, touch.habit, ply)
        board.push(move)
        landed = 0.0
        if press_clock:
            delay = press_after if human else here.between_touches(rng)
            used[mover] += delay
            landed = delay
            yield Step(delay, PressLever(mover_side), note, why, ply)
    if result in KING_GESTURES and chance(rng, noise.result_gesture):
        markers = chance(rng, noise.result_markers)
        gesture = _markers(board, result) if markers else _kings(board, result)
        for number, (square, code) in enumerate(gesture):
            delay = pace.think(rng) if number == 0 else pace.between_touches(rng)
            habit = "result-markers" if markers else "result-kings"
            yield Step(delay, Place(index(square), code), f"result {result}", habit)


def perform_on(board: VirtualBoard, steps: Iterable[Step], *, start: float | None = None) -> float:
    """Play ``steps`` on ``board`` in fake time from ``start``; returns the time at the end."""
    now = board.now if start is None else start
    for step in steps:
        now += step.delay
        apply_step(board, step, now)
    return now


def apply_step(board: VirtualBoard, step: Step, now: float) -> None:
    action = step.action
    if isinstance(action, Place):
        board.set_square(action.index, action.piece, now)
    else:
        board.press_lever(action.side, now)


def _set_up(
    initial: Sequence[int], target: Sequence[int], pace: Pace, rng: random.Random
) -> Iterator[Step]:
    wrong = [i for i in range(64) if initial[i] and initial[i] != target[i]]
    missing = [i for i in range(64) if target[i] and initial[i] != target[i]]
    for i in wrong:
        yield Step(pace.between_touches(rng), Place(i, 0), "set-up")
    for i in missing:
        yield Step(pace.between_touches(rng), Place(i, target[i]), "set-up")


def _with_habits(
    board: chess.Board, move: chess.Move, rng: random.Random, noise: NoiseModel
) -> list[Touch]:
    """The move's touches with an adjusted or knocked-over piece woven in."""
    touches = touches_for_move(board, move, rng, noise)
    bystanders = _bystanders(board, touches)
    if bystanders and chance(rng, noise.adjust):
        if rng.random() < 0.5:
            square = rng.choice(bystanders)
            piece = board.piece_at(square)
            touches = [
                Touch(square, None, habit="adjust"),
                Touch(square, piece, _ADJUST_PAUSE, "adjust"),
                *touches,
            ]
        else:  # the piece just moved is centred on its square
            last = [touch for touch in touches if touch.piece is not None][-1]
            touches += [
                Touch(last.square, None, habit="adjust"),
                Touch(last.square, last.piece, _ADJUST_PAUSE, "adjust"),
            ]
    bystanders = _bystanders(board, touches)
    if bystanders and chance(rng, noise.knock):
        touches = _knock(board, touches, bystanders, rng, noise)
    return touches


def _bystanders(board: chess.Board, touches: list[Touch]) -> list[chess.Square]:
    """Occupied squares the hands have not touched."""
    involved = {touch.square for touch in touches}
    return [square for square in chess.SquareSet(board.occupied) if square not in involved]


def _knock(
    board: chess.Board,
    touches: list[Touch],
    bystanders: list[chess.Square],
    rng: random.Random,
    noise: NoiseModel,
) -> list[Touch]:
    involved = {touch.square for touch in touches}
    victim = rng.choice(bystanders)
    piece = board.piece_at(victim)
    fallen = [Touch(victim, None, _KNOCK_PAUSE, "knock")]
    restore = [Touch(victim, piece, _PICK_UP_PAUSE, "knock")]
    landings = [
        s
        for s in chess.SquareSet(chess.BB_KING_ATTACKS[victim])
        if board.piece_at(s) is None and s not in involved
    ]
    if landings and chance(rng, noise.knock_lands_nearby):
        landing = rng.choice(sorted(landings))
        fallen.append(Touch(landing, piece, _KNOCK_PAUSE, "knock-lands-nearby"))
        restore.insert(0, Touch(landing, None, _PICK_UP_PAUSE, "knock-lands-nearby"))
    return [touches[0], *fallen, *touches[1:], *restore]


def _kings(board: chess.Board, result: str) -> list[tuple[chess.Square, int]]:
    """Both kings lifted, the centre squares they go to cleared, the kings put down."""
    white_to, black_to = KING_GESTURES[result]
    kings = [(board.king(chess.WHITE), white_to), (board.king(chess.BLACK), black_to)]
    shown = chess.BaseBoard(board.board_fen())
    hands: list[tuple[chess.Square, int]] = []
    carried: list[tuple[int, chess.Square]] = []
    for origin, destination in kings:
        if origin is None:
            continue
        hands.append((origin, 0))
        carried.append((piece_code(shown.remove_piece_at(origin)), destination))
    for _, destination in carried:
        if shown.remove_piece_at(destination) is not None:
            hands.append((destination, 0))
    hands += [(destination, code) for code, destination in carried]
    return hands


def _markers(board: chess.Board, result: str) -> list[tuple[chess.Square, int]]:
    """The result's marker piece on the first empty centre square (or any empty one)."""
    empty = [s for s in _CENTRE if board.piece_at(s) is None]
    empty += [s for s in chess.SQUARES if board.piece_at(s) is None and s not in _CENTRE]
    return [(empty[0], MARKERS[result])]
