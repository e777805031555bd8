"""The clock desk on its own: a real store, board sessions fed by fake links whose clocks
answer as each test says; what is sent to which side of each clock, what each board
reports, and what the games' logs and the audit trail keep."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator

import anyio
import chess
import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from drivers.events import BoardStatus, Health, RunMode, SetAndRun
from relay.bus.memory import MemoryBus
from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.clock.game_clock import GameClock
from relay.domain.clock.orientation import ClockSide
from relay.domain.game.events import (
    ClocksPaused,
    ClocksStarted,
    GameEvent,
    IllegalMoveCompleted,
    MoveMade,
)
from relay.domain.game.tracker import PositionTracker
from relay.hub import clock_desk
from relay.hub.board_session import BoardSession
from relay.hub.clock_desk import (
    BoardReport,
    ClockControlError,
    ClockDesk,
    Outcome,
    TimeChange,
)
from relay.hub.game_views import GameViews
from relay.hub.recorder import GameRecorder
from relay.store.models import Tournament
from relay.store.tournaments import create_round, get_round
from tests.pairings import paired_round
from tests.relay.hub.desk_fakes import (
    ARBITER,
    DEPUTY,
    GIVE_UP_REASON,
    Answer,
    FakeLink,
    Heard,
    audit_trail,
    give_up,
    ignore,
    kinds,
    obey,
    reading,
    refuse,
    stored,
    without_at,
)

pytestmark = pytest.mark.anyio

#: paired_round's time control is 40/5400+30: both clocks start at 90 minutes.
START_SECONDS = 5400


def round_with(engine: Engine, games: int, *, eboards: bool = False) -> tuple[int, list[int]]:
    """A round of ``games`` games; with ``eboards``, each has an electronic board assigned
    (which no session follows until a test says so)."""
    ports = [f"/dev/ttyACM{n}" for n in range(games)] if eboards else None
    with Session(engine) as session:
        return paired_round(session, games=games, ports=ports)


def start_command(run: RunMode) -> SetAndRun:
    return SetAndRun(START_SECONDS, START_SECONDS, run, lever_toggles=True)


class Desk:
    """A clock desk over a real store, and the board sessions it commands."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.bus = MemoryBus()
        self.recorder = GameRecorder(engine, self.bus)
        self.views = GameViews(engine, self.bus)
        self.sessions: dict[int, BoardSession] = {}
        self.clocks = ClockDesk(self.recorder, self.views, self.sessions)
        self._following: list[tuple[FakeLink, asyncio.Task[None]]] = []

    async def follow(
        self, round_id: int, game_id: int, *, clock_side: ClockSide = "auto", answer: Answer = obey
    ) -> FakeLink:
        """A board follows the game: a session reading a fake link. A fixed clock setting
        is recorded in the game's log first (``clock-side``); this waits for it."""
        heard = Heard(self.bus, game_id)
        link = FakeLink(answer)
        session = BoardSession(
            round_id=round_id,
            game_id=game_id,
            tracker=PositionTracker(),
            recorder=self.recorder,
            send=link.send,
            clock_side=clock_side,
        )
        self.sessions[game_id] = session
        self._following.append((link, asyncio.create_task(session.run(link.events()))))
        await link.handled()
        if clock_side != "auto":
            assert await heard.until(1) == ["clock-side"]
        return link

    async def record(self, round_id: int, game_id: int, *events: GameEvent) -> None:
        await self.recorder.record(round_id=round_id, game_id=game_id, events=events)

    async def clock_of(self, game_id: int) -> GameClock:
        view = await self.views.game(game_id)
        return view.record(view.version).clock

    async def close(self) -> None:
        self.clocks.close()
        for link, task in self._following:
            link.close()
            with anyio.fail_after(5):
                await task
        self.views.close()
        self.recorder.close()


@contextlib.asynccontextmanager
async def desk_on(engine: Engine) -> AsyncIterator[Desk]:
    desk = Desk(engine)
    try:
        yield desk
    finally:
        await desk.close()


# Starting a round's clocks


