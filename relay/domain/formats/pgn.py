"""Round and game PGN in the form broadcast platforms poll (see ``formats.md`` section 1)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import chess
import chess.pgn

RESULTS = frozenset({"*", "1-0", "0-1", "1/2-1/2"})


class PgnExportError(ValueError):
    """Headers or moves that cannot become a valid PGN game."""


@dataclass(frozen=True, slots=True)
class GameHeaders:
    """What a relay PGN says about a game besides its moves."""

    event: str
    site: str
    date: str  # "YYYY.MM.DD", "??" for unknown parts
    round: int
    board: int
    white: str
    black: str
    result: str = "*"
    white_elo: int | None = None
    black_elo: int | None = None
    game_id: str | None = None
    termination: str | None = None


def render_game(headers: GameHeaders, uci_moves: Sequence[str]) -> str:
    """One game as PGN text: Seven Tag Roster first, then relay tags, then the moves."""
    if headers.result not in RESULTS:
        raise PgnExportError(f"result {headers.result!r} is not one of {sorted(RESULTS)}")
    game = chess.pgn.Game()
    tags = game.headers
    tags["Event"] = headers.event
    tags["Site"] = headers.site
    tags["Date"] = headers.date
    tags["Round"] = f"{headers.round}.{headers.board}"
    tags["White"] = headers.white
    tags["Black"] = headers.black
    tags["Result"] = headers.result
    tags["Board"] = str(headers.board)
    if headers.white_elo is not None:
        tags["WhiteElo"] = str(headers.white_elo)
    if headers.black_elo is not None:
        tags["BlackElo"] = str(headers.black_elo)
    if headers.game_id is not None:
        tags["GameId"] = headers.game_id
    if headers.termination is not None:
        tags["Termination"] = headers.termination
    node: chess.pgn.GameNode = game
    board = chess.Board()
    for ply, uci in enumerate(uci_moves, start=1):
        try:
            move = board.parse_uci(uci)
        except ValueError as error:
            raise PgnExportError(f"ply {ply}: {error}") from None
        board.push(move)
        node = node.add_variation(move)
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter)


def render_round(games: Iterable[str]) -> str:
    """Several rendered games as one multi-game PGN file, in the order given."""
    return "".join(f"{game}\n\n" for game in games)
