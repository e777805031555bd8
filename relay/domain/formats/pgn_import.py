"""Reading PGN that an arbiter brings: games typed from scoresheets, a corrected file.

Every game must be legal from the standard start position and end with a result tag the
relay knows; every game that is not is reported with its number, the line it starts on and
the reason (all of them together, in one :class:`PgnImportError`), and nothing of the file is
used. Variations and comments are ignored; the main line is the game.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import chess.pgn

from relay.domain.errors import Collector, InvalidInputError, Problem
from relay.domain.results import Result
from relay.domain.vocabulary import UnknownWordError


class PgnImportError(ValueError, InvalidInputError):
    """PGN that cannot be imported; the message names the game and the reason. ``line`` is
    the line the game starts on and ``field`` names it (``game 3``), when known."""

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None):
        super().__init__(message)
        self.line = line
        self.field = field

    def problem(self) -> Problem:
        return Problem(str(self), line=self.line, field=self.field)


@dataclass(frozen=True, slots=True)
class ImportedGame:
    white: str
    black: str
    result: Result
    #: From the ``Board`` tag, or the board part of ``Round "r.b"``; None when neither says.
    board: int | None
    uci: tuple[str, ...]
    #: Every tag pair of the game, as written.
    tags: Mapping[str, str] = field(default_factory=dict)
    #: The line of the file the game starts on, when read from a file.
    line: int | None = field(default=None, compare=False)


_NOT_BLANK = re.compile(r"\S")


def parse_pgn_games(text: str) -> list[ImportedGame]:
    """Every game of ``text``. Each game is read on its own, so a bad one does not hide the
    next: the errors of all are raised together, as one :class:`PgnImportError`."""
    stream = io.StringIO(text)
    games: list[ImportedGame] = []
    errors = Collector(PgnImportError)
    number, line, counted = 0, 1, 0
    while True:
        # The game starts at the first character that is not blank: count the lines to it.
        start = _NOT_BLANK.search(text, stream.tell())
        if start is not None:
            line += text.count("\n", counted, start.start())
            counted = start.start()
        game = chess.pgn.read_game(stream)  # reports problems in game.errors, never raises
        if game is None:
            break
        number += 1
        imported = _imported(game, number, line, errors)
        if imported is not None:
            games.append(imported)
    errors.check()
    if not games:
        raise PgnImportError("no game in the PGN")
    return games


def _imported(
    game: chess.pgn.Game, number: int, line: int, errors: Collector[PgnImportError]
) -> ImportedGame | None:
    """The game, or None once every error of it is noted."""
    headers = game.headers
    where = f"game {number} ({headers.get('White', '?')} - {headers.get('Black', '?')})"
    found = len(errors)

    def fail(reason: str) -> None:
        errors.add(PgnImportError(f"{where}: {reason}", line=line, field=f"game {number}"))

    if game.errors:
        fail(str(game.errors[0]))
    if "FEN" in headers or "SetUp" in headers:
        fail("only games from the standard start can be imported")
    result = Result.ONGOING
    try:
        result = Result.parse(headers.get("Result", "*"))
    except UnknownWordError as error:
        fail(str(error))
    board = None
    try:
        board = _board_number(headers)
    except ValueError as error:
        fail(str(error))
    if len(errors) > found:
        return None
    uci = [move.uci() for move in game.mainline_moves()]  # legal: errors would say otherwise
    return ImportedGame(
        white=headers.get("White", "?").strip(),
        black=headers.get("Black", "?").strip(),
        result=result,
        board=board,
        uci=tuple(uci),
        tags=dict(headers),
        line=line,
    )


def _board_number(headers: chess.pgn.Headers) -> int | None:
    """The game's board number, None when the tags do not say; ValueError for one that is no
    board number."""
    text = headers.get("Board") or headers.get("Round", "").partition(".")[2]
    if not text or text in {"?", "-"}:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"board {text!r} is not a board number")
    return int(text)
