"""The game-input desk's rules (docs/game-input.md, "The game-input desk"): a game keyed from
its paper scoresheet is *to key*, then *keyed* by one keyer, then *checked* by a second one;
notes from the scoresheet; the result a keyer proposes; a keying slip taken back.

Each rule turns a keyer's action into the event the game's log records, or refuses it in
words (:class:`KeyingError`). The moves themselves go in as entries
(:mod:`relay.domain.game.entries`); any change to them makes the game one to key again
(:class:`relay.domain.game.record.GameRecord`).

What a keyer may do with a result: propose the one written on the scoresheet (a
``result-proposed`` event, gesture ``scoresheet``), as players propose one on an e-board.
Entering it as the game's result and verifying it stay the arbiter's.
"""

from __future__ import annotations

import chess

from relay.domain.errors import RefusedError
from relay.domain.game.events import InputStatusSet, NoteAdded, ResultProposed, TakenBack
from relay.domain.game.record import GameRecord
from relay.domain.results import Result

#: The statuses of a game on the desk, in order.
STATUSES = ("to-key", "keyed", "checked")
#: The longest note, in characters.
MAX_NOTE = 200
#: The gesture of a result proposed from a scoresheet.
SCORESHEET = "scoresheet"


class KeyingError(ValueError, RefusedError):
    """A desk action that does not fit the game as it stands; the message is for the keyer."""


def mark_keyed(record: GameRecord, *, by: str, at: float) -> InputStatusSet:
    """The keyer ``by`` has keyed every move the scoresheet holds."""
    if record.input_status == "checked":
        raise KeyingError(f"the game is checked already (by {record.checked_by})")
    if record.input_status == "keyed":
        raise KeyingError(f"the game is keyed already (by {record.keyed_by})")
    if not record.moves and not record.result.is_decided and record.proposed_result is None:
        raise KeyingError("nothing is keyed yet: no moves and no result")
    return InputStatusSet(status="keyed", by=by, at=at)


def mark_checked(record: GameRecord, *, by: str, at: float) -> InputStatusSet:
    """A second keyer, ``by``, read the keyed game against the scoresheet and found it right."""
    if record.input_status == "to-key":
        raise KeyingError("the game is not keyed yet: it is checked once it is keyed")
    if record.input_status == "checked":
        raise KeyingError(f"the game is checked already (by {record.checked_by})")
    if record.keyed_by == by:
        raise KeyingError(
            f"{by} keyed this game: a different keyer checks it against the scoresheet"
        )
    return InputStatusSet(status="checked", by=by, at=at)


def add_note(record: GameRecord, *, ply: int, text: str, by: str, at: float) -> NoteAdded:
    """A note from the scoresheet after ``ply`` (0: before the first move)."""
    words = " ".join(text.split())
    if not words:
        raise KeyingError("an empty note")
    if len(words) > MAX_NOTE:
        raise KeyingError(f"a note is at most {MAX_NOTE} characters; this one has {len(words)}")
    if not 0 <= ply <= len(record.moves):
        raise KeyingError(
            f"ply {ply} is not in the game: it has {len(record.moves)} plies (0 is before "
            "the first move)"
        )
    return NoteAdded(ply=ply, text=words, by=by, at=at)


def propose_result(record: GameRecord, *, result: Result, at: float) -> ResultProposed:
    """The result the scoresheet shows, for the arbiter to enter and verify."""
    if not result.is_decided:
        raise KeyingError("a scoresheet's result is 1-0, 0-1 or 1/2-1/2")
    if record.result.is_decided:
        by = f" (set by {record.result_by})" if record.result_by else ""
        raise KeyingError(f"the game's result is {record.result}{by}: only an arbiter changes it")
    return ResultProposed(result=result, gesture=SCORESHEET, at=at)


def take_back(record: GameRecord, *, ply: int, at: float) -> TakenBack:
    """A keying slip: the moves after ``ply`` go, to be keyed again."""
    if record.input_status == "checked":
        raise KeyingError(
            f"the game is checked (by {record.checked_by}): an arbiter corrects its moves"
        )
    if record.result.is_decided:
        raise KeyingError(f"the game has a result ({record.result}): an arbiter corrects its moves")
    if not 0 <= ply < len(record.moves):
        raise KeyingError(
            f"back to ply {ply}: the game has {len(record.moves)} plies, so that takes back nothing"
        )
    board = record.board.copy()
    while len(board.move_stack) > ply:
        board.pop()
    return TakenBack(ply=ply, fen=board.fen(), at=at)


def legal_moves(record: GameRecord) -> list[str]:
    """The legal moves (SAN) of the game's position, for the desk's completion; none once
    the game has a result."""
    if record.result.is_decided:
        return []
    board = record.board
    return sorted(board.san(move) for move in board.legal_moves)


def positions(record: GameRecord) -> list[str]:
    """The FEN before the first move and after each."""
    return [chess.STARTING_FEN, *(move.fen for move in record.moves)]


def progress(statuses: list[str]) -> dict[str, int]:
    """How many games are at each status."""
    return {status: statuses.count(status) for status in STATUSES}
