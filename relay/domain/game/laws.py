"""The laws the hub applies to a game (``docs/laws.md``): what ends it, what is only shown.

Ends the game: checkmate, stalemate, dead position by material, fivefold repetition, the
75-move rule, a flag fall. Shown for the arbiter and never a result: threefold repetition
and the fifty-move rule ("claimable now" or "claimable with move X"), a locked position no
material rule sees, a completed illegal move with its proposed penalty.

``chess.Board.outcome(claim_draw=True)`` reports claimable draws as results and its
repetition checks replay the move stack, so repetitions are counted here, once per move,
in a :class:`Repetitions` table of position keys.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

import chess

from relay.domain.clock.time_control import GameClass, TimeControl
from relay.domain.game.events import Claim, GameEnded
from relay.domain.game.matching import find_move
from relay.domain.game.placement import Placement
from relay.domain.results import Result

#: A position for the repetition rules (9.2.3): pieces, side to move, castling rights and
#: an en passant capture that is actually possible.
PositionKey = tuple[int, int, int, int, int, int, int, int, bool, int, int]


class BothFlagsRule(Enum):
    """What an event announced for both flags down (6.8, III.3.1, lightning rules)."""

    ARBITER = "arbiter"  # shown; the arbiter decides
    DRAW = "draw"  # lightning (seed 003): both flags down is a draw
    FIRST_FALLS = "first-falls"  # the e-clock's order decides: the first flag loses


@dataclass(frozen=True, slots=True)
class Rules:
    """What an event announced that changes how its games are judged."""

    time_class: GameClass = GameClass.STANDARD
    both_flags: BothFlagsRule = BothFlagsRule.ARBITER
    #: The "clock move" rule (seed 003): a move exists only once the clock is pressed.
    moves_need_press: bool = False


def rules_for(control: TimeControl) -> Rules:
    """The rules a time control brings: the FIDE class for penalties (A.1, B.1; standard
    when unknown) and, for lightning chess (G/1, seed 003), both flags down a draw and the
    "clock move" rule."""
    if control.is_lightning:
        return Rules(GameClass.BLITZ, BothFlagsRule.DRAW, moves_need_press=True)
    return Rules(time_class=control.classify() or GameClass.STANDARD)


def position_key(board: chess.Board) -> PositionKey:
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else -1
    return (
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.turn,
        board.clean_castling_rights(),
        ep,
    )


def _key_placement(key: PositionKey) -> Placement:
    return Placement(*key[:8])


class Repetitions:
    """How often each position of the game has occurred, kept in step with its moves."""

    def __init__(self, board: chess.Board) -> None:
        self._keys: list[PositionKey] = [position_key(board)]
        self._counts: Counter[PositionKey] = Counter(self._keys)

    def push(self, board: chess.Board) -> None:
        """Count the position ``board`` reached with the move just pushed."""
        key = position_key(board)
        self._keys.append(key)
        self._counts[key] += 1

    def pop(self) -> None:
        """Forget the last position (the move that led to it was withdrawn)."""
        key = self._keys.pop()
        self._counts[key] -= 1

    @property
    def current(self) -> int:
        """How many times the current position has occurred, this time included."""
        return self._counts[self._keys[-1]]

    def completing_moves(self, board: chess.Board) -> list[chess.Move]:
        """Moves of the player to move that would make a position occur the third time.

        Only positions seen twice qualify, and only those one move away from the current
        placement, so the legal moves are matched against a handful of candidates at most.
        """
        current = Placement.of_board(board)
        moves: list[chess.Move] = []
        for key, count in self._counts.items():
            if count < 2 or key[8] == board.turn:
                continue
            target = _key_placement(key)
            if (current.changed_squares(target)).bit_count() > 4:
                continue
            move = find_move(board, target)
            if move is None:
                continue
            board.push(move)
            hit = position_key(board) == key
            board.pop()
            if hit:
                moves.append(move)
        return moves


def ending(board: chess.Board, repetitions: Repetitions, at: float) -> GameEnded | None:
    """The result the laws impose on the position just reached, if any."""
    if not any(board.generate_legal_moves()):
        if board.is_check():
            winner = Result.win_for(not board.turn)
            return GameEnded(result=winner, termination="checkmate", at=at)
        return GameEnded(result=Result.DRAW, termination="stalemate", at=at)
    if board.is_insufficient_material():
        return GameEnded(result=Result.DRAW, termination="insufficient material", at=at)
    if repetitions.current >= 5:
        return GameEnded(result=Result.DRAW, termination="fivefold repetition", at=at)
    if board.halfmove_clock >= 150:
        return GameEnded(result=Result.DRAW, termination="seventy-five moves", at=at)
    return None


def claims(board: chess.Board, repetitions: Repetitions) -> tuple[Claim, ...]:
    """The draws the player to move may claim now, or by writing one of the moves shown."""
    found: list[Claim] = []
    if repetitions.current >= 3:
        found.append(Claim(rule="threefold", now=True))
    else:
        moves = repetitions.completing_moves(board)
        if moves:
            found.append(Claim(rule="threefold", now=False, moves=_sans(board, moves)))
    if board.halfmove_clock >= 100:
        found.append(Claim(rule="fifty-moves", now=True))
    elif board.halfmove_clock == 99:
        quiet = [
            move
            for move in board.generate_legal_moves()
            if not board.is_capture(move) and board.piece_type_at(move.from_square) != chess.PAWN
        ]
        if quiet:
            found.append(Claim(rule="fifty-moves", now=False, moves=_sans(board, quiet)))
    return tuple(found)


def _sans(board: chess.Board, moves: list[chess.Move]) -> tuple[str, ...]:
    return tuple(sorted(board.san(move) for move in moves))


def flag_result(board: chess.Board, fallen: chess.Color) -> tuple[Result, str]:
    """Result and termination when ``fallen``'s flag falls (6.9)."""
    opponent = not fallen
    if board.has_insufficient_material(opponent):
        return Result.DRAW, "flag fall, opponent cannot checkmate"
    return Result.win_for(opponent), "flag fall"


