"""A club game's current result, from its result log and, for a game played on one of the
hub's electronic boards, the result its own game log reached.

The log is append-only: an officer's or player's entry, an edit (a later entry) or a
deletion (an entry without a result). The current result is the last entry's; a game linked
to a board game takes the board game's decided result (the board's end, or the arbiter's
result) when that came later than the last entry, so a result corrected on the board moves
the ladder again, and an officer's later correction stands over the board's. A deleted game
stays deleted.
"""

from __future__ import annotations

from collections.abc import Sequence

from relay.domain.results import Result


def current_result(
    entries: Sequence[tuple[float, Result | None]], board: tuple[float, Result] | None = None
) -> Result | None:
    """The result that counts: ``entries`` are the log's (time, result or None for a
    deletion) in order; ``board`` the linked game's (time, result) when it has one. None: the
    game does not count (no result yet, or deleted)."""
    last = entries[-1] if entries else None
    if last is not None and last[1] is None:
        return None
    if board is not None and not board[1].is_decided:
        board = None
    if last is None:
        return None if board is None else board[1]
    if board is not None and board[0] > last[0]:
        return board[1]
    return last[1]
