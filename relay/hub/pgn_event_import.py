"""A whole event from its PGN, as the hub imports it: the players, the rounds, the games
and their results.

The games are read by :func:`relay.domain.formats.pgn_import.parse_pgn_games` (legal moves
from the standard start, a known result); :func:`event_games` pairs each with its tag pairs.
:func:`import_event_pgn` then decides a new tournament, checked whole before anything is
written, and :func:`~relay.store.tournament_import.store_tournament` writes it in the
caller's transaction, as :func:`relay.hub.trf_import.import_trf` does.

* **Players** are told apart by name (the ``White``/``Black`` tags). ``WhiteElo``,
  ``WhiteFideId``, ``WhiteTitle``, ``WhiteFed`` (and Black's) give their rating, FIDE id,
  title and federation, from the first game that has them; a player given two FIDE ids is
  a conflict, and so is one FIDE id given to two names. A title or federation the relay
  does not know is left out; an Elo or FIDE id that is not a number (other than ``?``,
  ``-`` or empty) is refused. Every tag that cannot be read is reported, each with its game,
  in one :class:`~relay.domain.formats.pgn_import.PgnImportError`; a contradiction (a
  :class:`~relay.store.tournaments.ConflictError`) is raised as it is met, after the tags
  read before it.
* **Start numbers** are the initial ranking: rating descending (unrated last), then name,
  as :func:`relay.domain.tournament.swiss.seed_players` orders a Swiss.
* **Rounds and boards** come from ``Round``: ``"3"`` is round 3, ``"3.12"`` round 3 board
  12 (a ``Board`` tag wins); a game without a board number takes the next free board of its
  round, in file order. A player twice in a round is a conflict. A board number twice in
  a round is not (broadcasts that split a round into sections number each from 1): that
  round's boards follow the file's order instead, and the report's ``notes`` say so.
* **Results** are stored as the arbiter's verified results (``ResultSet`` then
  ``ResultVerified``); ``*`` leaves the game open. The PGN cannot tell a forfeit from a
  played game, so none is a forfeit.
* **Moves**, when a game has them, are stored as one ``MovesReplaced`` from ply 1: the
  event by which the arbiter's PGN import (``relay.hub.arbiter_desk``) stores moves typed
  from scoresheets. There are no clock times.
* **The tournament** is named by the caller or by the ``Event`` tag its games share; ``Site``
  and the first and last ``Date`` are kept, and ``TimeControl`` if the relay can read it.
  Its pairing system is ``swiss`` with ``rounds_planned`` the last round found.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlmodel import Session

from relay.domain.errors import Collector
from relay.domain.formats.event_file import TITLES
from relay.domain.formats.pgn_import import ImportedGame, PgnImportError, parse_pgn_games
from relay.domain.game.events import GameEvent, MovesReplaced, event_data
from relay.domain.game.record import GameRecord
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.tournament.swiss import seed_players
from relay.hub.trf_import import ImportReport, readable_time_control, result_events
from relay.store.tournament_import import (
    NewGame,
    NewPlayer,
    NewRound,
    NewTournament,
    store_tournament,
    tournament_named,
)
from relay.store.tournaments import ConflictError

REASON = "imported from the event's PGN"
_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")
_FEDERATION = re.compile(r"[A-Z]{3}")
_UNKNOWN = frozenset({"", "?", "-"})


@dataclass(frozen=True, slots=True)
class EventGame:
    """A game of the event: what the PGN reader makes of it, and its tag pairs."""

    game: ImportedGame
    tags: Mapping[str, str] = field(default_factory=dict)


def event_games(text: str) -> list[EventGame]:
    """The PGN's games with their tags; raises :class:`PgnImportError` for a game the reader
    refuses."""
    return [EventGame(game, game.tags) for game in parse_pgn_games(text)]


@dataclass
class _Entrant:
    name: str
    rating: int | None = None
    fide_id: int | None = None
    title: str | None = None
    federation: str | None = None


@dataclass(frozen=True, slots=True)
class _Placed:
    round: int
    board: int | None
    item: EventGame


def import_event_pgn(
    session: Session,
    games: Sequence[EventGame],
    *,
    who_user: str,
    name: str | None = None,
    publish: bool = False,
    at: float | None = None,
) -> ImportReport:
    """Store the event's ``games`` as a new tournament in the caller's transaction (the
    caller commits it, with its audit entry).

    Raises :class:`PgnImportError` for tags that cannot be read (a round that is not a
    number, no name for the event; all of them at once, in file order),
    :class:`ConflictError` for a contradiction (the name is taken, a player twice in a
    round, two FIDE ids for one name); all are found before anything is written. Rounds
    are stored unpublished unless ``publish``.
    """
    when = time.time() if at is None else at
    new, notes = _tournament(session, games, who_user, name, publish, when)
    stored = store_tournament(session, new)
    return ImportReport(
        stored.tournament_id,
        stored.players,
        len(stored.round_ids),
        stored.games,
        stored.round_ids,
        tuple(notes),
    )


def _tournament(
    session: Session,
    games: Sequence[EventGame],
    who_user: str,
    name: str | None,
    publish: bool,
    at: float,
) -> tuple[NewTournament, list[str]]:
    """The tournament to store, and the notes on how the file was read."""
    if not games:
        raise PgnImportError("no game in the PGN")
    errors = Collector(PgnImportError)
    name = name or errors.attempt(_event_name, games)
    if name is not None:
        tournament_named(session, name)
    entrants = _entrants(games, errors)
    read = [errors.attempt(_place, item, number) for number, item in enumerate(games, start=1)]
    errors.check(order=_by_line)
    placed = [p for p in read if p is not None]
    assert name is not None
    last = max(p.round for p in placed)
    days = sorted(d for item in games if (d := _date(item.tags.get("Date", ""))) is not None)
    ratings = [(e.name, e.rating) for e in entrants.values()]
    players: list[NewPlayer] = []
    numbers: dict[str, int] = {}
    for seeded in seed_players(ratings):
        entrant = entrants[seeded.name]
        players.append(
            NewPlayer(
                start_number=seeded.start_number,
                name=entrant.name,
                fide_id=entrant.fide_id,
                title=entrant.title,
                rating=entrant.rating,
                federation=entrant.federation,
            )
        )
        numbers[entrant.name] = seeded.start_number
    rounds: list[NewRound] = []
    notes: list[str] = []
    for number in range(1, last + 1):
        round_games = [
            NewGame(
                board,
                numbers[item.game.white],
                numbers[item.game.black],
                [(event.kind, event_data(event)) for event in _events(item.game, who_user, at)],
            )
            for board, item in _boards(number, [p for p in placed if p.round == number], notes)
        ]
        rounds.append(NewRound(number, round_games))
    new = NewTournament(
        name=name,
        site=games[0].tags.get("Site", "").strip() or "?",
        start_date=days[0] if days else None,
        end_date=days[-1] if days else None,
        time_control=readable_time_control(games[0].tags.get("TimeControl")),
        rounds_planned=last,
        pairing_system=PairingSystem.SWISS,
        players=players,
        rounds=rounds,
        published=publish,
        recorded_at=at,
    )
    return new, notes


def _event_name(games: Sequence[EventGame]) -> str:
    names = {item.tags.get("Event", "").strip() for item in games}
    names -= _UNKNOWN
    if len(names) != 1:
        found = ", ".join(repr(n) for n in sorted(names)) or "none"
        raise PgnImportError(f"name the tournament: the games' Event tags give {found}")
    return names.pop()


def _entrants(games: Sequence[EventGame], errors: Collector[PgnImportError]) -> dict[str, _Entrant]:
    """The players; a tag that cannot be read is noted in ``errors`` (those noted before a
    contradiction are raised instead of it)."""
    entrants: dict[str, _Entrant] = {}
    for number, item in enumerate(games, start=1):
        for side, player_name in (("White", item.game.white), ("Black", item.game.black)):
            if player_name in _UNKNOWN:
                errors.add(_unreadable(item, number, f"game {number}: no {side} player"))
                continue
            entrant = entrants.setdefault(player_name, _Entrant(player_name))
            tags = item.tags
            where = f"game {number} ({side})"
            rating = errors.attempt(_number, item, number, f"{side}Elo", f"{where}: Elo")
            fide_id = errors.attempt(_number, item, number, f"{side}FideId", f"{where}: FIDE id")
            if fide_id is not None and entrant.fide_id not in (None, fide_id):
                errors.check(order=_by_line)
                raise ConflictError(
                    f"{where}: {player_name} has FIDE id {fide_id} here and "
                    f"{entrant.fide_id} before"
                )
            title = tags.get(f"{side}Title", "").strip().upper()
            federation = tags.get(f"{side}Fed", "").strip().upper()
            entrant.rating = entrant.rating or rating
            entrant.fide_id = entrant.fide_id or fide_id
            entrant.title = entrant.title or (title if title in TITLES else None)
            if entrant.federation is None and _FEDERATION.fullmatch(federation):
                entrant.federation = federation
    named: dict[int, str] = {}
    for entrant in entrants.values():
        if entrant.fide_id is None:
            continue
        other = named.setdefault(entrant.fide_id, entrant.name)
        if other != entrant.name:
            errors.check(order=_by_line)
            raise ConflictError(f"FIDE id {entrant.fide_id} is given to {other} and {entrant.name}")
    return entrants


def _number(item: EventGame, number: int, tag: str, what: str) -> int | None:
    """The number in game ``number``'s tag ``tag``, if it gives one."""
    text = item.tags.get(tag, "").strip()
    if text in _UNKNOWN:
        return None
    if not text.isascii() or not text.isdigit():
        raise _unreadable(item, number, f"{what} {text!r} is not a number")
    return int(text) or None  # 0 is how some programs write "unrated" and "unknown"