async def test_start_runs_whites_side_of_each_clock_and_records_it(engine):
    round_id, (on_left, on_right, absent) = round_with(engine, 3, eboards=True)
    async with desk_on(engine) as desk:
        left = await desk.follow(round_id, on_left)  # auto, undecided: White on the left
        right = await desk.follow(round_id, on_right, clock_side="white-right")
        before = time.time()
        reports = await desk.clocks.start(round_id=round_id, who=ARBITER)
        after = time.time()
        clock = await desk.clock_of(on_right)
        state = desk.clocks.rounds[round_id]
        assert (state.action, state.reports) == ("start", reports)
        assert state.at is not None
        assert before <= state.at <= time.time()
    assert reports == [
        BoardReport(on_left, 1, Outcome.STARTED),
        BoardReport(on_right, 2, Outcome.STARTED),
        BoardReport(absent, 3, Outcome.NO_BOARD),
    ]
    assert left.sent == [start_command(RunMode.LEFT)]
    assert right.sent == [start_command(RunMode.RIGHT)]
    # The hub's own count: both at the starting time, White's running.
    assert clock.started
    assert (clock.state().white, clock.state().black) == (START_SECONDS, START_SECONDS)
    assert clock.state().running == chess.WHITE
    (started,) = stored(engine, on_left)
    assert started[0] == "clocks-started"
    assert without_at(started[1]) == {
        "white": START_SECONDS,
        "black": START_SECONDS,
        "by": "Chief Arbiter",
    }
    assert before <= started[1]["at"] <= after
    assert kinds(engine, on_right) == ["clock-side", "clocks-started"]
    assert kinds(engine, absent) == []
    assert sorted(audit_trail(engine)) == [
        ("Chief Arbiter", "start-clocks", f"game {on_left}", "", {}),
        ("Chief Arbiter", "start-clocks", f"game {on_right}", "", {}),
    ]


async def test_start_reports_clocks_that_do_not_obey_and_records_nothing_for_them(engine):
    round_id, (refused, silent, unplugged, gone) = round_with(engine, 4)
    async with desk_on(engine) as desk:
        no = await desk.follow(round_id, refused, answer=refuse)
        mute = await desk.follow(round_id, silent, answer=give_up)
        bare = await desk.follow(round_id, unplugged)
        bare.push(BoardStatus(Health.ACTIVE, clock_connected=False))
        await bare.handled()
        quiet = await desk.follow(round_id, gone, answer=ignore)
        starting = asyncio.create_task(desk.clocks.start(round_id=round_id, who=ARBITER))
        with anyio.fail_after(5):
            await quiet.commanded.wait()
        quiet.close("cable pulled")  # the board goes while its clock has not answered
        with anyio.fail_after(5):
            reports = await starting
    assert reports == [
        BoardReport(refused, 1, Outcome.REFUSED, "the clock refused it (not in mode 23?)"),
        BoardReport(silent, 2, Outcome.NO_ACK, GIVE_UP_REASON),
        BoardReport(unplugged, 3, Outcome.NO_CLOCK),
        BoardReport(gone, 4, Outcome.NO_ACK, "the board is gone"),
    ]
    assert no.sent == mute.sent == quiet.sent == [start_command(RunMode.LEFT)]
    assert bare.sent == []  # no clock: nothing is sent
    for game_id in (refused, silent, unplugged, gone):
        assert kinds(engine, game_id) == []
    assert audit_trail(engine) == []


async def test_start_only_the_chosen_games(engine):
    round_id, (first, second) = round_with(engine, 2)
    async with desk_on(engine) as desk:
        one = await desk.follow(round_id, first)
        two = await desk.follow(round_id, second)
        reports = await desk.clocks.start(round_id=round_id, game_ids=[second], who=ARBITER)
    assert reports == [BoardReport(second, 2, Outcome.STARTED)]
    assert (one.sent, two.sent) == ([], [start_command(RunMode.LEFT)])
    assert (kinds(engine, first), kinds(engine, second)) == ([], ["clocks-started"])


