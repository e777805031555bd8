"""The pages keep a board's summary current by folding stream events into it
(``applyEvent`` in ``web/static/relay.js``); the server folds the same log into the same
summary (``relay.hub.game_views.game_summary``). Here both folds run over the same logs,
event by event, and must agree on everything a page shows, except where the page marks the
summary stale and fetches it again, as the pages do.

The logs are random but lawful games with what a hall brings: moves with clock readings,
draw offers and their answers, corrections and takebacks, result gestures, arbiter results
and verification, flags, central clock starts and pauses, time changes and alerts. The
pages' module runs under Node (``tests/web/fold.mjs``), unchanged.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from sqlmodel import Session

from relay.bus.messages import Published
from relay.domain.clock.change_causes import ClockChangeCause
from relay.domain.game.events import (
    LOGGED_EVENTS,
    ArbiterAlert,
    Claim,
    ClaimsChanged,
    ClockSideDecided,
    ClocksPaused,
    ClocksResumed,
    ClocksStarted,
    DrawOffered,
    FlagFell,
    GameEnded,
    GameEvent,
    IllegalMoveCompleted,
    InputStatusSet,
    MoveClocked,
    MoveCorrected,
    MoveMade,
    MovesReplaced,
    NewGame,
    NoteAdded,
    ResultProposed,
    ResultSet,
    ResultVerified,
    TakenBack,
    TimeAdjusted,
    event_data,
)
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.edge.rooms import encode_event
from relay.hub.game_views import control_of, game_summary
from relay.store.engine import open_store
from relay.store.tournaments import round_pairings
from tests.pairings import paired_round
from tests.stores import migrated_sqlite

pytestmark = pytest.mark.processes

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")
GAMES = 60
#: What a page shows of a summary, compared after every event the page does not refetch.
SHOWN = (
    "fen", "ply", "last_move", "last_san", "check", "result", "termination", "verified",
    "proposed_result", "draw_offer", "v",
)  # fmt: skip
DECIDED = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW]
CLOCK_SHOWN = ("white", "black", "running", "since", "flag")


def _played(
    board: chess.Board,
    move: chess.Move,
    at: float,
    reading: float | None,
    untimed: bool = False,
    unclocked: bool = False,
) -> MoveMade:
    """``move`` played on ``board``, as the log holds it (``untimed``: keyed from paper;
    ``unclocked``: decided before its mover pressed)."""
    san = board.san(move)
    board.push(move)
    return MoveMade(
        ply=board.ply(), uci=move.uci(), san=san, fen=board.fen(), at=at, clock=reading,
        untimed=untimed, unclocked=unclocked,
    )  # fmt: skip


def _game_log(rng: random.Random) -> list[GameEvent]:
    """A lawful log: what boards, clocks and arbiters record in a game, in a random order."""
    board = chess.Board()
    at = 1_000.0
    times = {chess.WHITE: 5400.0, chess.BLACK: 5400.0}
    log: list[GameEvent] = []
    offer: str | None = None
    result = Result.ONGOING

    def colour(side: chess.Color) -> str:
        return "white" if side == chess.WHITE else "black"

    if rng.random() < 0.7:
        log.append(ClocksStarted(white=5400.0, black=5400.0, by="arbiter", at=at))
    while len(log) < 120 and result is Result.ONGOING and not board.is_game_over():
        at += rng.uniform(1, 30)
        roll = rng.random()
        mover = board.turn
        if roll < 0.70:
            times[mover] -= rng.uniform(1, 20)
            reading = round(times[mover], 1) if rng.random() < 0.8 else None
            untimed = reading is None and rng.random() < 0.3  # keyed at the desk
            late = reading is not None and rng.random() < 0.3  # pressed after the decision
            move = rng.choice(list(board.legal_moves))
            if late:
                log.append(_played(board, move, at, None, unclocked=True))
                if rng.random() < 0.8:  # else the press never came
                    at += rng.uniform(0.2, 3)
                    log.append(MoveClocked(ply=board.ply(), clock=reading or 0.0, at=at))
            else:
                log.append(_played(board, move, at, reading, untimed))
            if offer is not None and offer != colour(mover):
                offer = None  # the opponent played on: the offer lapsed
        elif roll < 0.75 and board.move_stack:
            replaced = board.pop()
            move = rng.choice(list(board.legal_moves))
            san = board.san(move)
            board.push(move)
            log.append(
                MoveCorrected(
                    ply=board.ply(),
                    uci=move.uci(),
                    san=san,
                    fen=board.fen(),
                    replaced=replaced.uci(),
                    at=at,
                )
            )
        elif roll < 0.78 and board.move_stack:
            board.pop()
            log.append(TakenBack(ply=board.ply(), fen=board.fen(), at=at))
        elif roll < 0.83:
            if offer is None:
                offer = colour(not board.turn)  # made with the offerer's move
                log.append(DrawOffered(player=offer, action="offer", at=at))
            else:
                action = rng.choice(["decline", "accept"])
                answerer = "black" if offer == "white" else "white"
                log.append(DrawOffered(player=answerer, action=action, at=at))
                offer = None
        elif roll < 0.85:
            proposed = rng.choice(DECIDED)
            log.append(ResultProposed(result=proposed, gesture="kings", at=at))
        elif roll < 0.87:
            log.append(ClocksPaused(by="arbiter", reason="a disturbance", at=at))
            log.append(ClocksResumed(by="arbiter", at=at + 5))
        elif roll < 0.89:
            log.append(
                TimeAdjusted(
                    player=colour(rng.choice([chess.WHITE, chess.BLACK])),
                    change="add",
                    seconds=120.0,
                    cause=ClockChangeCause.ARBITER,
                    reason="a penalty",
                    by="arbiter",
                    at=at,
                )
            )
        elif roll < 0.91:
            log.append(
                IllegalMoveCompleted(
                    player=colour(mover),
                    count=1,
                    penalty="add-time",
                    seconds=120,
                    reason="king left in check",
                    at=at,
                )
            )
        elif roll < 0.93:
            log.append(ArbiterAlert(alert="unclear", detail="pieces moved", ply=board.ply(), at=at))
        elif roll < 0.935:
            log.append(FlagFell(player=colour(mover), at=at))
        elif roll < 0.94:
            log.append(
                ClaimsChanged(ply=board.ply(), claims=(Claim("threefold", False, ("Nf3",)),), at=at)
            )
        elif roll < 0.945:
            side = rng.choice(["left", "right"])
            log.append(ClockSideDecided(white_on=side, source="auto", reason="a press", at=at))
        elif roll < 0.95 and len(board.move_stack) >= 2:
            again = [board.pop(), board.pop()][::-1]
            log.append(
                MovesReplaced(
                    ply=board.ply() + 1,
                    uci=tuple(move.uci() for move in again),
                    by="arbiter",
                    reason="the scoresheets",
                    at=at,
                )
            )
            for move in again:
                board.push(move)
        elif roll < 0.953 and board.move_stack:
            board = chess.Board()  # the board was set up again: the game restarts
            log.append(NewGame(rotated=False, at=at))
        elif roll < 0.955:  # the game-input desk: a note, the game keyed, then checked
            log.append(NoteAdded(ply=board.ply(), text="(=)", by="desk 1", at=at))
            log.append(InputStatusSet(status="keyed", by="desk 1", at=at))
            log.append(InputStatusSet(status="checked", by="desk 2", at=at + 1))
        elif roll < 0.96:
            result = rng.choice(DECIDED)
            log.append(ResultSet(result=result, by="arbiter", reason="agreed", at=at))
    if board.is_checkmate():
        result = Result.win_for(not board.turn)
        log.append(GameEnded(result=result, termination="checkmate", at=at + 1))
    if result.is_decided and rng.random() < 0.7:
        log.append(ResultVerified(result=result, by="arbiter", at=at + 2))
    return log


def _fools_mate() -> list[GameEvent]:
    board = chess.Board()
    log: list[GameEvent] = []
    for at, san in enumerate(["f3", "e5", "g4", "Qh4#"], start=1):
        log.append(_played(board, board.parse_san(san), at, 5400.0 - at))
    log.append(GameEnded(result=Result.BLACK_WINS, termination="checkmate", at=5))
    log.append(ResultVerified(result=Result.BLACK_WINS, by="arbiter", at=6))
    return log


@pytest.fixture(scope="module")
def pairing(tmp_path_factory) -> Iterator[Any]:
    engine = open_store(migrated_sqlite(tmp_path_factory.mktemp("fold") / "fold.db"))
    try:
        with Session(engine) as session:
            round_id, _ = paired_round(session)
            (first, *_) = round_pairings(session, round_id=round_id)
            yield first
    finally:
        engine.dispose()


def _case(pairing: Any, log: list[GameEvent]) -> dict[str, Any]:
    """The page's start (the summary of the empty log) and, per event, the stream's message
    and the server's summary after it."""
    control = control_of(pairing)
    game_id = pairing.game.id
    steps = []
    record = GameRecord.from_events([], control)
    start = game_summary(pairing, record, 0)
    for version, event in enumerate(log, start=1):
        message = Published(
            round_id=pairing.game.round_id, game_id=game_id, seq=version, kind=event.kind,
            data=event_data(event),
        )  # fmt: skip
        record.apply(event)
        steps.append(
            {
                "message": json.loads(encode_event(message)),
                "fresh": game_summary(pairing, record, version),
            }
        )
    return {"start": start, "steps": steps}


