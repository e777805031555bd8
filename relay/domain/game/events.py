"""The events of a game's log and their stored form.

A game's state is a fold of these events (:mod:`relay.domain.game.record`). Each event
turns into a ``(kind, data)`` pair of plain JSON values for storage and streaming, and back.

Two families:

* logged events change or annotate the game and are stored in its log: moves, corrections,
  a move's time at a press that came after it was decided, takebacks, restarts, results,
  result proposals, completed illegal moves, claims and alerts for the arbiter, the clocks
  (started, paused, resumed, a time changed, which side White's is, a flag fallen), the
  game-input desk's notes and status, and the arbiter's own actions (a result set or
  verified, moves replaced), which say who did them and why;
* notices describe the board, not the game (a piece in the air, a board turned round). They
  are neither stored nor streamed (the board session keeps them to itself): nothing in a
  game's state depends on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.errors import InvalidInputError
from relay.domain.results import Result


class EventFormatError(ValueError, InvalidInputError):
    """A stored event that cannot be read back (unknown kind, missing or wrong fields)."""


@dataclass(frozen=True, slots=True)
class MoveMade:
    """A move was played on the board. ``at`` is when it was decided, in Unix seconds.

    ``recovered`` marks a move the board was never seen to make: it was inferred because
    the position is two or three legal plies ahead (pieces in the air, a link down).
    ``confirmed`` marks a move decided by the mover's clock press. ``clock`` is the mover's
    remaining time in seconds as the clock showed it at the mover's own press for this
    move, when that press came before the move was decided or with it: the PGN's ``%clk``
    (None without it). ``unclocked`` marks a move decided on a board whose clock was read
    before its mover pressed: it carries no time until a :class:`MoveClocked` brings the
    reading at that press (and none ever, if the press never comes), never another reading
    or the hub's count. ``untimed`` marks a move keyed from a paper scoresheet after it was
    played (docs/game-input.md): ``at`` is when it was keyed, which says nothing of the
    players' times, so the hub's count charges no one for it. ``unclocked`` and ``untimed``
    are stored only when true.
    """

    kind: ClassVar[str] = "move"
    ply: int
    uci: str
    san: str
    fen: str
    at: float
    recovered: bool = False
    confirmed: bool = False
    clock: float | None = None
    untimed: bool = False
    unclocked: bool = False


@dataclass(frozen=True, slots=True)
class MoveCorrected:
    """The last move is replaced by a sibling: the piece was first put on the wrong square
    (a dragged rook stopping on e3 on its way to e7)."""

    kind: ClassVar[str] = "correction"
    ply: int
    uci: str
    san: str
    fen: str
    replaced: str  # the uci of the move this one replaces
    at: float
    clock: float | None = None  # as in MoveMade: the press belongs to the move it ends
    unclocked: bool = False  # as in MoveMade


@dataclass(frozen=True, slots=True)
class MoveClocked:
    """The mover of ``ply`` pressed the clock after the move was decided (a player lets go
    of the piece, looks, perhaps writes the move down, then presses): ``clock`` is their time
    as the clock showed it at that press, the move's ``%clk`` from now on, increment and
    time added included where the clock adds them at the press. ``at`` is the press, in Unix
    seconds: the move ended on the clock then, and the opponent's time ran from it.

    Only ever for a move published without a time (``unclocked``), and only for the
    mover's first press after it, before the next move is decided.
    """

    kind: ClassVar[str] = "move-clock"
    ply: int
    clock: float
    at: float


@dataclass(frozen=True, slots=True)
class TakenBack:
    """The board went back to the position after ``ply``; later moves are withdrawn."""

    kind: ClassVar[str] = "takeback"
    ply: int
    fen: str
    at: float


@dataclass(frozen=True, slots=True)
class NewGame:
    """The start position appeared on a board that had a game on it."""

    kind: ClassVar[str] = "new-game"
    rotated: bool
    at: float


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The laws ended the game (checkmate, stalemate, dead position, repetition, flag)."""

    kind: ClassVar[str] = "end"
    result: Result
    termination: str
    at: float


