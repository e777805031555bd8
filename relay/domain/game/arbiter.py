"""The arbiter's actions on a game, checked against its record before they are logged."""

from __future__ import annotations

import chess

from relay.domain.errors import RefusedError
from relay.domain.game.events import MovesReplaced, ResultSet, ResultVerified
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.domain.vocabulary import UnknownWordError


class ArbiterActionError(ValueError, RefusedError):
    """An action that does not fit the game (an illegal move, a result to verify that is not
    there); the message is for the arbiter."""


def set_result(
    record: GameRecord, *, result: Result, by: str, reason: str, at: float, forfeit: bool = False
) -> ResultSet:
    """An arbiter's result; ``forfeit``: the game was not played and ``result`` gives the
    point to the player who was there (a double forfeit has no result here)."""
    result = _known(result)
    if forfeit and result.winner is None:
        raise ArbiterActionError("a forfeit is won by one side: 1-0 or 0-1")
    if forfeit and record.moves:
        raise ArbiterActionError(f"the game has {len(record.moves)} plies: it was played")
    return ResultSet(result=result, by=by, reason=reason, at=at, forfeit=forfeit)


def verify_result(record: GameRecord, *, result: Result, by: str, at: float) -> ResultVerified:
    """Confirm the result the game has now; ``result`` guards against verifying a stale one."""
    if not record.result.is_decided:
        raise ArbiterActionError("the game has no result to verify")
    if result != record.result:
        raise ArbiterActionError(f"the game's result is {record.result}, not {result}")
    return ResultVerified(result=record.result, by=by, at=at)


def _known(result: str) -> Result:
    """``result`` as a :class:`Result`, refused for the arbiter when it is none (a caller
    that passed text past the type checker)."""
    try:
        return Result.parse(result)
    except UnknownWordError as error:
        raise ArbiterActionError(str(error)) from None


def replace_moves(
    record: GameRecord, *, ply: int, san: list[str], by: str, reason: str, at: float
) -> MovesReplaced:
    """Replace the moves from ``ply`` (1 = White's first) with ``san``; empty takes back."""
    if not 1 <= ply <= len(record.moves) + 1:
        raise ArbiterActionError(f"ply {ply} is not in a game of {len(record.moves)} plies")
    board = chess.Board()
    for played in record.moves[: ply - 1]:
        board.push_uci(played.uci)
    uci: list[str] = []
    for number, text in enumerate(san, start=ply):
        try:
            move = board.parse_san(text)
        except ValueError:
            raise ArbiterActionError(f"ply {number}: {text!r} is not a legal move here") from None
        uci.append(move.uci())
        board.push(move)
    return MovesReplaced(ply=ply, uci=tuple(uci), by=by, reason=reason, at=at)
