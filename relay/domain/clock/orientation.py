"""Which side of the clock White sits on: set for the board, or decided from the clock.

A DGT clock names its two sides left and right, as seen facing its display. The arbiter
decides where the clock stands (6.5), and rows of boards are often mirrored, so every
electronic board has a clock setting (:data:`ClockSide`):

* ``white-left`` or ``white-right``: fixed, never revised by what the clock shows;
* ``auto``: decided from evidence; until the first evidence White is taken to sit on the
  left, as on most boards.

Evidence comes from one observation at a time; the caller knows the game and the clock:

* a **press** (strong): the player of colour C pressed the lever on side X, so C sits on X.
  Who pressed is read from the game and what the board showed (:func:`press_of`): before
  the first move, Black starting White's clock; the player to move when the board shows
  their move; the last mover when it shows the game as decided and they have not pressed
  since their move was decided, or before the first move a clock not yet running (at
  lightning pace the next player's press often comes before the board's sweep shows their
  move). Put the other way: after a
  move by C is pressed, the side whose lever is up, the running side, belongs to not-C.
* a **start**: the clock runs with side X's lever up, its lever not moved since it started,
  the game without a move and the board showing that nobody can have pressed for a move
  yet (its start, perhaps with a man lifted by a player adjusting it, or White's first move
  not yet pressed), and the hub never set the clock: someone started White's clock by hand
  (Black's press, the arbiter's start button), so White sits on X. Strong when the start
  was seen (the clock was read stopped first); weak when the clock already ran when first
  read, as White may have pressed before that reading (then a board showing White's first
  move says nothing).
* a **run** (weak): the hub itself started side X (a central start, a resume) and a move by
  C was made while X ran, with no press in between: C sits on X. Weak, because the hub
  chose X on its own reading of the sides, and players move whichever clock runs.

The first evidence decides. A decision from a run or an unseen start gives way to the first
press that says otherwise; a decision from presses or a seen start is revised only by two
presses in a row that contradict it (one misread press, or a player pressing without
moving, changes nothing).
Each new or revised decision is a :class:`Decision`, for the game's log, with its reason in
words.

Pure: the game is passed in; nothing here reads a clock or keeps time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

import chess

from relay.domain.game.events import ClockSideDecided
from relay.domain.game.matching import all_sequences, find_move
from relay.domain.game.placement import Placement

__all__ = [
    "CLOCK_SIDES",
    "ClockSide",
    "Decision",
    "Evidence",
    "Orientation",
    "Press",
    "Side",
    "Source",
    "before_first_press",
    "clock_setting",
    "fixed_side",
    "mover_side",
    "other_side",
    "press_of",
    "pressed",
    "ran",
    "started",
]

#: An electronic board's clock setting.
ClockSide = Literal["auto", "white-left", "white-right"]
CLOCK_SIDES: tuple[ClockSide, ...] = get_args(ClockSide)
#: A side of the clock, as seen facing its display.
Side = Literal["left", "right"]
#: Where a decision came from: the board's setting, or the evidence (``auto``).
Source = Literal["setting", "auto"]

#: Presses in a row against a decision taken from presses before it is revised.
REVISE_AFTER = 2


def clock_setting(text: str) -> ClockSide:
    """A clock setting as written (event file, API, database); ValueError if it is none."""
    for setting in CLOCK_SIDES:
        if text == setting:
            return setting
    raise ValueError(f"clock {text!r} is not one of {', '.join(CLOCK_SIDES)}")


def other_side(side: Side) -> Side:
    return "right" if side == "left" else "left"


def fixed_side(setting: ClockSide) -> Side | None:
    """White's side under a fixed setting; None for ``auto``."""
    if setting == "white-left":
        return "left"
    if setting == "white-right":
        return "right"
    return None


def _colour(colour: chess.Color) -> str:
    return "White" if colour == chess.WHITE else "Black"


@dataclass(frozen=True, slots=True)
class Press:
    """Who pressed the clock, and the ply of the move the press completes (0: Black
    starting White's clock before the first move)."""

    player: chess.Color
    ply: int


