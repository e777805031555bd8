"""Hypothesis strategies shared by the test suites."""

from __future__ import annotations

import itertools

import chess
from hypothesis import strategies as st


@st.composite
def legal_games(draw: st.DrawFn, max_plies: int = 60) -> list[chess.Move]:
    """A random legal game from the start position, stopping early where the laws end it
    (checkmate, stalemate, dead material, fivefold repetition, 75 moves)."""
    board = chess.Board()
    moves: list[chess.Move] = []
    for _ in range(draw(st.integers(min_value=1, max_value=max_plies))):
        if board.outcome() is not None:
            break
        move = draw(st.sampled_from(list(board.legal_moves)))
        board.push(move)
        moves.append(move)
    return moves


@st.composite
def pieces(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut at arbitrary points, as reads from a socket may give it (empty pieces
    included)."""
    cuts = draw(st.lists(st.integers(min_value=0, max_value=len(data)), max_size=len(data) + 1))
    bounds = [0, *sorted(cuts), len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]