async def test_start_refuses_games_of_another_round_and_sends_nothing(engine):
    round_id, (game_id,) = round_with(engine, 1)
    with Session(engine) as session:
        _, (elsewhere,) = paired_round(session, name="Another Open")
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, game_id)
        with pytest.raises(ClockControlError) as refused:
            await desk.clocks.start(round_id=round_id, game_ids=[game_id, elsewhere], who=ARBITER)
        assert str(refused.value) == f"not games of round {round_id}: [{elsewhere}]"
    assert link.sent == []
    assert kinds(engine, game_id) == []
    assert round_id not in desk.clocks.rounds


async def test_start_refuses_a_round_without_games(engine):
    round_id, _ = round_with(engine, 1)
    with Session(engine) as session:
        tournament_id = get_round(session, round_id=round_id).tournament_id
        empty = create_round(session, tournament_id=tournament_id, number=2).id
    assert empty is not None
    async with desk_on(engine) as desk:
        with pytest.raises(ClockControlError, match=rf"^round {empty} has no games$"):
            await desk.clocks.start(round_id=empty, who=ARBITER)


async def test_start_refuses_a_tournament_whose_time_control_gives_no_time(engine):
    round_id, (game_id,) = round_with(engine, 1)
    with Session(engine) as session:
        tournament = session.get(Tournament, get_round(session, round_id=round_id).tournament_id)
        assert tournament is not None
        tournament.time_control = None
        session.add(tournament)
        session.commit()
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, game_id)
        with pytest.raises(ClockControlError) as refused:
            await desk.clocks.start(round_id=round_id, who=ARBITER)
    assert str(refused.value) == "the tournament's time control (none) gives the clocks no time"
    assert link.sent == []
    assert kinds(engine, game_id) == []


# Pausing and resuming


async def test_pause_and_resume_keep_the_times_shown_and_run_the_side_to_move(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, game_id, clock_side="white-right")
        await desk.clocks.start(round_id=round_id, who=ARBITER)
        link.push(reading(5100, 5000, left_to_move=False))  # White, on the right, thinks
        await link.handled()
        paused = await desk.clocks.pause(round_id=round_id, who=ARBITER, reason="fire alarm")
        paused_clock = (await desk.clock_of(game_id)).state()
        resumed = await desk.clocks.resume(round_id=round_id, who=ARBITER)
        resumed_clock = (await desk.clock_of(game_id)).state()
        assert desk.clocks.rounds[round_id].action == "resume"
        # White moves: a pause and a resume now run Black's side, the left one.
        e4 = chess.Board().push_san("e4")
        await desk.record(round_id, game_id, MoveMade(1, e4.uci(), "e4", "", time.time()))
        await desk.clocks.pause(round_id=round_id, who=ARBITER, reason="noise")
        again = await desk.clocks.resume(round_id=round_id, who=ARBITER)
    assert paused == [BoardReport(game_id, 1, Outcome.PAUSED)]
    assert resumed == again == [BoardReport(game_id, 1, Outcome.RESUMED)]
    assert link.sent == [
        start_command(RunMode.RIGHT),
        SetAndRun(5100, 5000, RunMode.STOPPED, lever_toggles=True),
        SetAndRun(5100, 5000, RunMode.RIGHT, lever_toggles=True),
        SetAndRun(5100, 5000, RunMode.STOPPED, lever_toggles=True),
        SetAndRun(5100, 5000, RunMode.LEFT, lever_toggles=True),
    ]
    assert (paused_clock.paused, paused_clock.running) == (True, None)
    assert (resumed_clock.paused, resumed_clock.running) == (False, chess.WHITE)
    log = stored(engine, game_id)
    assert [kind for kind, _ in log] == [
        "clock-side",
        "clocks-started",
        "clocks-paused",
        "clocks-resumed",
        "move",
        "clocks-paused",
        "clocks-resumed",
    ]
    assert without_at(log[2][1]) == {"by": "Chief Arbiter", "reason": "fire alarm"}
    assert without_at(log[3][1]) == {"by": "Chief Arbiter"}
    assert [action for _, action, *_ in audit_trail(engine)] == [
        "start-clocks",
        "pause-clocks",
        "resume-clocks",
        "pause-clocks",
        "resume-clocks",
    ]