@dataclass(frozen=True, slots=True)
class ResultProposed:
    """The players showed a result (kings on the centre squares, or a marker piece).

    Never a move, never a result by itself: the arbiter confirms it.
    """

    kind: ClassVar[str] = "result-proposed"
    result: Result
    gesture: str  # "kings" or "marker"; "scoresheet": keyed from the paper scoresheet
    # (the electronic scoresheet: "claim", a correct draw claim; "agreed", both players)
    at: float


@dataclass(frozen=True, slots=True)
class IllegalMoveCompleted:
    """A player pressed the clock after an illegal move (7.5). The penalty is proposed;
    the arbiter confirms it. ``count`` is this player's completed illegal moves so far."""

    kind: ClassVar[str] = "illegal-move"
    player: str  # "white" or "black"
    count: int
    penalty: str  # "add-time" (to the opponent) or "loss"
    seconds: int  # time proposed for the opponent; 0 with a loss
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class Claim:
    """A draw the player to move could claim (9.2, 9.3): now, or by writing ``moves``."""

    rule: str  # "threefold" or "fifty-moves"
    now: bool
    moves: tuple[str, ...] = ()  # SAN of the moves that would make the claim valid


@dataclass(frozen=True, slots=True)
class ClaimsChanged:
    """The draws claimable after ``ply`` (empty when none is any longer)."""

    kind: ClassVar[str] = "claims"
    ply: int
    claims: tuple[Claim, ...]
    at: float


@dataclass(frozen=True, slots=True)
class ArbiterAlert:
    """Something the arbiter should look at; the game goes on as the tracker knows it.

    Kinds: ``illegal-position`` (nothing legal explains the board), ``position-restored``
    (the board is back on a legal position), ``pawn-on-last-rank`` (7.5.2),
    ``promotion-assumed`` (a queen was assumed for a piece the board cannot tell),
    ``dead-position`` (a locked position no material rule sees), ``both-flags``;
    ``draw-claim`` and ``wrong-claim`` (a draw claimed on the scoresheet, correct or not:
    :mod:`relay.domain.game.draw_claims`); ``uncertain-order``: plies caught up after the
    board was not seen make them (a link down, an agent restarted) and more than one order of
    legal moves explains the jump as well as the one recorded: ``ply`` is the first of them,
    and ``orders`` the other orders, each in SAN from that ply (the arbiter's correction
    replaces the moves with one of them).
    """

    kind: ClassVar[str] = "alert"
    alert: str
    detail: str
    ply: int
    at: float
    orders: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class ResultSet:
    """An arbiter entered or changed the result (it overrides what the board ended with)."""

    kind: ClassVar[str] = "result"
    result: Result
    by: str
    reason: str
    at: float
    #: The game was not played: the winner wins by forfeit (TRF ``+``/``-``).
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class ResultVerified:
    """An arbiter confirmed the game's result; only verified results count in public standings."""

    kind: ClassVar[str] = "verified"
    result: Result
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class MovesReplaced:
    """An arbiter replaced the game's moves from ``ply`` on (``uci``, may be empty: a
    takeback) after checking the scoresheets."""

    kind: ClassVar[str] = "arbiter-correction"
    ply: int
    uci: tuple[str, ...]
    by: str
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class ClocksStarted:
    """The clocks were set to these times (seconds) and the side to move's clock started:
    the arbiter's central start, acknowledged by the clock, or the hub's own timing for a
    game without an e-clock."""

    kind: ClassVar[str] = "clocks-started"
    white: float
    black: float
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class ClocksPaused:
    """The arbiter stopped both clocks (a dispute, a disturbance)."""

    kind: ClassVar[str] = "clocks-paused"
    by: str
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class ClocksResumed:
    """The arbiter restarted the clock of the side to move."""

    kind: ClassVar[str] = "clocks-resumed"
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class TimeAdjusted:
    """A player's time was changed: ``change`` is ``add``, ``subtract`` or ``set``.

    ``cause`` says why in the Laws' terms: ``arbiter`` (a correction, 6.10), ``illegal-move``
    (two minutes, or one in rapid and blitz, to the opponent: 7.5.5, A.4.2), ``wrong-claim``
    (the same to the opponent of a player whose claim was wrong: 9.5.3), ``increment``
    (the increment earned by an illegal move's press taken back). ``reason`` is the
    arbiter's own words; ``by`` who confirmed it.
    """

    kind: ClassVar[str] = "time"
    player: str  # "white" or "black"
    change: str
    seconds: float
    cause: ClockChangeCause
    reason: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class ClockSideDecided:
    """Which side of the clock White sits on, from now on: ``white_on`` is ``left`` or
    ``right`` (facing the clock's display); ``source`` is ``setting`` (the board's clock
    setting) or ``auto`` (decided from the clock's presses; :mod:`relay.domain.clock.orientation`
    says how), ``reason`` says why in words.

    ``clocks`` holds ``(ply, seconds)`` for moves decided before, read again with these
    sides: the mover's time as the clock showed it when the move was decided, where it
    had been read from the other side.
    """

    kind: ClassVar[str] = "clock-side"
    white_on: str  # "left" or "right"
    source: str  # "setting" or "auto"
    reason: str
    at: float
    clocks: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True, slots=True)
