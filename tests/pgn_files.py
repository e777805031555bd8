"""PGN files of a few games for tests: each game's players, ratings and movetext."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

#: White, White's rating, Black, Black's rating, the movetext (ending with the result).
Game = tuple[str, int, str, int, str]


def write_games(path: Path, games: Sequence[Game]) -> Path:
    """``games`` as a PGN file at ``path`` (the Result tag from the movetext's last word)."""
    path.write_text(
        "".join(
            f'[White "{white}"]\n[Black "{black}"]\n[WhiteElo "{white_elo}"]\n'
            f'[BlackElo "{black_elo}"]\n[Result "{moves.split()[-1]}"]\n\n{moves}\n\n'
            for white, white_elo, black, black_elo, moves in games
        ),
        encoding="utf-8",
    )
    return path
