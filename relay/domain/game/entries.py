"""Moves entered by hand: on the electronic scoresheet beside a board, or keyed from a paper
scoresheet at the game-input desk (docs/game-input.md).

Every entry names the ply it is for, so an entry sent twice (a device that lost its link
and sends its queue again) is recognised and acknowledged, never played twice:

* the next ply, legal: :class:`Accepted`, the move to record;
* a ply already entered with the same move: :class:`Repeated`, nothing to record;
* a ply already entered with another move, or a ply beyond the next:
  :class:`EntryConflictError`, in words;
* text that is no legal move here: :class:`IllegalEntryError`, with the legal moves that fit
  it best (:func:`fitting_moves`), as a keyer needs them ("a different rook going to d1").

:func:`entry_events` turns an entry into the events a game's log records, with the end the
laws impose on the position reached.

Entries are SAN as scoresheets are written (``Nf3``, ``exd5``, ``O-O``, ``e8=Q``, with or
without ``+``, ``#``, ``x``, annotations) or UCI (``g1f3``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from relay.domain.errors import InvalidInputError, RefusedError
from relay.domain.game.events import ClaimsChanged, GameEvent, MoveMade
from relay.domain.game.laws import Repetitions, claims, ending
from relay.domain.game.record import GameRecord

#: SAN as people write it: piece, origin hints, capture, destination, promotion.
_SAN = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?[x:-]?"
    r"(?P<to>[a-h][1-8])(?:=?(?P<promotion>[QRBN]))?$"
)
_CASTLING = {"O-O": "kingside", "0-0": "kingside", "O-O-O": "queenside", "0-0-0": "queenside"}
_PIECE_NAMES = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}
#: How many fitting moves an illegal entry lists at most.
FITTING = 6


class EntryConflictError(ValueError, RefusedError):
    """An entry for a ply that already holds another move, or for a ply after the next."""


class IllegalEntryError(ValueError, InvalidInputError):
    """Text that is no legal move in the position; ``fitting`` lists the legal moves (SAN)
    that fit it best, with words for each in ``hints``."""

    def __init__(self, message: str, fitting: tuple[str, ...], hints: tuple[str, ...]) -> None:
        super().__init__(message)
        self.fitting = fitting
        self.hints = hints


@dataclass(frozen=True, slots=True)
class Accepted:
    """The entry is the next move: record it."""

    ply: int
    move: chess.Move
    san: str
    #: The position after the move, as FEN.
    fen: str


@dataclass(frozen=True, slots=True)
class Repeated:
    """The entry was made before (the same move at the same ply): acknowledge it again."""

    ply: int
    san: str


def judge_entry(board: chess.Board, ply: int, text: str) -> Accepted | Repeated:
    """Judge an entry of ``text`` for ``ply`` (1 = White's first move) against ``board``,
    the game as recorded (its move stack holds the moves entered so far)."""
    entered = len(board.move_stack)
    if ply < 1:
        raise EntryConflictError(f"ply {ply}: plies count from 1, White's first move")
    if ply > entered + 1:
        raise EntryConflictError(
            f"ply {ply} cannot be entered yet: the game has {entered} plies, so the next "
            f"entry is for ply {entered + 1}"
        )
    if ply <= entered:
        before = board_before(board, ply)
        standing = board.move_stack[ply - 1]
        move = parse_entry(before, text)
        if move != standing:
            raise EntryConflictError(
                f"ply {ply} already holds {before.san(standing)}; this entry says "
                f"{before.san(move)}"
            )
        return Repeated(ply, before.san(standing))
    move = parse_entry(board, text)
    san = board.san(move)
    after = board.copy(stack=False)
    after.push(move)
    return Accepted(ply, move, san, after.fen())


def entry_events(
    record: GameRecord, ply: int, text: str, at: float, *, timed: bool = True
) -> tuple[Accepted | Repeated, list[GameEvent]]:
    """The judgement of an entry against the game as stored, and the events to record: the
    move, and the end the laws impose on the position it reaches (checkmate, stalemate,
    insufficient material, fivefold repetition, seventy-five moves). A repeat records
    nothing, even after the game ended; a new move after the end is a conflict. The draws
    the next player may claim (9.2, 9.3) are recorded when they change, as an electronic
    board's are. An entry that is not ``timed`` (keyed from a paper scoresheet after the
    move was played) records an ``untimed`` move: no one's clock is charged for it."""
    board, repetitions = replayed(record)
    judged = judge_entry(board, ply, text)
    if isinstance(judged, Repeated):
        return judged, []
    if record.result.is_decided:
        raise EntryConflictError(f"the game is over ({record.result}): no move can follow")
    return judged, move_events(record, board, repetitions, judged, at, timed=timed)