async def test_a_game_without_an_electronic_board_is_timed_by_the_hub(engine):
    # Its moves are entered by hand (docs/game-input.md): the central start, a pause and a
    # resume reach the hub's own count of its times, and no clock is told anything.
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        started = await desk.clocks.start(round_id=round_id, who=ARBITER)
        running = await desk.clock_of(game_id)
        assert running.started
        assert running.state().running == chess.WHITE
        paused = await desk.clocks.pause(round_id=round_id, who=ARBITER, reason="dispute")
        resumed = await desk.clocks.resume(round_id=round_id, who=ARBITER)
    hub_timed = BoardReport(game_id, 1, Outcome.HUB_TIMED, "no electronic clock")
    assert started == paused == resumed == [hub_timed]
    assert kinds(engine, game_id) == ["clocks-started", "clocks-paused", "clocks-resumed"]
    assert [action for _, action, *_ in audit_trail(engine)] == [
        "start-clocks",
        "pause-clocks",
        "resume-clocks",
    ]


async def test_pause_and_resume_of_a_game_no_board_follows_say_no_board(engine):
    # As the central start says for such a game: the board is what is missing, not a clock.
    round_id, (followed, absent) = round_with(engine, 2, eboards=True)
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, followed)
        link.push(reading(5400, 5400))
        await link.handled()
        paused = await desk.clocks.pause(round_id=round_id, who=ARBITER, reason="dispute")
        resumed = await desk.clocks.resume(round_id=round_id, who=ARBITER)
    assert paused[1] == BoardReport(absent, 2, Outcome.NO_BOARD)
    assert resumed[1] == BoardReport(absent, 2, Outcome.NO_BOARD)
    assert (paused[0].outcome, resumed[0].outcome) == (Outcome.PAUSED, Outcome.RESUMED)


async def test_pause_and_resume_need_a_clock_reading(engine):
    round_id, (unread, refusing) = round_with(engine, 2)
    async with desk_on(engine) as desk:
        silent = await desk.follow(round_id, unread)  # its clock has never been read
        no = await desk.follow(round_id, refusing, answer=refuse)
        no.push(reading(5400, 5400))
        await no.handled()
        paused = await desk.clocks.pause(round_id=round_id, who=ARBITER, reason="dispute")
        resumed = await desk.clocks.resume(round_id=round_id, who=ARBITER)
    refused = "the clock refused it (not in mode 23?)"
    assert paused == [
        BoardReport(unread, 1, Outcome.NO_CLOCK, "no reading"),
        BoardReport(refusing, 2, Outcome.REFUSED, refused),
    ]
    assert resumed == [
        BoardReport(unread, 1, Outcome.NO_CLOCK, "no reading"),
        BoardReport(refusing, 2, Outcome.REFUSED, refused),
    ]
    assert silent.sent == []
    assert no.sent == [
        SetAndRun(5400, 5400, RunMode.STOPPED, lever_toggles=True),
        SetAndRun(5400, 5400, RunMode.LEFT, lever_toggles=True),
    ]
    assert kinds(engine, unread) == kinds(engine, refusing) == []
    assert audit_trail(engine) == []


# Changing a player's time


async def started_game(
    desk: Desk, round_id: int, game_id: int, *, clock_side: ClockSide = "auto"
) -> FakeLink:
    """A followed game whose clocks the desk started."""
    link = await desk.follow(round_id, game_id, clock_side=clock_side)
    assert await desk.clocks.start(round_id=round_id, who=ARBITER) == [
        BoardReport(game_id, 1, Outcome.STARTED)
    ]
    return link


