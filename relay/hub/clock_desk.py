"""The arbiter's clock control: start a round's clocks centrally, pause and resume them,
change a player's time.

Every command goes to the board's clock (a DGT 3000 set-and-run) and is reported per board
with the clock's answer: *started* (acknowledged), *refused* (the clock said no: not in
mode 23), *no acknowledgement* (the driver resent it and gave up), *no clock* (none is
plugged into the board), *no board* (none follows the game). What a clock obeyed is
appended to the game's log (clocks started, paused, resumed; a time changed), so every view
and the PGN's ``%clk`` follow it.

A time change takes two steps (seed 004 ch. 17 item 8: only by a positive act): the arbiter
asks for it with a reason and is shown the time before and after; nothing happens until
the arbiter confirms, within :data:`CONFIRM_SECONDS`. The change is recorded with who,
when and why, audited, and sent to the clock.

Clocks are addressed by side (left, right). Which side is White's is each board's, as its
session reads the clock (:attr:`BoardSession.white_on`: the board's clock setting, or what
the presses decided; the left while an ``auto`` board has no evidence yet): the central
start runs White's side, a resume the side to move, a time change goes to the player's
side. The hub sets the times and which side runs; the clock's own bonus setting (Fischer,
Bronstein, delay) is the arbiter's to choose on the clock before the round.
"""

from __future__ import annotations

import asyncio
import functools
import math
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from drivers.events import ClockReading, RunMode, SetAndRun
from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.clock.game_clock import colour_of
from relay.domain.clock.orientation import Side, other_side
from relay.domain.clock.penalties import PenaltyError, illegal_move_changes, wrong_claim_change
from relay.domain.clock.time_control import TimeControl
from relay.domain.errors import RefusedError
from relay.domain.game.events import (
    ClocksPaused,
    ClocksResumed,
    ClocksStarted,
    GameEvent,
    TimeAdjusted,
)
from relay.domain.vocabulary import UnknownWordError
from relay.hub.board_session import BoardSession, ClockAnswer
from relay.hub.game_views import GameView, GameViews
from relay.hub.recorder import GameRecorder, audited
from relay.store.access import Identity
from relay.store.tournaments import game_pairing, list_games

#: How long a proposed time change waits for the arbiter's confirmation.
CONFIRM_SECONDS = 120.0
#: The longest wait for a clock's answer (the driver resends and gives up well before).
ANSWER_SECONDS = 30.0
CHANGES = ("add", "subtract", "set")
MAX_CLOCK_SECONDS = 9 * 3600 + 59 * 60 + 59


class ClockControlError(ValueError, RefusedError):
    """A clock action that cannot be done (no time control, a bad change, an old token)."""


class Outcome(Enum):
    STARTED = "started"
    PAUSED = "paused"
    RESUMED = "resumed"
    CHANGED = "changed"
    REFUSED = "refused"
    NO_ACK = "no acknowledgement"
    NO_CLOCK = "no clock"
    NO_BOARD = "no board"
    #: A game with no electronic board (its moves are entered by hand): the hub's own
    #: count of its times was started, paused or resumed; no clock was told.
    HUB_TIMED = "timed by the hub"


@dataclass(frozen=True, slots=True)
class BoardReport:
    game_id: int
    board: int
    outcome: Outcome
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TimeChange:
    """A time change waiting for the arbiter's confirmation."""

    token: str
    game_id: int
    player: str
    change: str
    seconds: float
    cause: ClockChangeCause
    reason: str
    before: float
    after: float
    asked_by: str
    expires: float


@dataclass
class RoundClocks:
    """The last central action on a round's clocks, and a start waiting for its time."""

    action: str = ""
    reports: list[BoardReport] = field(default_factory=list)
    at: float | None = None
    scheduled_at: float | None = None
    scheduled: asyncio.Task[list[BoardReport]] | None = None