def board_before(board: chess.Board, ply: int) -> chess.Board:
    """A copy of ``board`` (with its move stack) as it stood before ``ply`` was played."""
    before = board.copy()
    while len(before.move_stack) >= ply:
        before.pop()
    return before


def replayed(record: GameRecord) -> tuple[chess.Board, Repetitions]:
    """The game's position as recorded, with its move stack and its repetitions counted."""
    board = chess.Board()
    repetitions = Repetitions(board)
    for played in record.moves:
        board.push_uci(played.uci)
        repetitions.push(board)
    return board, repetitions


def move_events(
    record: GameRecord,
    board: chess.Board,
    repetitions: Repetitions,
    judged: Accepted,
    at: float,
    *,
    timed: bool = True,
) -> list[GameEvent]:
    """The events of an accepted move, played on ``board`` (and counted in
    ``repetitions``): the move, the end the laws impose, or else the draws now claimable
    when they differ from the record's."""
    board.push(judged.move)
    repetitions.push(board)
    move = MoveMade(
        ply=judged.ply,
        uci=judged.move.uci(),
        san=judged.san,
        fen=judged.fen,
        at=at,
        untimed=not timed,
    )
    events: list[GameEvent] = [move]
    end = ending(board, repetitions, at)
    if end is not None:
        events.append(end)
        return events
    claimable = claims(board, repetitions)
    if claimable != record.claims:
        events.append(ClaimsChanged(ply=judged.ply, claims=claimable, at=at))
    return events


def parse_entry(board: chess.Board, text: str) -> chess.Move:
    """The legal move ``text`` names in ``board``; :class:`IllegalEntryError` otherwise."""
    written = _clean(text)
    if not written:
        raise IllegalEntryError("an empty entry", (), ())
    for parse in (board.parse_san, board.parse_uci):
        try:
            move = parse(written)
        except ValueError:
            continue
        if board.is_legal(move):
            return move
    fitting = fitting_moves(board, written)
    sans = tuple(board.san(move) for move in fitting)
    hints = tuple(describe(board, move) for move in fitting)
    listed = f": did you mean {', '.join(sans)}?" if sans else ""
    raise IllegalEntryError(f"{text.strip()!r} is not a legal move here{listed}", sans, hints)


def fitting_moves(board: chess.Board, text: str) -> list[chess.Move]:
    """The legal moves that fit ``text`` best, closest first: the same piece to the same
    square from elsewhere, then the same piece to a neighbouring square (a slip of one file
    or rank), then another piece to that square, then the same piece anywhere."""
    written = _clean(text)
    legal = list(board.legal_moves)
    castling = _CASTLING.get(written.upper().replace("0", "O"))
    if castling is not None:
        wanted = [m for m in legal if board.is_castling(m)]
        return wanted[:FITTING]
    found = _SAN.match(written)
    if found is None:
        return []
    piece = chess.PIECE_SYMBOLS.index(found["piece"].lower()) if found["piece"] else chess.PAWN
    target = chess.parse_square(found["to"])
    tiers: list[list[chess.Move]] = [[], [], [], []]
    for move in legal:
        moved = board.piece_type_at(move.from_square)
        same_piece = moved == piece
        if move.to_square == target:
            tiers[0 if same_piece else 2].append(move)
        elif same_piece and chess.square_distance(move.to_square, target) == 1:
            tiers[1].append(move)
        elif same_piece:
            tiers[3].append(move)
    ranked = [move for tier in tiers for move in sorted(tier, key=board.san)]
    return ranked[:FITTING]


def describe(board: chess.Board, move: chess.Move) -> str:
    """A move in words for someone reading a scoresheet: "the rook from f1 to d1"."""
    if board.is_castling(move):
        side = "kingside" if chess.square_file(move.to_square) > 4 else "queenside"
        return f"castling {side}"
    piece = board.piece_type_at(move.from_square)
    name = _PIECE_NAMES[piece] if piece is not None else "piece"
    words = f"the {name} from {chess.square_name(move.from_square)}"
    words += (
        f" {'takes on' if board.is_capture(move) else 'to'} {chess.square_name(move.to_square)}"
    )
    if move.promotion is not None:
        words += f", promoting to a {_PIECE_NAMES[move.promotion]}"
    return words


def _clean(text: str) -> str:
    """The entry without check marks, annotations and spaces."""
    return re.sub(r"[+#!?\s]", "", text).replace("e.p.", "").replace("ep", "")
