"""What readers see of a round's games, kept in memory and rendered once per change.

Broadcast platforms poll a round's PGN every few seconds, hundreds of spectators read the
same board summaries: rendering every game for every request would cost milliseconds per
game. Here each round is read from the store once; after that the bus keeps it current
(every committed event is published), and a game's PGN and summary are rendered again only
when its log has grown. A transmission delay is a cut in time: the public sees each game at
the last event recorded before ``now - delay``, which is just an earlier version of the
same log, cached the same way.

Everything here runs on the event loop's thread, so bus deliveries and readers never race;
only the first read of a round goes to the database, on a worker thread.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlmodel import Session

from relay.bus.memory import MemoryBus, Subscription
from relay.bus.messages import Published, round_topic
from relay.domain.clock.game_clock import GameClock, MoveTime, colour_name, colour_of
from relay.domain.clock.time_control import TimeControl, TimeControlError, format_pgn
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.formats.pgn import (
    GameHeaders,
    PgnMove,
    PlayerTags,
    render_archive,
    render_game,
    render_round,
)
from relay.domain.game.amendments import Amendment, amendments
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.hub.recorder import read_store
from relay.store.event_log import StoredEvent, read_round_events
from relay.store.models import Player
from relay.store.tournaments import Pairing, get_game, round_pairings

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Rendered versions kept per game: the live one and a delayed one.
_KEPT_VERSIONS = 4


def delay_cut(delay_seconds: float, now: float) -> float | None:
    """The Unix time up to which the public sees a round with this transmission delay at
    ``now`` (None: no delay, live). The one rule for the public's pages, PGN, feeds, outputs
    and ladders."""
    return None if delay_seconds <= 0 else now - delay_seconds


@dataclass
class GameView:
    """One game: its pairing, its log as far as published, and renderings by version."""

    pairing: Pairing
    events: list[StoredEvent]
    times: list[float] = field(default_factory=list)
    _records: dict[int, GameRecord] = field(default_factory=dict)
    #: The record at the newest version, kept current event by event.
    _live: GameRecord | None = None
    _pgn: dict[int, str] = field(default_factory=dict)
    _summaries: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: The tournament's time control, read once (unknown when it cannot be read).
    control: TimeControl = field(default_factory=lambda: TimeControl(known=False))

    def __post_init__(self) -> None:
        self.times = [event.recorded_at for event in self.events]
        self.control = control_of(self.pairing)

    @property
    def game_id(self) -> int:
        return self.pairing.game_id

    @property
    def board(self) -> int:
        return self.pairing.game.board

    @property
    def version(self) -> int:
        return len(self.events)

    def version_at(self, cut: float | None) -> int:
        """The log's version as it stood at Unix time ``cut`` (None: now)."""
        if cut is None:
            return len(self.events)
        return bisect.bisect_right(self.times, cut)

    def append(self, event: StoredEvent) -> None:
        self.events.append(event)
        self.times.append(event.recorded_at)
        if self._live is not None:
            self._live.apply(event_from_data(event.kind, event.data))

    def record(self, version: int) -> GameRecord:
        """The game as of ``version``. Do not change it: the newest is shared."""
        if version == len(self.events):
            if self._live is None:
                self._live = self._fold(version)
            return self._live
        record = self._records.get(version)
        if record is None:
            record = self._fold(version)
            _keep(self._records, version, record)
        return record

    def _fold(self, version: int) -> GameRecord:
        return GameRecord.from_events(
            (event_from_data(item.kind, item.data) for item in self.events[:version]),
            self.control,
        )

    def pgn(self, version: int) -> str:
        text = self._pgn.get(version)
        if text is None:
            record = self.record(version)
            marks = self.amended(version)
            text = render_game(
                amended_headers(headers(self.pairing, record, self.events, self.control), marks),
                amended_moves(pgn_moves(record), marks),
                before=opening_note(record),
            )
            _keep(self._pgn, version, text)
        return text

    def archive_pgn(self, version: int) -> str:
        record = self.record(version)
        sans = [move.san for move in record.moves]
        return render_archive(headers(self.pairing, record, self.events, self.control), sans)

    def summary(self, version: int) -> dict[str, Any]:
        summary = self._summaries.get(version)
        if summary is None:
            record = self.record(version)
            summary = game_summary(self.pairing, record, version, self.amended(version))
            _keep(self._summaries, version, summary)
        return summary

    def amended(self, version: int) -> tuple[Amendment, ...]:
        """The arbiter's amendments of the moves as of ``version`` (rare: a log without an
        arbiter's correction is not folded again)."""
        events = self.events[:version]
        if not any(item.kind == "arbiter-correction" for item in events):
            return ()
        return amendments(event_from_data(item.kind, item.data) for item in events)

    def detail(self, version: int) -> dict[str, Any]:
        record = self.record(version)
        detail = dict(self.summary(version))
        timings = record.clock.timings
        detail["moves"] = [
            {
                "ply": move.ply,
                "uci": move.uci,
                "san": move.san,
                "at": move.at,
                "clock": timing.clock if timing else move.clock,
                "spent": timing.spent if timing else None,
                "drift": timing.drift if timing else None,
            }
            for move, timing in zip(record.moves, _padded(timings, len(record.moves)), strict=True)
        ]
        detail["claims"] = [
            {"rule": claim.rule, "now": claim.now, "moves": list(claim.moves)}
            for claim in record.claims
        ]
        detail["illegal_moves"] = len(record.illegal_moves)
        detail["alerts"] = [alert.alert for alert in record.alerts]
        return detail


