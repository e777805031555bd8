"""Finding the legal move (or short sequence of moves) that explains a placement.

Only moves from squares whose content changed can explain a new placement, so candidates
are generated from those squares alone and compared as bitboards (``bench.reconstruct``
measures it; ``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from relay.domain.game.placement import Placement

#: Castling changes four squares; every other move two or three.
_MOST_SQUARES_PER_MOVE = 4


def find_move(board: chess.Board, target: Placement) -> chess.Move | None:
    """The legal move that turns ``board`` into ``target``, or None if there is none."""
    current = Placement.of_board(board)
    changed = current.changed_squares(target)
    if not changed or changed.bit_count() > _MOST_SQUARES_PER_MOVE:
        return None
    movers = changed & board.occupied_co[board.turn]
    for move in board.generate_legal_moves(from_mask=movers):
        board.push(move)
        hit = Placement.of_board(board) == target
        board.pop()
        if hit:
            return move
    return None


def within_a_move(current: Placement, target: Placement) -> bool:
    """Whether ``target`` differs from ``current`` on no more squares than one move, legal
    or not, changes: a board further off is not one move away."""
    return current.changed_squares(target).bit_count() <= _MOST_SQUARES_PER_MOVE


def moves_shown(board: chess.Board, placements: Sequence[Placement]) -> list[chess.Move]:
    """The moves a board showed one at a time: ``placements`` as it reported them, oldest
    first, read from ``board`` (left as it was).

    Each placement one legal move on from the game so far is that move, unless the next
    placement is a legal move from the same position too: then the man was only passing
    through (a slide: Bf1-e2-d3-c4 is Bc4). The rest are passed over: pieces in the air,
    a captured man lifted first (which can look like several plies that are not there). If
    the placements show ``board``'s own position, only what follows its last showing is
    read, so a position from earlier in the game that happens to be legal again is not
    taken for a new move.
    """
    decided = Placement.of_board(board)
    if decided in placements:
        last = max(index for index, shown in enumerate(placements) if shown == decided)
        placements = placements[last + 1 :]
    moves: list[chess.Move] = []
    try:
        for index, placement in enumerate(placements):
            following = placements[index + 1] if index + 1 < len(placements) else None
            if (
                following is not None
                and following != placement
                and find_move(board, following) is not None
            ):
                continue
            move = find_move(board, placement)
            if move is not None:
                board.push(move)
                moves.append(move)
    finally:
        for _ in moves:
            board.pop()
    return moves


def find_moves(
    board: chess.Board, target: Placement, max_plies: int = 3, min_plies: int = 1
) -> list[chess.Move]:
    """The shortest legal sequence of ``min_plies`` to ``max_plies`` moves reaching ``target``.

    Returns an empty list when nothing explains the placement. Used when a position was
    missed (pieces in the air, a busy line) and the board is already a move or two further.
    """
    for plies in range(min_plies, max_plies + 1):
        found = all_sequences(board, target, plies)
        if found:
            return found[0]
    return []


#: Longer sequences are searched only among men that end elsewhere (see all_sequences).
_EXHAUSTIVE_PLIES = 3


def all_sequences(board: chess.Board, target: Placement, plies: int) -> list[list[chess.Move]]:
    """Every legal sequence of exactly ``plies`` moves reaching ``target`` (transpositions
    give several: e5, Nf3, Nc6 and Nc6, Nf3, e5 end in the same position).

    Up to three plies every legal move is tried. Beyond that, a sequence's men start from
    squares ``target`` shows differently or from squares an earlier move of it landed on:
    this leaves out only a man that goes somewhere and comes back within the sequence, and
    keeps four plies to thousands of positions instead of millions.
    """
    changed = Placement.of_board(board).changed_squares(target)
    everywhere = chess.BB_ALL if plies <= _EXHAUSTIVE_PLIES else changed
    return _sequences(board, target, plies, everywhere)


def _sequences(
    board: chess.Board, target: Placement, plies: int, movable: int
) -> list[list[chess.Move]]:
    if plies == 1:
        move = find_move(board, target)
        return [] if move is None else [[move]]
    distance = Placement.of_board(board).changed_squares(target).bit_count()
    if distance > _MOST_SQUARES_PER_MOVE * plies:
        return []
    found: list[list[chess.Move]] = []
    for first in list(board.generate_legal_moves(from_mask=movable)):
        landed = movable | chess.BB_SQUARES[first.to_square]
        if board.is_castling(first):
            landed |= _ROOK_LANDINGS
        board.push(first)
        try:
            rest = _sequences(board, target, plies - 1, landed)
            found += [[first, *moves] for moves in rest]
        finally:
            board.pop()
    return found


#: Where a castling rook lands (a castling move names only the king's squares).
_ROOK_LANDINGS = chess.BB_D1 | chess.BB_F1 | chess.BB_D8 | chess.BB_F8


def find_sibling(board: chess.Board, target: Placement) -> chess.Move | None:
    """Another legal move in place of the last one that gives ``target``: the piece was
    first put down on the wrong square and then moved on."""
    if not board.move_stack:
        return None
    last = board.pop()
    try:
        move = find_move(board, target)
    finally:
        board.push(last)
    return move if move != last else None


def find_sibling_and_reply(board: chess.Board, target: Placement) -> list[chess.Move]:
    """Another move in place of the last one, moving the same man on (or castling with the
    rook that went first), then the opponent's reply, that together give ``target``; empty
    if none does. The board showed the man at a stop on its way long enough to be decided,
    and the opponent answered before the board showed where it really went."""
    if not board.move_stack:
        return []
    last = board.pop()
    try:
        for first, reply in all_sequences(board, target, 2):
            board.push(first)
            vacated = board.piece_at(last.from_square) is None
            board.pop()
            if first != last and vacated:
                return [first, reply]
        return []
    finally:
        board.push(last)
