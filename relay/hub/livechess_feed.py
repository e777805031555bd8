"""A tournament as LiveChess Cloud's JSON feed shows it: ``tournament.json``, each round's
``index.json`` and each board's ``game-N.json``.

Viewers and broadcast platforms (lichess among them) already read DGT's cloud feed, so a
hub that serves the same shapes at its own address is followed with no new code on their
side. The shapes are DGT's, not ours: the keys and their words (``WHITEWIN``, ``serialNr``,
``"e4 5400+0"``) are copied from what the cloud serves, values the hub does not have are
null, and nothing the hub would add is sent. Everything here maps what the views already
hold; the routers decide who may see which round, and as of when (the transmission delay).

A move is ``"SAN clock+spent"``: the mover's whole seconds left after the move (the PGN's
``%clk``) and the whole seconds it took (``%emt``); either part is left out when unknown
(``"Ne2 4922"``, ``"Rxd7 +13"``, ``"exd7"``). The clock object is DGT's clock reading:
``white`` and ``black`` in whole seconds, ``run`` true while White's clock runs, false while
Black's does, null when neither runs, and ``time``, the Unix milliseconds the reading holds
at, from which a viewer counts the running side down.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from relay.domain.clock.game_clock import GameClock, colour_name
from relay.domain.clock.time_control import TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.formats.pgn import PgnMove
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.hub.game_views import GameView, pgn_moves
from relay.store.models import Player, Round, Tournament

#: The Chess960 start position number of the standard position: the cloud sends it for
#: every game of standard chess (lichess reads any other number as a Chess960 start).
STANDARD_POSITION = 518
#: The cloud's words for a tournament of standard chess (``chess960``) and the default rules.
STANDARD = "STANDARD"

_GAME_RESULTS = {
    Result.WHITE_WINS: "WHITEWIN",
    Result.BLACK_WINS: "BLACKWIN",
    Result.DRAW: "DRAW",
}
_FORFEITS = {Result.WHITE_WINS: "WHITEFORFAIT", Result.BLACK_WINS: "BLACKFORFAIT"}


def split_name(name: str) -> tuple[str | None, str | None]:
    """``(fname, lname)`` of a name stored as "Family, Given"; a name without a comma is all
    family name. Empty parts are None, as the cloud sends them."""
    family, _, given = name.partition(",")
    return given.strip() or None, family.strip() or None


def player_json(player: Player) -> dict[str, Any]:
    """One side of a pairing in ``index.json``. The hub keeps no middle names or gender."""
    fname, lname = split_name(player.name)
    return {
        "fname": fname,
        "mname": None,
        "lname": lname,
        "title": player.title,
        "federation": player.federation,
        "gender": None,
        "fideid": player.fide_id,
    }


def pairing_result(result: Result) -> str:
    """A pairing's result in ``index.json``: the PGN words, ``*`` while the game is open."""
    return result.value


def game_result(record: GameRecord) -> str | None:
    """A game's result in ``game-N.json``: ``WHITEWIN``, ``BLACKWIN``, ``DRAW``, for a forfeit
    ``WHITEFORFAIT`` (White wins it) or ``BLACKFORFAIT``; null while the game is open."""
    if record.forfeit and record.result in _FORFEITS:
        return _FORFEITS[record.result]
    return _GAME_RESULTS.get(record.result)


def is_live(record: GameRecord) -> bool:
    """The game is being played: no result yet, and a move made or a clock running."""
    if record.result.is_decided:
        return False
    return bool(record.moves) or record.clock.state().running is not None


def whole_seconds(seconds: float) -> int:
    """Seconds as a DGT clock shows them: whole, cut down, never below zero (as ``%clk``)."""
    return max(0, int(seconds))


def move_text(move: PgnMove) -> str:
    """``"e4 5400+12"``: SAN, the mover's time left, the time the move took."""
    clock = "" if move.clock is None else str(whole_seconds(move.clock))
    spent = "" if move.spent is None else f"+{whole_seconds(move.spent)}"
    times = clock + spent
    return f"{move.san} {times}" if times else move.san


