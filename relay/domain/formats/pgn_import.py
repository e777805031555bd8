"""Reading PGN that an arbiter brings: games typed from scoresheets, a corrected file.

Every game must be legal from the standard start position and end with a result tag the
relay knows; the first game that is not is reported with its number and the reason, and
nothing of the file is used. Variations and comments are ignored; the main line is the game.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field

import chess.pgn

from relay.domain.formats.pgn import RESULTS


class PgnImportError(ValueError):
    """PGN that cannot be imported; the message names the game and the reason."""


@dataclass(frozen=True, slots=True)
class ImportedGame:
    white: str
    black: str
    result: str
    #: From the ``Board`` tag, or the board part of ``Round "r.b"``; None when neither says.
    board: int | None
    uci: tuple[str, ...]
    #: Every tag pair of the game, as written.
    tags: Mapping[str, str] = field(default_factory=dict)


def parse_pgn_games(text: str) -> list[ImportedGame]:
    stream = io.StringIO(text)
    games: list[ImportedGame] = []
    while True:
        number = len(games) + 1
        game = chess.pgn.read_game(stream)  # reports problems in game.errors, never raises
        if game is None:
            break
        games.append(_imported(game, number))
    if not games:
        raise PgnImportError("no game in the PGN")
    return games


def _imported(game: chess.pgn.Game, number: int) -> ImportedGame:
    headers = game.headers
    where = f"game {number} ({headers.get('White', '?')} - {headers.get('Black', '?')})"
    if game.errors:
        raise PgnImportError(f"{where}: {game.errors[0]}")
    if "FEN" in headers or "SetUp" in headers:
        raise PgnImportError(f"{where}: only games from the standard start can be imported")
    result = headers.get("Result", "*")
    if result not in RESULTS:
        raise PgnImportError(f"{where}: result {result!r} is not one of {sorted(RESULTS)}")
    uci = [move.uci() for move in game.mainline_moves()]  # legal: errors would say otherwise
    return ImportedGame(
        white=headers.get("White", "?").strip(),
        black=headers.get("Black", "?").strip(),
        result=result,
        board=_board_number(headers, where),
        uci=tuple(uci),
        tags=dict(headers),
    )


def _board_number(headers: chess.pgn.Headers, where: str) -> int | None:
    text = headers.get("Board") or headers.get("Round", "").partition(".")[2]
    if not text or text in {"?", "-"}:
        return None
    if not text.isdigit() or int(text) < 1:
        raise PgnImportError(f"{where}: board {text!r} is not a board number")
    return int(text)
