"""Conditional moves in IECG correspondence games (IECG Rules and Regulations 6.4, section C,
articles 4.E, 4.F and 6.E).

A player who sends a move may add a conditional sequence: "if you play X, I reply Y; if you
then play Z, I reply W; ...". The proposal binds the proposer, not the recipient, until the
recipient makes a different move from the one proposed (4.E). So each recipient's move that
matches the next "if" is answered at once by its "then", without a new message; the first
move that does not match (a deviation) ends the sequence, and the proposer answers it
himself. A sequence here is one line of play; alternatives ("if X ..., but if X2 ...") are
not part of it.

:func:`propose` checks that every move of a sequence is legal in its turn and keeps it with
the position it starts from; :func:`answer` plays the recipient's message against it and
says which replies were played automatically and what still binds the proposer.

Time (6.D, 6.E). "The time of reflection is added at the sender's first move in a sequence of
conditional moves and at the recipient's answering move to the last conditional move
accepted." Read here as:

* the proposer's time is charged on the move he mails with the proposal, by the ordinary
  rule of 6.D; his automatic replies are charged no time;
* the recipient's accepted moves are charged no time; his own move after them (the
  *answer*: a deviation, or a move after the whole sequence) is charged all his time, from
  the day he received the proposal to the day he mails the answer. When a message only
  accepts moves and leaves the last automatic reply unanswered, nothing is charged yet: the
  time keeps running from the day the proposal was received until the answer is mailed.
* "Exceeding the time limit can neither be prevented nor caused by conditional moves": the
  time charged on the answer counts against every time control (6.A) of the moves it covers.
  :attr:`ConditionalRun.counts_from_move` is the recipient's first move of the message, by
  which the charged days count as used; the proposer is never charged for moves he did not
  choose to mail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

import chess

from relay.domain.errors import InvalidInputError, RefusedError


class ConditionalMoveError(ValueError, InvalidInputError):
    """A move of a conditional sequence, or of the answer to one, that cannot be read or is
    not legal where it stands."""


class ConditionalPositionError(ValueError, RefusedError):
    """A conditional sequence or an answer that does not fit the game as it stands."""


@dataclass(frozen=True, slots=True)
class Conditional:
    """One "if ... then ...": the recipient's expected move and the proposer's reply."""

    if_move: chess.Move
    then_move: chess.Move


@dataclass(frozen=True, slots=True)
class ConditionalSequence:
    """A conditional sequence binding ``proposer`` (4.E) from the position ``fen`` on, where
    the recipient is to move."""

    proposer: chess.Color
    fen: str
    steps: tuple[Conditional, ...]


def propose(board: chess.Board, steps: Sequence[tuple[str, str]]) -> ConditionalSequence:
    """A conditional sequence proposed for the game ``board``, which already holds the move
    the proposer sends with it: the recipient is to move. ``steps`` are the "if" and "then"
    moves in algebraic notation (2.C), in the order they would be played; each must be legal
    in its turn."""
    if not steps:
        raise ConditionalMoveError("a conditional sequence has one step at least")
    if board.is_game_over():
        raise ConditionalPositionError("the game is over: there is nothing to propose")
    line = board.copy(stack=False)
    conditionals = []
    for number, (if_san, then_san) in enumerate(steps, start=1):
        if_move = _legal(line, if_san, f"step {number}, if")
        line.push(if_move)
        then_move = _legal(line, then_san, f"step {number}, then")
        line.push(then_move)
        conditionals.append(Conditional(if_move, then_move))
    return ConditionalSequence(not board.turn, board.fen(), tuple(conditionals))


class PlyKind(StrEnum):
    """How a move of a recipient's message came to be played."""

    #: The recipient's move that matched the sequence's "if": he accepted the step.
    ACCEPTED = "accepted"
    #: The proposer's "then" reply, played without a new message.
    AUTOMATIC = "automatic"
    #: The recipient's own move: a deviation, or a move after the whole sequence.
    ANSWER = "answer"


@dataclass(frozen=True, slots=True)
class Ply:
    """One move played from a recipient's message: who played it, in which move number,
    how, and the days of reflection charged on it (6.D, 6.E)."""

    move: chess.Move
    san: str
    colour: chess.Color
    move_number: int
    kind: PlyKind
    days: int


@dataclass(frozen=True, slots=True)
class ConditionalRun:
    """The moves a recipient's message puts on the board, in order, and the sequence that
    still binds the proposer (None once the recipient has answered, or the sequence has run
    out). ``deviated``: the answer was not the move the sequence proposed (4.E)."""

    plies: tuple[Ply, ...]
    remaining: ConditionalSequence | None
    deviated: bool

    @property
    def accepted(self) -> int:
        """How many steps of the sequence the message accepted."""
        return sum(ply.kind is PlyKind.ACCEPTED for ply in self.plies)

    @property
    def automatic(self) -> tuple[chess.Move, ...]:
        """The proposer's replies played automatically."""
        return tuple(ply.move for ply in self.plies if ply.kind is PlyKind.AUTOMATIC)

    @property
    def counts_from_move(self) -> int:
        """The move number by which the days charged on the answer count as used for time
        controls, so that no control inside the run escapes them (6.E)."""
        return self.plies[0].move_number