class ClockDesk:
    """Clock actions over the hub's board sessions (``sessions`` is the hub's live map)."""

    def __init__(
        self, recorder: GameRecorder, views: GameViews, sessions: Mapping[int, BoardSession]
    ) -> None:
        self._recorder = recorder
        self._views = views
        self._sessions = sessions
        self._changes: dict[str, TimeChange] = {}
        self.rounds: dict[int, RoundClocks] = {}

    # Starting, pausing, resuming

    async def start(
        self, *, round_id: int, game_ids: Sequence[int] | None = None, who: Identity
    ) -> list[BoardReport]:
        """Set every chosen clock to the time control's starting time and start White's."""
        games, by_hand = await self._games(round_id, game_ids)
        control = await self._control(round_id, games)
        seconds = _clock_seconds(control.starting_seconds)
        pending = []
        for game_id, board in games:
            if self._by_hand(game_id, by_hand):
                started = functools.partial(ClocksStarted, seconds, seconds, who.user)
                pending.append(self._hub_timed(game_id, started, who, "start-clocks"))
                continue
            white = self._side(game_id, "white")
            pending.append(
                self._command(
                    game_id,
                    board,
                    SetAndRun(seconds, seconds, _run(white), lever_toggles=True),
                    Outcome.STARTED,
                    lambda at: ClocksStarted(seconds, seconds, who.user, at),
                    who,
                    "start-clocks",
                    runs=white,
                )
            )
        reports = await asyncio.gather(*pending)
        return self._done(round_id, "start", list(reports))

    def schedule_start(
        self, *, round_id: int, at: float, game_ids: Sequence[int] | None, who: Identity
    ) -> RoundClocks:
        """Start the round's clocks at ``at`` (Unix seconds): a countdown the views show."""
        if at <= time.time():
            raise ClockControlError("a scheduled start must be in the future")
        state = self.rounds.setdefault(round_id, RoundClocks())
        self.cancel_schedule(round_id)

        async def later() -> list[BoardReport]:
            await asyncio.sleep(at - time.time())
            state.scheduled = None
            state.scheduled_at = None
            return await self.start(round_id=round_id, game_ids=game_ids, who=who)

        state.scheduled_at = at
        state.scheduled = asyncio.get_running_loop().create_task(later())
        return state

    def cancel_schedule(self, round_id: int) -> bool:
        state = self.rounds.get(round_id)
        if state is None or state.scheduled is None:
            return False
        state.scheduled.cancel()
        state.scheduled, state.scheduled_at = None, None
        return True

    async def pause(
        self, *, round_id: int, game_ids: Sequence[int] | None = None, who: Identity, reason: str
    ) -> list[BoardReport]:
        """Stop both clocks of every chosen board at the times they show."""
        pending = []
        games, by_hand = await self._games(round_id, game_ids)
        for game_id, board in games:
            if self._by_hand(game_id, by_hand):
                pending.append(
                    self._hub_timed(
                        game_id, lambda at: ClocksPaused(who.user, reason, at), who, "pause-clocks"
                    )
                )
                continue
            times = self._shown(game_id)
            if times is None:
                pending.append(_ready(self._unread(game_id, board)))
                continue
            command = SetAndRun(times[0], times[1], RunMode.STOPPED, lever_toggles=True)
            pending.append(
                self._command(
                    game_id,
                    board,
                    command,
                    Outcome.PAUSED,
                    lambda at: ClocksPaused(who.user, reason, at),
                    who,
                    "pause-clocks",
                )
            )
        return self._done(round_id, "pause", list(await asyncio.gather(*pending)))

    async def resume(
        self, *, round_id: int, game_ids: Sequence[int] | None = None, who: Identity
    ) -> list[BoardReport]:
        """Start the clock of the side to move on every chosen board again."""
        games, by_hand = await self._games(round_id, game_ids)
        pending = []
        for game_id, board in games:
            if self._by_hand(game_id, by_hand):
                pending.append(
                    self._hub_timed(
                        game_id, lambda at: ClocksResumed(who.user, at), who, "resume-clocks"
                    )
                )
                continue
            times = self._shown(game_id)
            view = await self._views.game(game_id)
            record = view.record(len(view.events))
            side = self._side(game_id, record.to_move)
            if times is None:
                pending.append(_ready(self._unread(game_id, board)))
                continue
            command = SetAndRun(times[0], times[1], _run(side), lever_toggles=True)
            pending.append(
                self._command(
                    game_id,
                    board,
                    command,
                    Outcome.RESUMED,
                    lambda at: ClocksResumed(who.user, at),
                    who,
                    "resume-clocks",
                    runs=side,
                )
            )
        return self._done(round_id, "resume", list(await asyncio.gather(*pending)))

    # Time changes

    async def propose_change(
        self,
        *,
        game_id: int,
        player: str,
        change: str,
        seconds: float,
        cause: ClockChangeCause,
        reason: str,
        who: Identity,
    ) -> TimeChange:
        """Work out the change and keep it for confirmation; nothing is changed yet."""
        if change not in CHANGES:
            raise ClockControlError(f"change {change!r}: one of {', '.join(CHANGES)}")
        cause = _known(cause)
        if not reason.strip():
            raise ClockControlError("a time change needs a reason")
        if not math.isfinite(seconds) or seconds < 0:
            raise ClockControlError("seconds must be a number of seconds, 0 or more")
        if player not in ("white", "black"):
            raise ClockControlError(f"player {player!r}: white or black")
        before = self._time_of(game_id, player, await self._views.game(game_id))
        if before is None:
            raise ClockControlError(f"game {game_id}: the clocks have not been started")
        after = {"add": before + seconds, "subtract": before - seconds, "set": seconds}[change]
        if not 0 <= after <= MAX_CLOCK_SECONDS:
            raise ClockControlError(f"{player} would have {after:g} s (0 to 9:59:59)")
        self._expire()
        proposal = TimeChange(
            token=secrets.token_urlsafe(12),
            game_id=game_id,
            player=player,
            change=change,
            seconds=seconds,
            cause=cause,
            reason=reason.strip(),
            before=before,
            after=after,
            asked_by=who.user,
            expires=time.time() + CONFIRM_SECONDS,
        )
        self._changes[proposal.token] = proposal
        return proposal

    async def propose_penalty(
        self, *, game_id: int, kind: str, claimant: str | None, who: Identity
    ) -> list[TimeChange]:
        """Propose the Laws' time penalty: ``illegal-move`` (the game's last completed one:
        time for the opponent, the offender's increment back) or ``wrong-claim`` (time for
        ``claimant``'s opponent). Each change is confirmed on its own."""
        view = await self._views.game(game_id)
        record = view.record(len(view.events))
        try:
            if kind == ClockChangeCause.ILLEGAL_MOVE:
                changes = illegal_move_changes(record, view.control)
            elif kind == ClockChangeCause.WRONG_CLAIM:
                changes = [wrong_claim_change(claimant or "", view.control)]
            else:
                raise ClockControlError(f"penalty {kind!r}: illegal-move or wrong-claim")
        except PenaltyError as error:
            raise ClockControlError(str(error)) from None
        return [
            await self.propose_change(
                game_id=game_id,
                player=change.player,
                change=change.change,
                seconds=change.seconds,
                cause=change.cause,
                reason=change.reason,
                who=who,
            )
            for change in changes
        ]

    async def confirm_change(self, *, token: str, who: Identity) -> tuple[TimeChange, BoardReport]:
        """Apply a proposed change: record it, then send both times to the clock."""
        self._expire()
        proposal = self._changes.pop(token, None)
        if proposal is None:
            raise ClockControlError("no such time change waiting (it may have expired)")
        game_id = proposal.game_id
        pairing = await self._recorder.run(lambda s: game_pairing(s, game_id=game_id))
        # What the clock is told is set from the value confirmed, not recomputed.
        event = TimeAdjusted(
            player=proposal.player,
            change="set",
            seconds=proposal.after,
            cause=proposal.cause,
            reason=proposal.reason,
            by=who.user,
            at=time.time(),
        )
        await self._record(pairing.game.round_id, game_id, [event], who, "change-time", proposal)
        board = pairing.game.board
        report = await self._send_times(game_id, board, proposal.player, proposal.after)
        return proposal, report

    def close(self) -> None:
        """Call off every scheduled start (the hub stops)."""
        for round_id in list(self.rounds):
            self.cancel_schedule(round_id)

    # Internals

    def _by_hand(self, game_id: int, without_eboard: set[int]) -> bool:
        """No electronic board is assigned to the game and none follows it: its moves are
        entered by hand (docs/game-input.md), and the hub's own count is its clock."""
        return game_id in without_eboard and game_id not in self._sessions

    async def _hub_timed(
        self, game_id: int, event: Callable[[float], GameEvent], who: Identity, action: str
    ) -> BoardReport:
        view = await self._views.game(game_id)
        round_id = view.pairing.game.round_id
        await self._record(round_id, game_id, [event(time.time())], who, action, None)
        return BoardReport(game_id, view.board, Outcome.HUB_TIMED, "no electronic clock")

    def _unread(self, game_id: int, board: int) -> BoardReport:
        """The report for a game whose clock times are not known: no board follows it, or
        its clock has not been read."""
        if game_id not in self._sessions:
            return BoardReport(game_id, board, Outcome.NO_BOARD)
        return BoardReport(game_id, board, Outcome.NO_CLOCK, "no reading")

    async def _send_times(
        self, game_id: int, board: int, player: str, seconds: float
    ) -> BoardReport:
        session = self._sessions.get(game_id)
        if session is None:
            return BoardReport(game_id, board, Outcome.NO_BOARD)
        reading = session.clock_reading
        if reading is None or session.clock_connected is False:
            return BoardReport(game_id, board, Outcome.NO_CLOCK)
        left, right = reading.left.seconds, reading.right.seconds
        if self._side(game_id, player) == "left":
            left = _clock_seconds(seconds)
        else:
            right = _clock_seconds(seconds)
        run = RunMode.STOPPED
        if reading.running:
            run = RunMode.LEFT if reading.left_to_move else RunMode.RIGHT
        answer = await _answer(session, SetAndRun(left, right, run, lever_toggles=True))
        return _report(game_id, board, answer, Outcome.CHANGED)

    async def _command(
        self,
        game_id: int,
        board: int,
        command: SetAndRun,
        success: Outcome,
        event: Callable[[float], GameEvent],
        who: Identity,
        action: str,
        runs: Side | None = None,
    ) -> BoardReport:
        session = self._sessions.get(game_id)
        if session is None:
            return BoardReport(game_id, board, Outcome.NO_BOARD)
        if session.clock_connected is False:
            return BoardReport(game_id, board, Outcome.NO_CLOCK)
        sent_at = time.time()
        answer = await _answer(session, command)
        report = _report(game_id, board, answer, success)
        if answer.ok:
            if runs is not None:
                session.clock_ran(runs)
            await self._record(session.round_id, game_id, [event(sent_at)], who, action, None)
        return report

    async def _record(
        self,
        round_id: int,
        game_id: int,
        events: list[GameEvent],
        who: Identity,
        action: str,
        change: TimeChange | None,
    ) -> None:
        detail: dict[str, Any] = {}
        reason = ""
        if change is not None:
            detail = {
                "player": change.player,
                "change": change.change,
                "seconds": change.seconds,
                "cause": change.cause,
                "before": change.before,
                "after": change.after,
                "asked_by": change.asked_by,
            }
            reason = change.reason

        also = audited(who=who, action=action, game_id=game_id, reason=reason, detail=detail)
        await self._recorder.decide(
            round_id=round_id, game_id=game_id, work=lambda session: (events, also)
        )

    def _done(self, round_id: int, action: str, reports: list[BoardReport]) -> list[BoardReport]:
        state = self.rounds.setdefault(round_id, RoundClocks())
        state.action, state.reports, state.at = action, reports, time.time()
        return reports

    async def _games(
        self, round_id: int, chosen: Sequence[int] | None
    ) -> tuple[list[tuple[int, int]], set[int]]:
        """The chosen games of the round (all by default) as (game, board), and those of
        them with no electronic board assigned."""
        games = await self._recorder.run(lambda s: list_games(s, round_id=round_id))
        pairs = [(game.id, game.board) for game in games if game.id is not None]
        without = {game.id for game in games if game.id is not None and game.eboard_id is None}
        if chosen is None:
            return pairs, without
        wanted = set(chosen)
        found = [(game_id, board) for game_id, board in pairs if game_id in wanted]
        missing = wanted - {game_id for game_id, _ in found}
        if missing:
            raise ClockControlError(f"not games of round {round_id}: {sorted(missing)}")
        return found, without

    async def _control(self, round_id: int, games: list[tuple[int, int]]) -> TimeControl:
        """The tournament's time control, as the round's game views already read it."""
        if not games:
            raise ClockControlError(f"round {round_id} has no games")
        view = await self._views.game(games[0][0])
        if not view.control.timed:
            text = view.pairing.tournament.time_control
            raise ClockControlError(
                f"the tournament's time control ({text or 'none'}) gives the clocks no time"
            )
        return view.control

    def _shown(self, game_id: int) -> tuple[int, int] | None:
        """The times the board's clock shows (left, right), if it has been read."""
        session = self._sessions.get(game_id)
        if session is None or session.clock_reading is None:
            return None
        return session.clock_reading.left.seconds, session.clock_reading.right.seconds

    def _side(self, game_id: int, player: str) -> Side:
        """The side of the game's clock that is ``player``'s, as the board's session reads
        it (White's on the left for a game no board follows: no command reaches it)."""
        session = self._sessions.get(game_id)
        white: Side = "left" if session is None else session.white_on
        return white if player == "white" else other_side(white)

    def _time_of(self, game_id: int, player: str, view: GameView) -> float | None:
        """A player's time now: the e-clock's reading, else the hub's count."""
        session = self._sessions.get(game_id)
        if session is not None and session.clock_reading is not None:
            return float(_side_reading(session.clock_reading, self._side(game_id, player)))
        clock = view.record(len(view.events)).clock
        if not clock.started:
            return None
        return clock.remaining(colour_of(player), time.time())

    def _expire(self) -> None:
        now = time.time()
        for token in [t for t, change in self._changes.items() if change.expires < now]:
            del self._changes[token]