def press_of(
    board: chess.Board, shown: Placement | None, *, handed_over: bool = False, plies: int = 1
) -> Press | None:
    """Who pressed the clock, from the game as decided (``board``, from its start) and what
    the board showed at the press (in White's view); None when that does not tell.

    The board showing the game as decided: the last mover completing their move, or before
    the first move, Black starting White's clock; unless that was done already
    (``handed_over``: the last mover has pressed since their move was decided, or before
    the first move, the clock was running): then it is the next player pressing before the
    board's sweep showed their move (lightning play), or a second press, and it tells
    nothing. The board showing one legal move more: the player to move completing it; with
    ``plies`` 2, two legal moves more: the second one's mover (a record that has fallen
    behind, as it does when presses are read by the wrong sides before any evidence of
    them: the only way out of that is evidence that does not need the record to keep up).
    Anything else (pieces in the air, a position nothing explains) tells nothing.
    """
    if shown is None:
        return None
    ply = len(board.move_stack)
    if shown == Placement.of_board(board):
        if handed_over:
            return None
        return Press(not board.turn, ply) if ply else Press(chess.BLACK, 0)
    if find_move(board, shown) is not None:
        return Press(board.turn, ply + 1)
    if plies >= 2 and all_sequences(board, shown, 2):
        return Press(not board.turn, ply + 2)
    return None


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one observation says: White sits on ``white_on``. ``strong`` for a press or a
    start seen; ``ply`` is the move it belongs to."""

    white_on: Side
    strong: bool
    ply: int
    reason: str


def pressed(side: Side, press: Press) -> Evidence:
    """The player ``press`` names pressed the lever on ``side``: they sit there."""
    white_on = side if press.player == chess.WHITE else other_side(side)
    if press.ply == 0:
        when = "before the first move, starting White's clock"
    else:
        when = f"after move {(press.ply + 1) // 2}"
    reason = f"{_colour(press.player)} pressed the {side} side {when}"
    return Evidence(white_on, True, press.ply, reason)


def before_first_press(
    board: chess.Board, shown: Placement | None, *, first_move: bool = True
) -> bool:
    """Nobody can have pressed for a move yet: the game has no move and the board shows its
    start, the start with men lifted (a player adjusting, White's hand in the air), or
    (``first_move``) White's first move not yet pressed (``shown`` in White's view)."""
    if board.move_stack or shown is None:
        return False
    if shown.is_part_of(Placement.of_board(board)):
        return True
    return first_move and find_move(board, shown) is not None


def started(side: Side, *, seen: bool = True) -> Evidence:
    """The clock runs with ``side``'s lever up, nobody having pressed for a move and the hub
    not having set it: White's clock was started by hand, and White sits there. Strong when
    the start was ``seen`` (the clock was read stopped first); weak when the clock already
    ran when it was first read, as a press may have come before that reading."""
    if seen:
        reason = f"the clock was started with the {side} side running before the first move"
    else:
        reason = f"the clock ran with the {side} side up when first read, before the first move"
    return Evidence(side, seen, 0, reason)


def mover_side(ply: int, white_on: Side) -> Side:
    """The side of the player who made the move at ``ply`` (1 is White's first)."""
    return white_on if ply % 2 == 1 else other_side(white_on)


def ran(side: Side, ply: int) -> Evidence:
    """The move at ``ply`` was made while ``side`` ran, started by the hub with no press
    since: its mover sits there."""
    mover = chess.WHITE if ply % 2 == 1 else chess.BLACK
    white_on = side if mover == chess.WHITE else other_side(side)
    number = (ply + 1) // 2
    reason = f"{_colour(mover)}'s move {number} was made while the {side} side ran"
    return Evidence(white_on, False, ply, reason)


@dataclass(frozen=True, slots=True)
class Decision:
    """White sits on ``white_on`` from now on, for ``reason``. Moves after ``since_ply``
    may have been read with the sides the other way round: their clocks are to be read
    again (earlier moves were confirmed by a press under the sides they were read with)."""

    white_on: Side
    source: Source
    reason: str
    since_ply: int


class Orientation:
    """The sides of one board's clock: its setting, and the decision in force.

    ``recorded`` is the last decision of the game's log (a hub that restarts goes on from
    it) and ``ply`` the game's length then.
    """

    def __init__(
        self,
        setting: ClockSide = "auto",
        *,
        recorded: ClockSideDecided | None = None,
        ply: int = 0,
    ) -> None:
        self.setting: ClockSide = setting
        self._white_on: Side | None = None
        self._source: Source | None = None
        self._reason = ""
        #: The auto decision rests on a press (a decision read back from the log does too).
        self._strong = False
        #: Presses in a row that put White on the other side.
        self._against = 0
        #: The ply of the last press that agreed with the sides in force.
        self._confirmed_ply = 0
        self._recorded = recorded
        if recorded is not None and recorded.white_on in get_args(Side):
            self._white_on = "left" if recorded.white_on == "left" else "right"
            self._source = "setting" if recorded.source == "setting" else "auto"
            self._reason = recorded.reason
            self._strong = True
            self._confirmed_ply = ply
        fixed = fixed_side(setting)
        if fixed is not None:
            if fixed != self._white_on:
                self._confirmed_ply = 0
            self._white_on, self._source = fixed, "setting"
            self._reason = _set_reason(setting)

    # Reading

    @property
    def white_on(self) -> Side:
        """White's side as the hub reads the clock now (the left one while undecided)."""
        return self._white_on or "left"

    @property
    def decided(self) -> bool:
        return self._white_on is not None

    @property
    def source(self) -> Source | None:
        return self._source

    @property
    def reason(self) -> str:
        return self._reason

    @property
    def against(self) -> int:
        """Presses in a row that put White on the other side."""
        return self._against

    def side_of(self, colour: chess.Color) -> Side:
        return self.white_on if colour == chess.WHITE else other_side(self.white_on)

    def explain(self) -> str:
        """The sides in force and why, in words."""
        if self._white_on is None:
            text = "not decided yet: White is taken to sit on the left until the clock tells"
        else:
            text = f"White on the {self._white_on}: {self._reason}"
        if self._against:
            presses = "press says" if self._against == 1 else "presses in a row say"
            text += f" ({self._against} {presses} otherwise)"
        return text

    def opening(self) -> Decision | None:
        """The decision to record when a game starts to be followed: a fixed setting the
        game's log does not have yet."""
        if self.setting == "auto" or self._white_on is None:
            return None
        recorded = self._recorded
        if (
            recorded is not None
            and recorded.source == "setting"
            and recorded.white_on == self._white_on
        ):
            return None
        return Decision(self._white_on, "setting", self._reason, self._confirmed_ply)

    # Changing

    def consider(self, evidence: Evidence) -> Decision | None:
        """Weigh one observation; returns the decision when it is new or revised."""
        if self.setting != "auto" and evidence.strong:
            self._tally(evidence)
            return None
        if self.setting != "auto":
            return None
        if self._white_on is None:
            return self._decide(evidence, since_ply=0)
        if evidence.white_on == self._white_on:
            if evidence.strong:
                self._tally(evidence)
                self._strong = True
            return None
        if not evidence.strong:
            return None  # a run says nothing against a decision taken
        if not self._strong:
            return self._decide(evidence, since_ply=self._confirmed_ply)
        self._tally(evidence)
        if self._against < REVISE_AFTER:
            return None
        return self._decide(evidence, since_ply=self._confirmed_ply)

    def set(self, setting: ClockSide) -> Decision | None:
        """The operator changed the board's setting; returns the decision to record when
        White's side or where it comes from changes."""
        before, source = self._white_on, self._source
        self.setting = setting
        fixed = fixed_side(setting)
        if fixed is None:
            if before is None or source == "auto":
                return None
            # Back to auto: what was set stands, as if a press had said it, until the
            # evidence says otherwise.
            self._strong = True
            self._source = "auto"
            self._reason = f"kept from the board's former clock setting (White {before})"
            return Decision(before, "auto", self._reason, self._confirmed_ply)
        since = self._confirmed_ply
        if fixed != before:
            self._against = 0
            self._confirmed_ply = 0
        self._white_on, self._source, self._reason = fixed, "setting", _set_reason(setting)
        if fixed == before and source == "setting":
            return None
        return Decision(fixed, "setting", self._reason, since)

    def _tally(self, evidence: Evidence) -> None:
        if evidence.white_on == self._white_on:
            self._against = 0
            self._confirmed_ply = max(self._confirmed_ply, evidence.ply)
        else:
            self._against += 1

    def _decide(self, evidence: Evidence, *, since_ply: int) -> Decision:
        self._white_on, self._source, self._reason = evidence.white_on, "auto", evidence.reason
        self._strong = evidence.strong
        self._against = 0
        self._confirmed_ply = evidence.ply if evidence.strong else 0
        return Decision(evidence.white_on, "auto", evidence.reason, since_ply)


def _set_reason(setting: ClockSide) -> str:
    return f"the board's clock setting is {setting}"