@pytest.mark.parametrize(
    ("clock_side", "player", "before", "sent"),
    [
        # The clock shows 5300 on the left, 5390 on the right; the right runs.
        ("auto", "white", 5300, SetAndRun(600, 5390, RunMode.RIGHT, lever_toggles=True)),
        ("auto", "black", 5390, SetAndRun(5300, 600, RunMode.RIGHT, lever_toggles=True)),
        ("white-right", "white", 5390, SetAndRun(5300, 600, RunMode.RIGHT, lever_toggles=True)),
        ("white-right", "black", 5300, SetAndRun(600, 5390, RunMode.RIGHT, lever_toggles=True)),
    ],
)
async def test_a_confirmed_time_change_reaches_the_players_side(
    engine, clock_side, player, before, sent
):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id, clock_side=clock_side)
        link.push(reading(5300, 5390, left_to_move=False))
        await link.handled()
        proposal = await desk.clocks.propose_change(
            game_id=game_id,
            player=player,
            change="set",
            seconds=600,
            cause=ClockChangeCause.ARBITER,
            reason=" clock set wrong ",
            who=DEPUTY,
        )
        before_confirming = kinds(engine, game_id)
        change, report = await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
    assert (proposal.before, proposal.after) == (before, 600)
    assert (proposal.reason, proposal.asked_by) == ("clock set wrong", "Deputy Arbiter")
    assert change == proposal
    assert before_confirming == kinds(engine, game_id)[:-1]  # nothing changed until then
    assert report == BoardReport(game_id, 1, Outcome.CHANGED)
    assert link.sent[1:] == [sent]
    kind, data = stored(engine, game_id)[-1]
    assert kind == "time"
    assert without_at(data) == {
        "player": player,
        "change": "set",
        "seconds": 600,
        "cause": "arbiter",
        "reason": "clock set wrong",
        "by": "Chief Arbiter",
    }
    assert audit_trail(engine)[-1] == (
        "Chief Arbiter",
        "change-time",
        f"game {game_id}",
        "clock set wrong",
        {
            "player": player,
            "change": "set",
            "seconds": 600,
            "cause": "arbiter",
            "before": before,
            "after": 600,
            "asked_by": "Deputy Arbiter",
        },
    )


async def test_a_change_is_confirmed_once(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id)
        link.push(reading(5400, 5400))
        await link.handled()
        proposal = await desk.clocks.propose_change(
            game_id=game_id,
            player="black",
            change="add",
            seconds=60,
            cause=ClockChangeCause.WRONG_CLAIM,
            reason="White claimed wrongly",
            who=ARBITER,
        )
        await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
        with pytest.raises(ClockControlError, match="no such time change waiting"):
            await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
    assert kinds(engine, game_id) == ["clocks-started", "time"]
    assert link.sent[1:] == [SetAndRun(5400, 5460, RunMode.LEFT, lever_toggles=True)]


async def test_an_expired_change_cannot_be_confirmed(engine, monkeypatch):
    round_id, (game_id,) = round_with(engine, 1)
    monkeypatch.setattr(clock_desk, "CONFIRM_SECONDS", -1.0)  # expired as soon as proposed
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id)
        link.push(reading(5400, 5400))
        await link.handled()
        proposal = await desk.clocks.propose_change(
            game_id=game_id,
            player="white",
            change="subtract",
            seconds=10,
            cause=ClockChangeCause.ARBITER,
            reason="late",
            who=ARBITER,
        )
        assert proposal.expires < time.time()
        with pytest.raises(ClockControlError, match="it may have expired"):
            await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
    assert kinds(engine, game_id) == ["clocks-started"]
    assert link.sent == [start_command(RunMode.LEFT)]