def answer(
    board: chess.Board,
    sequence: ConditionalSequence,
    moves: Sequence[str],
    *,
    received_on: date,
    mailed_on: date,
) -> ConditionalRun:
    """Play the recipient's message, ``moves`` (his own moves in algebraic notation, in
    order), on the game ``board`` against ``sequence``. Each move that matches the next
    "if" is answered by its "then"; the first that does not ends the sequence and must be
    the message's last move, since the proposer is then to move. ``received_on`` is the day
    the recipient received the proposal, ``mailed_on`` the day he mailed the message."""
    if board.fen() != sequence.fen:
        raise ConditionalPositionError("the game is not in the position the sequence starts from")
    if not moves:
        raise ConditionalMoveError("the message holds no move (4.C)")
    if mailed_on < received_on:
        raise ConditionalMoveError(f"mailed on {mailed_on}, before the proposal ({received_on})")
    line = board.copy(stack=False)
    pending = list(sequence.steps)
    plies: list[Ply] = []
    deviated = False
    for number, san in enumerate(moves, start=1):
        if plies and plies[-1].kind is PlyKind.ANSWER:
            raise ConditionalMoveError(f"move {number} ({san}): the proposer is to move")
        move = _legal(line, san, f"move {number}")
        if pending and move == pending[0].if_move:
            plies.append(_play(line, move, PlyKind.ACCEPTED, 0))
            plies.append(_play(line, pending.pop(0).then_move, PlyKind.AUTOMATIC, 0))
        else:
            days = (mailed_on - received_on).days
            plies.append(_play(line, move, PlyKind.ANSWER, days))
            deviated = bool(pending)
            pending = []
    remaining = (
        ConditionalSequence(sequence.proposer, line.fen(), tuple(pending)) if pending else None
    )
    return ConditionalRun(tuple(plies), remaining, deviated)


def _legal(board: chess.Board, san: str, where: str) -> chess.Move:
    try:
        return board.parse_san(san)
    except ValueError as error:
        raise ConditionalMoveError(f"{where}: {san!r} is not a legal move here ({error})") from None


def _play(board: chess.Board, move: chess.Move, kind: PlyKind, days: int) -> Ply:
    ply = Ply(move, board.san(move), board.turn, board.fullmove_number, kind, days)
    board.push(move)
    return ply


# --- A sequence as the hub keeps it ----------------------------------------------------------


def stored_steps(sequence: ConditionalSequence) -> list[tuple[str, str]]:
    """The sequence's steps as UCI pairs, to keep."""
    return [(step.if_move.uci(), step.then_move.uci()) for step in sequence.steps]


def from_stored(white: bool, fen: str, steps: Sequence[Sequence[str]]) -> ConditionalSequence:
    """A kept sequence: binding White (``white``) or Black, from ``fen``, its UCI steps."""
    return ConditionalSequence(
        chess.WHITE if white else chess.BLACK,
        fen,
        tuple(Conditional(chess.Move.from_uci(a), chess.Move.from_uci(b)) for a, b in steps),
    )


@dataclass(frozen=True, slots=True)
class Followed:
    """What a sequence makes of the opponent's move: the proposer's reply to play now (UCI),
    if the move was the one expected, and what still binds him after it (None: the sequence
    is over, by a deviation or because it ran out)."""

    reply: str | None
    remaining: ConditionalSequence | None


def follow(sequence: ConditionalSequence, fen_before: str, move: str) -> Followed:
    """The opponent played ``move`` (SAN or UCI) from the position ``fen_before``: the
    sequence's reply when it is the expected move from the position the sequence starts
    from (4.E); otherwise nothing, and the sequence ends (a deviation, or a sequence kept
    for a position the game has left)."""
    if fen_before != sequence.fen or not sequence.steps:
        return Followed(None, None)
    board = chess.Board(fen_before)
    try:
        played = board.parse_san(move)
    except ValueError:
        played = chess.Move.from_uci(move) if len(move) in (4, 5) else chess.Move.null()
    step, *rest = sequence.steps
    if played != step.if_move:
        return Followed(None, None)
    board.push(played)
    board.push(step.then_move)
    remaining = ConditionalSequence(sequence.proposer, board.fen(), tuple(rest)) if rest else None
    return Followed(step.then_move.uci(), remaining)
