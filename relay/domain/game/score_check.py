"""An e-board's record checked against the game's scoresheet (seed 004, ch. 18: e-board
scores carry errors, "particularly a handful of spurious moves at the end").

The scoresheet is the authority. Given its move count (:func:`check_count`) or its whole
score in SAN (:func:`check_score`), the check says in words where the e-board record
differs: extra moves at the end, a different move or piece at a ply, moves missing; and it
proposes the arbiter's correction, which replaces the mainline from one ply (the
``arbiter-correction`` event, never a variation).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import chess

from relay.domain.errors import InvalidInputError
from relay.domain.game.entries import IllegalEntryError, describe, parse_entry

#: How many plies a missing or extra run in the middle of a game may be, to be named as one.
_MOST_SHIFTED = 4
#: Move numbers ("12.", "12...", "12.e4"), results and draw-offer marks on a scoresheet.
_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "½-½", "*", "=", "(=)"}


#: Where the record and the scoresheet part (see :class:`Difference`).
DifferenceKind = Literal["extra", "missing", "different", "unreadable"]


class ScoresheetError(ValueError, InvalidInputError):
    """A scoresheet that cannot be compared: no move count or score, or an impossible one."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the e-board record and the scoresheet part.

    ``kind``: ``extra`` (the record has plies the scoresheet lacks), ``missing`` (the
    scoresheet has plies the record lacks), ``different`` (another move at ``ply``),
    ``unreadable`` (the scoresheet's entry at ``ply`` is no legal move there).
    """

    kind: DifferenceKind
    #: The first ply concerned (1 = White's first move).
    ply: int
    #: The record's moves there, SAN.
    recorded: tuple[str, ...]
    #: The scoresheet's moves there, as legal SAN (as written when unreadable).
    scoresheet: tuple[str, ...]
    words: str


@dataclass(frozen=True, slots=True)
class Correction:
    """What the arbiter's correction would be: the mainline from ``ply`` replaced by ``san``
    (empty: the moves from ``ply`` on are removed)."""

    ply: int
    san: tuple[str, ...]
    words: str


@dataclass(frozen=True, slots=True)
class ScoreCheck:
    recorded_plies: int
    scoresheet_plies: int
    differences: tuple[Difference, ...]
    #: None when the record agrees, or when the scoresheet does not say enough to correct it.
    correction: Correction | None
    #: The whole finding in one sentence.
    words: str

    @property
    def agrees(self) -> bool:
        return not self.differences


def move_label(ply: int) -> str:
    """``"12."`` for White's 12th move (ply 23), ``"12..."`` for Black's (ply 24)."""
    number = (ply + 1) // 2
    return f"{number}." if ply % 2 == 1 else f"{number}..."


def plies_of(moves: int, last: str = "black") -> int:
    """The plies of a scoresheet whose last move is number ``moves``, made by ``last``."""
    if last not in ("white", "black"):
        raise ScoresheetError(f"the last move is White's or Black's, not {last!r}")
    if moves < 0 or (moves == 0 and last == "white"):
        raise ScoresheetError(f"a scoresheet cannot end on move {moves}")
    return 0 if moves == 0 else 2 * moves - (1 if last == "white" else 0)


def sans_played(moves: Sequence[chess.Move], start: chess.Board | None = None) -> list[str]:
    """``moves`` in SAN, each as it stands after the ones before, played from ``start`` (the
    starting position by default; ``start`` itself is left as it was)."""
    board = chess.Board() if start is None else start.copy()
    sans = []
    for move in moves:
        sans.append(board.san(move))
        board.push(move)
    return sans


def recorded_sans(recorded: Sequence[str]) -> list[str]:
    """The record's moves (UCI, as the log holds them) in SAN."""
    return sans_played([chess.Move.from_uci(uci) for uci in recorded])


def check_count(recorded: Sequence[str], plies: int) -> ScoreCheck:
    """The record (UCI moves) against a scoresheet of ``plies`` plies: the count shows extra
    moves at the end, or moves missing there; it cannot show a different move."""
    if plies < 0:
        raise ScoresheetError("a scoresheet has no fewer than 0 plies")
    sans = recorded_sans(recorded)
    have = len(sans)
    if have == plies:
        words = f"the record has the scoresheet's {_plies(plies)}; only the whole score can "
        words += "show a different move"
        return ScoreCheck(have, plies, (), None, words)
    if have > plies:
        extra = _extra_at_end(sans, plies)
        correction = Correction(plies + 1, (), f"remove {_span(plies + 1, have)}")
        return ScoreCheck(have, plies, (extra,), correction, extra.words)
    missing = Difference(
        "missing",
        have + 1,
        (),
        (),
        f"the record stops at ply {have}, the scoresheet at ply {plies}: "
        f"{_span(have + 1, plies)} missing; give the whole score to add them",
    )
    return ScoreCheck(have, plies, (missing,), None, missing.words)


def check_score(recorded: Sequence[str], score: str) -> ScoreCheck:
    """The record (UCI moves) against the scoresheet's whole score (SAN movetext: move
    numbers, check marks, results and comments in braces are allowed)."""
    written = scoresheet_moves(score)
    sans = recorded_sans(recorded)
    board = chess.Board()
    sheet: list[chess.Move] = []
    for ply, text in enumerate(written, start=1):
        try:
            move = parse_entry(board, text)
        except IllegalEntryError as error:
            return _unreadable(recorded, sans, sheet, ply, text, board, error)
        sheet.append(move)
        board.push(move)
    record_moves = [chess.Move.from_uci(uci) for uci in recorded]
    first = next(
        (i for i, (a, b) in enumerate(zip(record_moves, sheet, strict=False)) if a != b),
        min(len(record_moves), len(sheet)),
    )
    have, plies = len(record_moves), len(sheet)
    sheet_sans = sans_played(sheet)
    if first == have == plies:
        words = f"the record and the scoresheet agree, {_plies(plies)}"
        return ScoreCheck(have, plies, (), None, words)
    if first == plies:
        extra = _extra_at_end(sans, plies)
        correction = Correction(plies + 1, (), f"remove {_span(plies + 1, have)}")
        return ScoreCheck(have, plies, (extra,), correction, extra.words)
    added = tuple(sheet_sans[first:])
    if first == have:
        missing = Difference(
            "missing",
            have + 1,
            (),
            added,
            f"the record stops at ply {have}; the scoresheet goes on with "
            f"{moves_text(have + 1, added)}",
        )
        correction = Correction(have + 1, added, f"add {moves_text(have + 1, added)}")
        return ScoreCheck(have, plies, (missing,), correction, missing.words)
    difference = _first_difference(record_moves, sheet, sans, sheet_sans, first)
    differences = [difference]
    if (
        difference.kind == "different"
        and have > plies
        and record_moves[first + 1 : plies] == (sheet[first + 1 :])
    ):
        differences.append(_extra_at_end(sans, plies))
    verb = "replace" if first < have else "add"
    correction = Correction(
        first + 1,
        added,
        f"{verb} the moves from {move_label(first + 1)} on with "
        + (moves_text(first + 1, added) if added else "nothing"),
    )
    words = "; ".join(d.words for d in differences)
    return ScoreCheck(have, plies, tuple(differences), correction, words)


def scoresheet_moves(score: str) -> list[str]:
    """The moves of a score as written, without move numbers, comments and results."""
    text = re.sub(r"\{[^}]*\}", " ", score)
    text = text.replace("(=)", " ")
    moves = []
    for token in text.split():
        word = _NUMBER.sub("", token)
        if not word or word in _RESULTS:
            continue
        moves.append(word)
    if not moves:
        raise ScoresheetError("the score has no moves")
    return moves


def _first_difference(
    record: list[chess.Move],
    sheet: list[chess.Move],
    sans: list[str],
    sheet_sans: list[str],
    at: int,
) -> Difference:
    ply = at + 1
    for shift in range(1, _MOST_SHIFTED + 1):
        if _same_from(record, at, sheet, at + shift):
            gone = tuple(sheet_sans[at : at + shift])
            words = f"the record lacks {moves_text(ply, gone)} (the scoresheet's)"
            return Difference("missing", ply, (), gone, words)
        if _same_from(sheet, at, record, at + shift):
            spurious = tuple(sans[at : at + shift])
            words = f"the record has {moves_text(ply, spurious)} that the scoresheet has not"
            return Difference("extra", ply, spurious, (), words)
    board = chess.Board()
    for move in record[:at]:
        board.push(move)
    ours, theirs = record[at], sheet[at]
    mine, other = board.piece_type_at(ours.from_square), board.piece_type_at(theirs.from_square)
    what = "another piece" if mine != other else "another move of the same piece"
    label = move_label(ply)
    words = (
        f"{label} {sans[at]} in the record ({describe(board, ours)}), {sheet_sans[at]} on the "
        f"scoresheet ({describe(board, theirs)}): {what}"
    )
    return Difference("different", ply, (sans[at],), (sheet_sans[at],), words)


def _same_from(a: list[chess.Move], i: int, b: list[chess.Move], j: int) -> bool:
    """``a`` from ``i`` and ``b`` from ``j`` agree to the end of the shorter, over at least
    one move, and ``a`` does not run past ``b`` by more than it should (both end together, or
    ``b`` goes on)."""
    rest = a[i:]
    if not rest or j >= len(b):
        return False
    return b[j : j + len(rest)] == rest


def _unreadable(
    recorded: Sequence[str],
    sans: list[str],
    sheet: list[chess.Move],
    ply: int,
    text: str,
    board: chess.Board,
    error: IllegalEntryError,
) -> ScoreCheck:
    fitting = f"; legal moves like it: {', '.join(error.fitting)}" if error.fitting else ""
    words = f"the scoresheet's {move_label(ply)} {text} is not a legal move there{fitting}"
    differences = [Difference("unreadable", ply, tuple(sans[ply - 1 : ply]), (text,), words)]
    earlier = next(
        (
            i
            for i, (a, b) in enumerate(zip(recorded, sheet, strict=False))
            if chess.Move.from_uci(a) != b
        ),
        None,
    )
    if earlier is not None:
        differences.insert(
            0,
            _first_difference(
                [chess.Move.from_uci(uci) for uci in recorded],
                sheet,
                sans,
                sans_played(sheet),
                earlier,
            ),
        )
    all_words = "; ".join(d.words for d in differences)
    return ScoreCheck(len(recorded), len(sheet), tuple(differences), None, all_words)


def _extra_at_end(sans: list[str], plies: int) -> Difference:
    extra = tuple(sans[plies:])
    words = (
        f"the record has {len(extra)} {'ply' if len(extra) == 1 else 'plies'} more than the "
        f"scoresheet at the end: {moves_text(plies + 1, extra)}"
    )
    return Difference("extra", plies + 1, extra, (), words)


def moves_text(ply: int, sans: Sequence[str]) -> str:
    """``"41. Kg2 Kf7"`` or ``"41... Kf7 42. Kg2"``: moves as a scoresheet shows them."""
    words: list[str] = []
    for number, san in enumerate(sans, start=ply):
        if number % 2 == 1 or number == ply:
            words.append(f"{move_label(number)} {san}")
        else:
            words.append(san)
    return " ".join(words)


def _plies(count: int) -> str:
    return f"{count} {'ply' if count == 1 else 'plies'}"


def _span(first: int, last: int) -> str:
    if first == last:
        return f"ply {first} ({move_label(first)})"
    return f"plies {first} to {last} ({move_label(first)} to {move_label(last)})"