async def test_a_game_without_a_board_changes_the_hubs_own_count(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        # Started at 100 s, paused at 160 s: White, to move, has used a minute.
        await desk.record(
            round_id,
            game_id,
            ClocksStarted(START_SECONDS, START_SECONDS, "Chief Arbiter", 100.0),
            ClocksPaused("Chief Arbiter", "dispute", 160.0),
        )
        proposal = await desk.clocks.propose_change(
            game_id=game_id,
            player="white",
            change="add",
            seconds=30,
            cause=ClockChangeCause.ARBITER,
            reason="clock malfunction",
            who=ARBITER,
        )
        change, report = await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
        clock = await desk.clock_of(game_id)
    assert (change.before, change.after) == (START_SECONDS - 60, START_SECONDS - 30)
    assert report == BoardReport(game_id, 1, Outcome.NO_BOARD)
    assert clock.remaining(chess.WHITE, time.time()) == START_SECONDS - 30
    assert clock.remaining(chess.BLACK, time.time()) == START_SECONDS
    assert kinds(engine, game_id) == ["clocks-started", "clocks-paused", "time"]


async def test_a_change_the_clock_refuses_is_still_recorded_and_reported(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id)
        link.push(reading(5400, 5400))
        await link.handled()
        link.answer = refuse
        proposal = await desk.clocks.propose_change(
            game_id=game_id,
            player="white",
            change="set",
            seconds=3000,
            cause=ClockChangeCause.ARBITER,
            reason="wrong setting",
            who=ARBITER,
        )
        _, report = await desk.clocks.confirm_change(token=proposal.token, who=ARBITER)
    assert report == BoardReport(
        game_id, 1, Outcome.REFUSED, "the clock refused it (not in mode 23?)"
    )
    assert link.sent[1:] == [SetAndRun(3000, 5400, RunMode.LEFT, lever_toggles=True)]
    # The change is the arbiter's decision: it is in the log whatever the clock said.
    assert kinds(engine, game_id) == ["clocks-started", "time"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"change": "double"}, "change 'double': one of add, subtract, set"),
        ({"cause": "mood"}, "cause 'mood': one of arbiter, illegal-move, wrong-claim, increment"),
        ({"reason": "   "}, "a time change needs a reason"),
        ({"seconds": -1.0}, "seconds must be a number of seconds, 0 or more"),
        ({"seconds": math.nan}, "seconds must be a number of seconds, 0 or more"),
        ({"seconds": math.inf}, "seconds must be a number of seconds, 0 or more"),
        ({"player": "red"}, "player 'red': white or black"),
        ({"change": "subtract", "seconds": 5500.0}, "white would have -100 s (0 to 9:59:59)"),
        ({"change": "add", "seconds": 30600.0}, "white would have 36000 s (0 to 9:59:59)"),
    ],
)
async def test_a_time_change_is_checked_before_it_is_kept(engine, change, message):
    round_id, (game_id,) = round_with(engine, 1)
    asked = {
        "player": "white",
        "change": "set",
        "seconds": 60.0,
        "cause": "arbiter",
        "reason": "because",
        **change,
    }
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id)
        link.push(reading(5400, 5400))
        await link.handled()
        # The same change, but right, is accepted: only what the case changed is wrong.
        fine = await desk.clocks.propose_change(
            game_id=game_id,
            player="white",
            change="set",
            seconds=60.0,
            cause=ClockChangeCause.ARBITER,
            reason="because",
            who=ARBITER,
        )
        assert isinstance(fine, TimeChange)
        with pytest.raises(ClockControlError) as refused:
            await desk.clocks.propose_change(
                game_id=game_id,
                player=str(asked["player"]),
                change=str(asked["change"]),
                seconds=float(asked["seconds"]),
                cause=str(asked["cause"]),  # type: ignore[arg-type]
                reason=str(asked["reason"]),
                who=ARBITER,
            )
    assert str(refused.value) == message
    assert kinds(engine, game_id) == ["clocks-started"]