def move_texts(record: GameRecord) -> list[str]:
    """Every move of the game, with the times the PGN's ``%clk`` and ``%emt`` give."""
    return [move_text(move) for move in pgn_moves(record)]


def clock_json(clock: GameClock, *, moment: float, shift: float = 0.0) -> dict[str, Any] | None:
    """The clock reading as DGT sends it; None when either time is unknown.

    ``moment`` (Unix seconds) is when the reading is taken if the clock has no running
    stretch to date it by. ``shift`` (seconds) moves the reading's time later: a public
    viewer sees the round ``shift`` seconds late, so a clock that ran from ``since`` runs,
    on the viewer's screen, from ``since + shift`` and stays in step with the moves shown.
    """
    state = clock.state()
    if state.white is None or state.black is None:
        return None
    run = None if state.running is None else colour_name(state.running) == "white"
    at = state.since if state.since is not None else moment - shift
    return {
        "white": whole_seconds(state.white),
        "black": whole_seconds(state.black),
        "run": run,
        "time": round((at + shift) * 1000),
    }


def game_json(view: GameView, version: int, *, now: float, shift: float = 0.0) -> dict[str, Any]:
    """``game-N.json`` of one board as of the log's ``version``; ``now`` is the time of the
    answer and ``shift`` the viewer's transmission delay (0 for a live reader). A finished
    game has no clock, as in the cloud."""
    record = view.record(version)
    first = record.moves[0].at if record.moves else None
    eboard = view.pairing.eboard
    return {
        "live": is_live(record),
        "serialNr": None if eboard is None else str(eboard.number),
        "firstMove": None if first is None else round(first * 1000),
        "chess960": STANDARD_POSITION,
        "result": game_result(record),
        "comment": None,
        "clock": None
        if record.result.is_decided
        else clock_json(record.clock, moment=now, shift=shift),
        "moves": move_texts(record),
    }


def pairing_json(view: GameView, version: int) -> dict[str, Any]:
    """One board of ``index.json`` as of the log's ``version``."""
    record = view.record(version)
    return {
        "white": player_json(view.pairing.white),
        "black": player_json(view.pairing.black),
        "result": pairing_result(record.result),
        "live": is_live(record),
    }


def index_json(round_: Round, views: Sequence[GameView], cut: float | None) -> dict[str, Any]:
    """A round's ``index.json``: its date and its boards in order, as they stood at ``cut``
    (Unix seconds; None: now)."""
    return {
        "date": round_.starts_at.date().isoformat() if round_.starts_at else None,
        "pairings": [pairing_json(view, view.version_at(cut)) for view in views],
    }


def round_tally(views: Sequence[GameView], cut: float | None) -> dict[str, int]:
    """A round's entry in ``tournament.json``: its games and how many are being played."""
    live = sum(is_live(view.record(view.version_at(cut))) for view in views)
    return {"count": len(views), "live": live}


#: A round the reader may not see, or that is not paired yet, as ``tournament.json`` lists it.
NO_GAMES: dict[str, int] = {"count": 0, "live": 0}


def rules_of(tournament: Tournament) -> str:
    """The FIDE class of the tournament's time control in the cloud's upper case
    (``STANDARD``, ``RAPID``, ``BLITZ``); ``STANDARD`` when it cannot be told."""
    if not tournament.time_control:
        return STANDARD
    try:
        game_class = parse_time_control(tournament.time_control).classify()
    except TimeControlError:
        return STANDARD
    return STANDARD if game_class is None else game_class.value.upper()


def tournament_json(
    tournament: Tournament, rounds: Sequence[dict[str, int]], eboards: Sequence[int]
) -> dict[str, Any]:
    """``tournament.json``: ``rounds`` holds each round's tally, round 1 first (a round the
    reader may not see counts no games); ``eboards`` are the electronic boards' numbers."""
    return {
        "id": tournament.name,
        "name": tournament.name,
        "location": None if tournament.site in ("", "?") else tournament.site,
        "country": None,
        "website": None,
        "rules": rules_of(tournament),
        "chess960": STANDARD,
        "timecontrol": tournament.time_control,
        "rounds": [dict(tally) for tally in rounds],
        "eboards": [str(number) for number in eboards],
    }