def _place(item: EventGame, number: int) -> _Placed:
    text = item.tags.get("Round", "").strip().partition(".")[0]
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise _unreadable(
            item,
            number,
            f"game {number} ({item.game.white} - {item.game.black}): round "
            f"{item.tags.get('Round', '')!r} is not a round number",
        )
    return _Placed(int(text), item.game.board, item)


def _unreadable(item: EventGame, number: int, message: str) -> PgnImportError:
    return PgnImportError(message, line=item.game.line, field=f"game {number}")


def _by_line(error: PgnImportError) -> int | None:
    return error.line


def _boards(
    number: int, placed: Sequence[_Placed], notes: list[str]
) -> list[tuple[int, EventGame]]:
    """The round's games by board: numbered ones where they say, the others after; all in
    file order if a board number repeats (noted)."""
    players: set[str] = set()
    for p in placed:
        for player in (p.item.game.white, p.item.game.black):
            if player in players:
                raise ConflictError(f"round {number}: {player} plays twice")
            players.add(player)
    numbered = [p.board for p in placed if p.board is not None]
    if len(set(numbered)) != len(numbered):
        notes.append(f"round {number}: board numbers repeat, so boards follow the file's order")
        return list(enumerate((p.item for p in placed), start=1))
    boards = {p.board: p.item for p in placed if p.board is not None}
    for p in placed:
        if p.board is None:
            boards[max(boards, default=0) + 1] = p.item
    return sorted(boards.items())


def _events(game: ImportedGame, who_user: str, at: float) -> list[GameEvent]:
    record = GameRecord()
    events: list[GameEvent] = []
    if game.uci:
        events.append(MovesReplaced(ply=1, uci=game.uci, by=who_user, reason=REASON, at=at))
        record.apply(events[-1])
    if game.result.is_decided:
        events += result_events(
            game.result, forfeit=False, by=who_user, reason=REASON, at=at, record=record
        )
    return events


def _date(text: str) -> date | None:
    match = _DATE.fullmatch(text.strip())
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