async def test_no_time_change_before_the_clocks_start(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        await desk.follow(round_id, game_id)  # followed, but its clock never read
        with pytest.raises(ClockControlError) as refused:
            await desk.clocks.propose_change(
                game_id=game_id,
                player="white",
                change="add",
                seconds=60,
                cause=ClockChangeCause.ARBITER,
                reason="early",
                who=ARBITER,
            )
    assert str(refused.value) == f"game {game_id}: the clocks have not been started"


# Penalties


async def test_an_illegal_move_penalty_is_proposed_for_both_players(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await started_game(desk, round_id, game_id)
        await desk.record(
            round_id,
            game_id,
            IllegalMoveCompleted("white", 1, "add-time", 120, "king left in check", 3.0),
        )
        link.push(reading(5380, 5400, left_to_move=False))
        await link.handled()
        changes = await desk.clocks.propose_penalty(
            game_id=game_id, kind="illegal-move", claimant=None, who=ARBITER
        )
        claim = await desk.clocks.propose_penalty(
            game_id=game_id, kind="wrong-claim", claimant="black", who=ARBITER
        )
    # Standard chess: two minutes to the opponent; White's 30 s increment taken back.
    assert [
        (c.player, c.change, c.seconds, c.cause, c.before, c.after, c.reason) for c in changes
    ] == [
        (
            "black",
            "add",
            120,
            "illegal-move",
            5400,
            5520,
            "white completed an illegal move: king left in check",
        ),
        (
            "white",
            "subtract",
            30,
            "increment",
            5380,
            5350,
            "the increment earned by the illegal move's press",
        ),
    ]
    assert [(c.player, c.change, c.seconds, c.before, c.after) for c in claim] == [
        ("white", "add", 120, 5380, 5500)
    ]
    assert len({c.token for c in changes + claim}) == 3
    assert kinds(engine, game_id) == ["clocks-started", "illegal-move"]  # nothing confirmed


@pytest.mark.parametrize(
    ("kind", "claimant", "message"),
    [
        ("illegal-move", None, "no illegal move has been completed in this game"),
        ("wrong-claim", None, "claimant '': white or black"),
        ("mood", None, "penalty 'mood': illegal-move or wrong-claim"),
    ],
)
async def test_a_penalty_that_does_not_apply_is_refused(engine, kind, claimant, message):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        await started_game(desk, round_id, game_id)
        with pytest.raises(ClockControlError) as refused:
            await desk.clocks.propose_penalty(
                game_id=game_id, kind=kind, claimant=claimant, who=ARBITER
            )
    assert str(refused.value) == message


# A start at a set time


async def test_a_scheduled_start_starts_the_clocks_at_its_time(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, game_id)
        at = time.time() + 0.05
        state = desk.clocks.schedule_start(round_id=round_id, at=at, game_ids=None, who=ARBITER)
        assert state is desk.clocks.rounds[round_id]
        assert state.scheduled_at == at
        task = state.scheduled
        assert task is not None
        with anyio.fail_after(5):
            reports = await task
        assert time.time() >= at
        after = desk.clocks.rounds[round_id]
    assert after is state
    assert reports == [BoardReport(game_id, 1, Outcome.STARTED)]
    assert (after.scheduled, after.scheduled_at) == (None, None)
    assert (after.action, after.reports) == ("start", reports)
    assert link.sent == [start_command(RunMode.LEFT)]
    assert kinds(engine, game_id) == ["clocks-started"]


async def test_a_scheduled_start_can_be_called_off_or_moved(engine):
    round_id, (game_id,) = round_with(engine, 1)
    async with desk_on(engine) as desk:
        link = await desk.follow(round_id, game_id)
        with pytest.raises(ClockControlError, match="must be in the future"):
            desk.clocks.schedule_start(
                round_id=round_id, at=time.time() - 1, game_ids=None, who=ARBITER
            )
        assert desk.clocks.cancel_schedule(round_id) is False
        first = desk.clocks.schedule_start(
            round_id=round_id, at=time.time() + 3600, game_ids=None, who=ARBITER
        ).scheduled
        moved = desk.clocks.schedule_start(
            round_id=round_id, at=time.time() + 7200, game_ids=None, who=ARBITER
        )
        second = moved.scheduled
        assert first is not None
        assert second is not None
        with pytest.raises(asyncio.CancelledError):
            await first  # the earlier time is replaced
        assert desk.clocks.cancel_schedule(round_id) is True
        assert (moved.scheduled, moved.scheduled_at) == (None, None)
        with pytest.raises(asyncio.CancelledError):
            await second
        assert desk.clocks.cancel_schedule(round_id) is False
        # Closing the desk calls off what is still scheduled.
        third = desk.clocks.schedule_start(
            round_id=round_id, at=time.time() + 3600, game_ids=None, who=ARBITER
        ).scheduled
        assert third is not None
        desk.clocks.close()
        with pytest.raises(asyncio.CancelledError):
            await third
    assert link.sent == []
    assert kinds(engine, game_id) == []