def _keep(cache: dict[int, T], version: int, value: T) -> None:
    cache[version] = value
    while len(cache) > _KEPT_VERSIONS:
        del cache[min(cache)]


def player_view(player: Player) -> dict[str, Any]:
    return {
        "start_number": player.start_number,
        "name": player.name,
        "title": player.title,
        "rating": player.rating,
        "fide_id": player.fide_id,
        "federation": player.federation,
        "team": player.team,
    }


def game_summary(
    pairing: Pairing, record: GameRecord, version: int, amended: Sequence[Amendment] = ()
) -> dict[str, Any]:
    """A board summary: players, position, last move, result, and the log version;
    ``amended``: the arbiter's amendments of the moves (:meth:`GameView.amended`)."""
    last = record.last_move
    return {
        "id": pairing.game.id,
        "round_id": pairing.game.round_id,
        "board": pairing.game.board,
        "white": player_view(pairing.white),
        "black": player_view(pairing.black),
        "fen": record.board.fen(),
        "ply": len(record.moves),
        "last_move": last.uci if last else None,
        "last_san": last.san if last else None,
        "check": record.board.is_check(),
        "result": record.result,
        "termination": record.termination,
        "verified": record.verified,
        "proposed_result": record.proposed_result,
        "draw_offer": record.draw_offer,
        "clock": clock_summary(record.clock),
        "amended": [
            {"ply": a.ply, "removed": a.removed, "added": a.added, "by": a.by, "reason": a.reason}
            for a in amended
        ],
        "v": version,
    }


def clock_summary(clock: GameClock) -> dict[str, Any]:
    """Both clocks in centiseconds as of ``since`` (Unix seconds); the ``running`` side
    counts down from then, after ``delay`` seconds of simple delay. ``flag`` names a fallen
    flag and when it fell; ``drift`` is, per player, the e-clock's reading minus the hub's
    own count at their last move where both were known (seconds)."""
    state = clock.state()
    return {
        "white": _centiseconds(state.white),
        "black": _centiseconds(state.black),
        "running": None if state.running is None else colour_name(state.running),
        "since": state.since,
        "delay": state.delay,
        "paused": state.paused,
        "flag_at": state.flag_at,
        "flag": None
        if state.flag is None
        else {"player": colour_name(state.flag[0]), "at": state.flag[1]},
        "drift": {
            "white": clock.drift(colour_of("white")),
            "black": clock.drift(colour_of("black")),
        },
    }


def _centiseconds(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 100)


def _padded(timings: list[MoveTime], count: int) -> list[MoveTime | None]:
    padded: list[MoveTime | None] = list(timings[:count])
    return padded + [None] * (count - len(padded))


def _tags(player: Player) -> PlayerTags:
    return PlayerTags(
        name=player.name,
        rating=player.rating,
        title=player.title,
        fide_id=player.fide_id,
        team=player.team,
    )


def control_of(pairing: Pairing) -> TimeControl:
    """The tournament's time control; unknown when it has none or it cannot be read."""
    text = pairing.tournament.time_control
    if not text:
        return TimeControl(known=False)
    try:
        return parse_time_control(text)
    except TimeControlError:
        log.warning("tournament %s: unreadable time control %r", pairing.tournament.id, text)
        return TimeControl(known=False)


def headers(
    pairing: Pairing, record: GameRecord, events: list[StoredEvent], control: TimeControl
) -> GameHeaders:
    tournament = pairing.tournament
    date = tournament.start_date.strftime("%Y.%m.%d") if tournament.start_date else "????.??.??"
    return GameHeaders(
        event=tournament.name,
        site=tournament.site,
        date=date,
        round=pairing.round.number,
        board=pairing.game.board,
        white=_tags(pairing.white),
        black=_tags(pairing.black),
        result=record.result,
        game_id=str(pairing.game.id),
        termination=record.termination,
        # The PGN standard's syntax, whatever form the event file used.
        time_control=format_pgn(control) if control.known else tournament.time_control,
        started=pairing.round.starts_at,
    )


def pgn_moves(record: GameRecord) -> list[PgnMove]:
    """The moves with ``%clk`` and ``%emt`` from the game's clock."""
    timings = _padded(record.clock.timings, len(record.moves))
    notes = keyed_notes(record)
    return [
        PgnMove(
            move.san,
            timing.clock if timing is not None else move.clock,
            note=notes.get(ply),
            spent=timing.spent if timing is not None else None,
        )
        for ply, (move, timing) in enumerate(zip(record.moves, timings, strict=True), start=1)
    ]