def _known(cause: str) -> ClockChangeCause:
    """``cause`` as a :class:`ClockChangeCause`, refused when it is none (text passed past
    the type checker)."""
    try:
        return ClockChangeCause.parse(cause)
    except UnknownWordError:
        raise ClockControlError(f"cause {cause!r}: one of {', '.join(ClockChangeCause)}") from None


def _run(side: Side) -> RunMode:
    return RunMode.LEFT if side == "left" else RunMode.RIGHT


def _side_reading(reading: ClockReading, side: Side) -> int:
    return reading.left.seconds if side == "left" else reading.right.seconds


async def _answer(session: BoardSession, command: SetAndRun) -> ClockAnswer:
    try:
        return await asyncio.wait_for(session.clock_command(command), ANSWER_SECONDS)
    except TimeoutError:
        return ClockAnswer(False, "no answer", acknowledged=False)


def _report(game_id: int, board: int, answer: ClockAnswer, success: Outcome) -> BoardReport:
    if answer.ok:
        return BoardReport(game_id, board, success)
    if not answer.acknowledged:
        return BoardReport(game_id, board, Outcome.NO_ACK, answer.detail)
    return BoardReport(game_id, board, Outcome.REFUSED, answer.detail)


async def _ready(report: BoardReport) -> BoardReport:
    return report


def _clock_seconds(seconds: float) -> int:
    return max(0, min(MAX_CLOCK_SECONDS, math.ceil(seconds)))