def _fold_in_node(cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    assert NODE is not None, "the page tests need Node (Debian package nodejs)"
    done = subprocess.run(
        [NODE, str(HERE / "fold.mjs")],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    folded: list[list[dict[str, Any]]] = json.loads(done.stdout)
    return folded


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    shown = {name: summary.get(name) for name in SHOWN}
    clock = summary.get("clock") or {}
    clock_shown = {name: clock.get(name) for name in CLOCK_SHOWN}
    if isinstance(clock_shown["flag"], dict):
        clock_shown["flag"] = clock_shown["flag"]["player"]
    shown["clock"] = clock_shown
    return shown


def test_the_pages_fold_agrees_with_the_servers_summary_after_every_event(pairing):
    rng = random.Random(20261126)
    logs = [_game_log(rng) for _ in range(GAMES)] + [_fools_mate()]
    cases = [_case(pairing, log) for log in logs]
    kinds = {event.kind for log in logs for event in log}
    assert kinds == {cls.kind for cls in LOGGED_EVENTS}  # every kind the log can hold
    disagreements = []
    for number, (case, folded) in enumerate(zip(cases, _fold_in_node(cases), strict=True)):
        for step, seen in zip(case["steps"], folded, strict=True):
            assert seen["changed"], f"game {number}: a new event did not reach the summary"
            if seen["stale"]:
                continue  # the page fetches the summary again
            page, server = _shown(seen["game"]), _shown(step["fresh"])
            if page != server:
                differing = {k: (page[k], server[k]) for k in page if page[k] != server[k]}
                message = step["message"]
                where = f"game {number} v{message['v']} {message['kind']}"
                disagreements.append(f"{where}: {differing}")
                break  # the rest of this game follows from the first difference
    assert not disagreements, "\n".join(disagreements[:20])


def test_an_event_the_page_has_seen_changes_nothing(pairing):
    case = _case(pairing, _fools_mate())
    first = case["steps"][0]
    again = {"start": case["start"], "steps": [first, first]}
    (folded,) = _fold_in_node([again])
    assert folded[0]["changed"] is True
    assert folded[1]["changed"] is False
    assert folded[1]["game"] == folded[0]["game"]


def test_a_kind_the_page_does_not_know_sends_it_for_a_fresh_summary():
    """A server newer than the page never leaves it showing an old summary as current."""
    start = {"v": 0, "fen": chess.STARTING_FEN, "ply": 0, "clock": None, "result": "*"}
    unknown = {"type": "event", "game": 1, "v": 1, "kind": "no-such-kind", "data": {}}
    (folded,) = _fold_in_node([{"start": start, "steps": [{"message": unknown, "fresh": start}]}])
    assert folded[0]["changed"] is True
    assert folded[0]["stale"] is True