class FlagFell:
    """A player's time ran out (6.9), as the e-clock showed it at ``at``."""

    kind: ClassVar[str] = "flag"
    player: str  # "white" or "black"
    at: float


@dataclass(frozen=True, slots=True)
class DrawOffered:
    """A draw offer on the electronic scoresheet (9.1.2): ``action`` is ``offer``,
    ``accept``, ``decline`` or ``withdraw``, by ``player``. An accepted offer proposes the
    draw; the arbiter confirms it like any result."""

    kind: ClassVar[str] = "draw"
    player: str  # "white" or "black"
    action: str
    at: float


@dataclass(frozen=True, slots=True)
class NoteAdded:
    """A note on the game from its paper scoresheet, keyed at the game-input desk ("rest of
    score indecipherable", a draw offer ``(=)``, a time written down): it belongs after
    ``ply`` (0: before the first move) and is a comment there in the game's PGN."""

    kind: ClassVar[str] = "note"
    ply: int
    text: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class InputStatusSet:
    """The game-input desk's status of a game keyed from its scoresheet: ``keyed`` (every
    move on the scoresheet is in, by ``by``) or ``checked`` (a second keyer, ``by``, read
    the keyed game against the scoresheet). A later change to the moves makes it a game to
    key again (:mod:`relay.domain.game.keying`)."""

    kind: ClassVar[str] = "input-status"
    status: str  # "keyed" or "checked"
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class Waiting:
    """Notice: the board shows part of an expected position (a piece in a hand, a piece
    knocked over). Nothing is decided until it changes."""

    kind: ClassVar[str] = "waiting"
    missing: tuple[str, ...]  # squares expected to hold a piece, e.g. ("g1",)
    at: float


@dataclass(frozen=True, slots=True)
class BoardRotated:
    """Notice: the board was found set up the wrong way round (or turned back)."""

    kind: ClassVar[str] = "rotated"
    rotated: bool
    at: float


LoggedEvent = (
    MoveMade
    | MoveCorrected
    | MoveClocked
    | TakenBack
    | NewGame
    | GameEnded
    | ResultProposed
    | IllegalMoveCompleted
    | ClaimsChanged
    | ArbiterAlert
    | ResultSet
    | ResultVerified
    | MovesReplaced
    | ClocksStarted
    | ClocksPaused
    | ClocksResumed
    | TimeAdjusted
    | ClockSideDecided
    | FlagFell
    | DrawOffered
    | NoteAdded
    | InputStatusSet
)
Notice = Waiting | BoardRotated
GameEvent = LoggedEvent | Notice

