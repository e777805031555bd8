"""A draw claimed on the electronic scoresheet (Laws 9.2, 9.3), checked by the hub.

The player to move claims a draw by threefold repetition or by the fifty-move rule, either
now (the position on the board qualifies) or with the move they are about to play, written
and not yet played (9.2.1.1, 9.3.1): the move is judged like any entry
(:mod:`relay.domain.game.entries`), so an illegal one comes back with the moves that fit.

* A correct claim proposes the draw for the arbiter (``result-proposed``, gesture
  ``claim``) with an ``alert`` ``draw-claim`` saying what was claimed; the intended move is
  not played: the game ends with the claim once the arbiter confirms it (9.5.2).
* A wrong claim is an ``alert`` ``wrong-claim`` for the arbiter, who gives the opponent
  time (9.5.3; the clock desk proposes it); a claim made with a move records the move, which
  must be played (9.5.3).

Every claim names the ply of the move it goes with (the next one), so a device that sends
its queue again has a claim already made acknowledged, never recorded twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from relay.domain.errors import RefusedError
from relay.domain.game.entries import (
    Accepted,
    board_before,
    move_events,
    parse_entry,
    replayed,
)
from relay.domain.game.events import ArbiterAlert, GameEvent, ResultProposed
from relay.domain.game.laws import Repetitions
from relay.domain.game.record import GameRecord
from relay.domain.game.score_check import move_label
from relay.domain.results import Result

RULES = ("threefold", "fifty-moves")
#: The alerts a claim leaves for the arbiter.
CORRECT, WRONG = "draw-claim", "wrong-claim"
_RULE_WORDS = {"threefold": "threefold repetition", "fifty-moves": "the fifty-move rule"}
_PROPOSED = "; the draw is proposed for the arbiter (9.5.2)"


class DrawClaimError(ValueError, RefusedError):
    """A claim that does not fit the game as it stands (over, for another ply, made twice)."""


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """What the hub made of a claim: ``correct`` or not, in ``words`` for the arbiter and
    the players; ``repeated`` when the same claim was made before (nothing recorded)."""

    ply: int
    player: str
    rule: str
    #: The intended move as SAN; None for a claim without a move.
    san: str | None
    correct: bool
    words: str
    repeated: bool = False


def claim_events(
    record: GameRecord, *, ply: int, rule: str, move: str | None, at: float
) -> tuple[ClaimVerdict, list[GameEvent]]:
    """Judge a claim by the player to move for ``ply`` (the ply of the move it goes with),
    by ``rule``, with the intended ``move`` (text as written) or none; the events to record."""
    if rule not in RULES:
        raise DrawClaimError(f"rule {rule!r}: one of {', '.join(RULES)}")
    board, repetitions = replayed(record)
    entered = len(board.move_stack)
    if ply < 1 or ply > entered + 1:
        raise DrawClaimError(
            f"a claim goes with the next move: the game has {entered} plies, so ply "
            f"{entered + 1}, not {ply}"
        )
    if ply <= entered:
        return _made_before(record, board, ply, rule, move), []
    player = "white" if board.turn == chess.WHITE else "black"
    accepted: Accepted | None = None
    if move is not None:
        parsed = parse_entry(board, move)  # IllegalEntryError: with the moves that fit
        after = board.copy(stack=False)
        after.push(parsed)
        accepted = Accepted(ply, parsed, board.san(parsed), after.fen())
    claim = _claim_words(ply, player, rule, accepted.san if accepted else None)
    for alert in record.alerts:
        if alert.ply == ply and alert.alert in (CORRECT, WRONG):
            if alert.detail.startswith(f"{claim}: "):
                verdict = _verdict(ply, player, rule, accepted, alert)
                return verdict, []
            if alert.alert == CORRECT:
                raise DrawClaimError(f"a draw claim waits for the arbiter: {alert.detail}")
    if record.result.is_decided:
        raise DrawClaimError(f"the game is over ({record.result}): no draw to claim")
    correct, why = _judge(board, repetitions, rule, accepted)
    words = f"{claim}: {why}"
    alert = ArbiterAlert(alert=CORRECT if correct else WRONG, detail=words, ply=ply, at=at)
    events: list[GameEvent] = [alert]
    if correct:
        events.append(ResultProposed(result=Result.DRAW, gesture="claim", at=at))
    elif accepted is not None:
        events += move_events(record, board, repetitions, accepted, at)
    return ClaimVerdict(
        ply, player, rule, accepted.san if accepted else None, correct, words
    ), events


def _made_before(
    record: GameRecord, board: chess.Board, ply: int, rule: str, move: str | None
) -> ClaimVerdict:
    """A claim for a ply already entered: a wrong claim with that very move, sent again
    (acknowledged), or a conflict."""
    before = board_before(board, ply)
    standing = board.move_stack[ply - 1]
    player = "white" if before.turn == chess.WHITE else "black"
    if move is not None:
        parsed = parse_entry(before, move)
        if parsed == standing:
            claim = _claim_words(ply, player, rule, before.san(parsed))
            for alert in record.alerts:
                if (
                    alert.ply == ply
                    and alert.alert == WRONG
                    and alert.detail.startswith(f"{claim}: ")
                ):
                    return ClaimVerdict(
                        ply, player, rule, before.san(parsed), False, alert.detail, True
                    )
    raise DrawClaimError(
        f"ply {ply} already holds {before.san(standing)}: a claim goes with the next move, "
        f"ply {len(board.move_stack) + 1}"
    )


def _verdict(
    ply: int, player: str, rule: str, accepted: Accepted | None, alert: ArbiterAlert
) -> ClaimVerdict:
    san = accepted.san if accepted else None
    return ClaimVerdict(ply, player, rule, san, alert.alert == CORRECT, alert.detail, True)


def _judge(
    board: chess.Board, repetitions: Repetitions, rule: str, accepted: Accepted | None
) -> tuple[bool, str]:
    """Whether the claim is correct, and why in words."""
    after = board.copy()
    if accepted is not None:
        after.push(accepted.move)
        repetitions.push(after)
    try:
        if rule == "threefold":
            times = repetitions.current
            if times >= 3:
                return True, f"correct, the position occurs for the {_nth(times)} time{_PROPOSED}"
            occurs = "would occur" if accepted else "has occurred"
            return (
                False,
                f"wrong, the position {occurs} {_times(times)}; {_penalty(after, accepted)}",
            )
        moves = after.halfmove_clock // 2
        quiet = "without a capture or a pawn move"
        if after.halfmove_clock >= 100:
            return True, f"correct, {moves} moves by each player {quiet}{_PROPOSED}"
        return (
            False,
            f"wrong, only {moves} moves by each player {quiet}; {_penalty(after, accepted)}",
        )
    finally:
        if accepted is not None:
            repetitions.pop()


def _penalty(after: chess.Board, accepted: Accepted | None) -> str:
    """What follows a wrong claim (9.5.3), for the claimant (the side that moved last in
    ``after`` when the claim came with a move)."""
    claimant = after.turn if accepted is None else not after.turn
    opponent = "Black" if claimant == chess.WHITE else "White"
    stands = "the move stands and " if accepted else ""
    return f"{stands}the arbiter gives {opponent} time (9.5.3)"


def _claim_words(ply: int, player: str, rule: str, san: str | None) -> str:
    """ "White claims a draw by threefold repetition with 31. Nf3": the same words for the
    same claim, so a claim sent again is recognised."""
    words = f"{player.capitalize()} claims a draw by {_RULE_WORDS[rule]}"
    if san is None:
        return words
    return f"{words} with {move_label(ply)} {san}"


def _nth(times: int) -> str:
    return {3: "third", 4: "fourth", 5: "fifth"}.get(times, f"{times}th")


def _times(times: int) -> str:
    return {1: "once", 2: "twice"}.get(times, f"{times} times")