def illegal_move_penalty(rules: Rules, count: int) -> tuple[str, int]:
    """The penalty proposed for a player's ``count``-th completed illegal move (7.5.5, A.3)."""
    if count >= 2:
        return "loss", 0
    return "add-time", 120 if rules.time_class == GameClass.STANDARD else 60


def locked_position(board: chess.Board) -> bool:
    """True for a position no material rule sees as dead but no king can ever break into:
    only kings and pawns, every pawn blocked by an enemy pawn, no pawn capture possible, and
    neither king able to reach an enemy pawn it could take. A heuristic for the arbiter
    (5.2.2): it flags, it never ends a game.
    """
    if board.occupied != board.pawns | board.kings or not board.pawns:
        return False
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    if (white_pawns << 8) & chess.BB_ALL != black_pawns or (black_pawns >> 8) != white_pawns:
        return False  # some pawn is free to advance, or stands unopposed
    white_attacks = _pawn_attacks(white_pawns, chess.WHITE)
    black_attacks = _pawn_attacks(black_pawns, chess.BLACK)
    if white_attacks & black_pawns or black_attacks & white_pawns:
        return False
    for colour, enemy_pawns, enemy_attacks in (
        (chess.WHITE, black_pawns, black_attacks),
        (chess.BLACK, white_pawns, white_attacks),
    ):
        king = board.king(colour)
        if king is None:
            return False
        walls = board.pawns | enemy_attacks
        region = _flood(chess.BB_SQUARES[king], ~walls & chess.BB_ALL)
        prey = enemy_pawns & ~enemy_attacks
        if _neighbours(region) & prey:
            return False
    return True


def _pawn_attacks(pawns: int, colour: chess.Color) -> int:
    attacks = 0
    for square in chess.scan_forward(pawns):
        attacks |= chess.BB_PAWN_ATTACKS[colour][square]
    return attacks


def _neighbours(mask: int) -> int:
    around = 0
    for square in chess.scan_forward(mask):
        around |= chess.BB_KING_ATTACKS[square]
    return around


def _flood(start: int, free: int) -> int:
    region = start
    while True:
        grown = region | (_neighbours(region) & free)
        if grown == region:
            return region
        region = grown