def amended_headers(tags: GameHeaders, marks: Sequence[Amendment]) -> GameHeaders:
    """The headers with the ``Amended`` tag naming the plies an arbiter amended."""
    if not marks:
        return tags
    return dataclasses.replace(tags, amended=", ".join(f"ply {mark.ply}" for mark in marks))


def amended_moves(moves: list[PgnMove], marks: Sequence[Amendment]) -> list[PgnMove]:
    """The moves with a comment at each amended ply (``{amended by the arbiter: why}``);
    moves removed from the end are said after the last move left."""
    for mark in marks:
        if not moves:
            break
        words = mark.words()
        at = mark.ply
        if at > len(moves):
            at = len(moves)
            words += f" (the moves from ply {mark.ply} removed)"
        move = moves[at - 1]
        note = words if move.note is None else f"{move.note}; {words}"
        moves[at - 1] = dataclasses.replace(move, note=note)
    return moves


def keyed_notes(record: GameRecord) -> dict[int, str]:
    """The game-input desk's notes by the ply they follow (0: before the first move), one
    text per ply; a note after moves since taken back stays with the last move."""
    notes: dict[int, list[str]] = {}
    for note in record.notes:
        notes.setdefault(min(note.ply, len(record.moves)), []).append(note.text)
    return {ply: "; ".join(texts) for ply, texts in notes.items()}


def opening_note(record: GameRecord) -> str | None:
    """The notes before the first move, as one comment (None without any)."""
    return keyed_notes(record).get(0)


class GameViews:
    """Rounds of games as readers see them, kept current by the bus."""

    def __init__(self, engine: Engine, bus: MemoryBus) -> None:
        self._engine = engine
        self._bus = bus
        self._rounds: dict[int, list[GameView]] = {}
        self._games: dict[int, GameView] = {}
        self._subscriptions: dict[int, Subscription] = {}
        self._loading: dict[int, asyncio.Future[list[GameView]]] = {}
        self._early: dict[int, list[Published]] = {}

    async def round(self, round_id: int) -> list[GameView]:
        """The round's games in board order (raises the store's NotFoundError)."""
        views = self._rounds.get(round_id)
        if views is not None:
            return views
        loading = self._loading.get(round_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[list[GameView]] = asyncio.get_running_loop().create_future()
        self._loading[round_id] = future
        # Subscribe first, so nothing committed while the store is read is missed.
        self._early[round_id] = []
        subscription = self._bus.subscribe(round_topic(round_id), self._deliver)
        try:
            pairings, logs = await self._read(
                lambda s: (
                    round_pairings(s, round_id=round_id),
                    read_round_events(s, round_id=round_id),
                )
            )
        except BaseException as error:
            subscription.close()
            del self._loading[round_id]
            del self._early[round_id]
            future.set_exception(error)
            future.exception()  # retrieved: the caller sees it raised
            raise
        views = [GameView(p, logs.get(p.game_id, [])) for p in pairings]
        self._rounds[round_id] = views
        self._subscriptions[round_id] = subscription
        for view in views:
            self._games[view.game_id] = view
        for message in self._early.pop(round_id):
            self._deliver(message)
        del self._loading[round_id]
        future.set_result(views)
        return views

    async def game(self, game_id: int) -> GameView:
        view = self._games.get(game_id)
        if view is None:
            game = await self._read(lambda s: get_game(s, game_id=game_id))
            await self.round(game.round_id)
            view = self._games[game_id]
        return view

    async def round_pgn(self, round_id: int, cut: float | None = None) -> str:
        views = await self.round(round_id)
        return render_round(view.pgn(view.version_at(cut)) for view in views)

    def forget(self, round_id: int) -> None:
        """Drop a round (its pairings changed); the next read loads it again."""
        for view in self._rounds.pop(round_id, []):
            self._games.pop(view.game_id, None)
        subscription = self._subscriptions.pop(round_id, None)
        if subscription is not None:
            subscription.close()

    def close(self) -> None:
        for round_id in tuple(self._rounds):
            self.forget(round_id)

    def _deliver(self, message: Published) -> None:
        early = self._early.get(message.round_id)
        if early is not None:
            early.append(message)
            return
        view = self._games.get(message.game_id)
        if view is None:
            return
        if message.seq <= view.version:
            return  # already read from the store
        if message.seq != view.version + 1:
            # A gap (a message lost between processes): read the round again.
            log.warning("game %s: version %s after %s", message.game_id, message.seq, view.version)
            self.forget(message.round_id)
            return
        view.append(
            StoredEvent(
                message.game_id, message.seq, message.kind, message.data, message.recorded_at
            )
        )

    async def _read(self, work: Callable[[Session], T]) -> T:
        return await read_store(self._engine, work)