_LOGGED: dict[str, type[LoggedEvent]] = {
    cls.kind: cls
    for cls in (
        MoveMade,
        MoveCorrected,
        MoveClocked,
        TakenBack,
        NewGame,
        GameEnded,
        ResultProposed,
        IllegalMoveCompleted,
        ClaimsChanged,
        ArbiterAlert,
        ResultSet,
        ResultVerified,
        MovesReplaced,
        ClocksStarted,
        ClocksPaused,
        ClocksResumed,
        TimeAdjusted,
        ClockSideDecided,
        FlagFell,
        DrawOffered,
        NoteAdded,
        InputStatusSet,
    )
}
_NOTICES: dict[str, type[Notice]] = {cls.kind: cls for cls in (Waiting, BoardRotated)}
#: The events that carry a result, stored as its word.
_WITH_RESULT: frozenset[type[LoggedEvent]] = frozenset(
    {GameEnded, ResultProposed, ResultSet, ResultVerified}
)
#: Every kind of logged event, one class each (the stored and streamed ones).
LOGGED_EVENTS: tuple[type[LoggedEvent], ...] = tuple(_LOGGED.values())


def is_logged(event: GameEvent) -> bool:
    """True for events that belong in the game's log (not notices)."""
    return event.kind in _LOGGED


def event_data(event: GameEvent) -> dict[str, Any]:
    """The JSON-ready fields of an event (its kind is stored beside them). A move's
    ``untimed`` and ``unclocked`` are left out when false, and an alert's ``orders`` when
    empty, as every event stored before them has them."""
    data = asdict(event)
    if isinstance(event, ArbiterAlert) and not event.orders:
        del data["orders"]
    if isinstance(event, MoveMade | MoveCorrected):
        for flag in ("untimed", "unclocked"):
            if flag in data and not data[flag]:
                del data[flag]
    return data


def event_from_data(kind: str, data: Mapping[str, Any]) -> GameEvent:
    """Rebuild an event from its stored kind and fields."""
    cls = _LOGGED.get(kind) or _NOTICES.get(kind)
    if cls is None:
        raise EventFormatError(f"unknown event kind {kind!r}")
    try:
        if cls is ClaimsChanged:
            claims = tuple(_claim(item) for item in data["claims"])
            return ClaimsChanged(ply=data["ply"], claims=claims, at=data["at"])
        if cls is Waiting:
            return Waiting(missing=tuple(data["missing"]), at=data["at"])
        if cls is MovesReplaced:
            return MovesReplaced(**{**data, "uci": tuple(data["uci"])})
        if cls is ArbiterAlert:
            orders = tuple(tuple(order) for order in data.get("orders", ()))
            return ArbiterAlert(**{**data, "orders": orders})
        if cls is ClockSideDecided:
            clocks = tuple((int(ply), float(seconds)) for ply, seconds in data.get("clocks", ()))
            return ClockSideDecided(**{**data, "clocks": clocks})
        if cls in _WITH_RESULT:
            return cls(**{**data, "result": Result.parse(data["result"])})
        if cls is TimeAdjusted:
            return TimeAdjusted(**{**data, "cause": ClockChangeCause.parse(data["cause"])})
        return cls(**data)
    except (TypeError, KeyError, ValueError) as error:
        raise EventFormatError(f"{kind} event: {error}") from None


def _claim(item: Mapping[str, Any]) -> Claim:
    names = {field.name for field in fields(Claim)}
    if set(item) - names:
        raise TypeError(f"unexpected claim fields {sorted(set(item) - names)}")
    return Claim(rule=item["rule"], now=item["now"], moves=tuple(item.get("moves", ())))
