"""A tournament read from a FIDE Tournament Report File (TRF16 or TRF-2026), as the hub
imports it.

A TRF becomes a new tournament: its players, every round it has an entry for, each round's
games with their results, and its byes. This module decides all of it (a
:class:`~relay.store.tournament_import.NewTournament`, checked whole before anything is
written) and :func:`~relay.store.tournament_import.store_tournament` writes it in the
caller's transaction; a tournament of the same name already stored is a
:class:`~relay.store.tournaments.ConflictError`, and nothing is written. Results go where
every result lives, in the game's event log: a ``ResultSet`` (``forfeit`` for ``+``/``-``)
followed by a ``ResultVerified``, by ``who_user``.

Choices the file leaves open:

* **Boards.** A TRF does not number boards. A round's games are numbered in order of first
  appearance: walking the player lines from the top, a game gets the next board when the
  first of its two players is met. Files list players by start number, so board 1 holds the
  highest-seeded player who played.
* **Byes.** ``U`` is the pairing-allocated bye (``pab``), ``H`` ``half``, ``F`` ``full``,
  ``Z`` ``zero`` (:attr:`~relay.domain.tournament.byes.ByeKind.trf_code`); an entry without
  an opponent or a result (``0000 -``) is ``zero`` too, and
  so is a player with no entry in a round that has games (the player was absent; the
  report writes both as ``Z``). In a round without games (byes asked for a round not yet
  paired) only the entries given are stored.
* **Results.** ``W``/``D``/``L`` (an unrated game, played for less than one move) are stored
  as ``1-0``/``1/2-1/2``/``0-1``: the event log has no such distinction. A double forfeit
  (``-`` against ``-``) has no result in the log, so it is refused
  (:class:`TrfImportError`). A blank result leaves the game open.
* **Pairing system.** A TRF has no field for it. The free-text type (``092``) is read for
  "round robin" (``double`` making it a double round robin); anything else is ``swiss``.
* **Titles.** Read in either form the TRF descriptions and programs use (``GM`` or ``g``,
  ``WGM`` or ``wg``, any case) and stored in the official one, ``GM``, ``WGM``, ...
* **What is dropped.** Sex and birth date (no column for them), the first-round colour
  (the store does not keep one; the report says ``white``), a ``122`` time control the
  relay cannot read, and a rating or FIDE id of 0 (unrated, unknown).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlmodel import Session

from relay.domain.clock.time_control import TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.errors import InvalidInputError
from relay.domain.formats.trf import TrfPlayer, TrfResult, TrfTournament, render_trf
from relay.domain.game.arbiter import set_result, verify_result
from relay.domain.game.events import GameEvent, event_data
from relay.domain.game.record import GameRecord
from relay.domain.results import Result
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.store.tournament_import import (
    NewGame,
    NewPlayer,
    NewRound,
    NewTournament,
    store_tournament,
    tournament_named,
)

#: TRF bye codes as bye kinds; blank is an entry without an opponent or a result.
BYES: Mapping[str, ByeKind] = {kind.trf_code: kind for kind in ByeKind} | {"": ByeKind.ZERO_POINT}
#: White's result code as (result, forfeit).
RESULTS: Mapping[str, tuple[Result, bool]] = {
    "1": (Result.WHITE_WINS, False),
    "=": (Result.DRAW, False),
    "0": (Result.BLACK_WINS, False),
    "W": (Result.WHITE_WINS, False),
    "D": (Result.DRAW, False),
    "L": (Result.BLACK_WINS, False),
    "+": (Result.WHITE_WINS, True),
    "-": (Result.BLACK_WINS, True),
}
REASON = "imported from a TRF"


class TrfImportError(ValueError, InvalidInputError):
    """A well-formed TRF that the store cannot hold (a double forfeit)."""


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import created."""

    tournament_id: int
    players: int
    rounds: int
    games: int
    #: The ids of the rounds created, for caches keyed by round.
    round_ids: tuple[int, ...] = ()
    #: What was odd in the file and how it was read.
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return (
            f"tournament {self.tournament_id} created: {self.players} players, "
            f"{self.rounds} rounds, {self.games} games"
        )


def import_trf(
    session: Session,
    trf: TrfTournament,
    *,
    who_user: str,
    publish: bool = False,
    at: float | None = None,
) -> ImportReport:
    """Store ``trf`` as a new tournament in the caller's transaction (the caller commits it,
    with its audit entry).

    Raises :class:`~relay.domain.formats.trf.TrfError` for a tournament that does not hold
    together (checked as :func:`render_trf` checks it), :class:`TrfImportError` for one the
    store cannot hold, :class:`~relay.store.tournaments.ConflictError` if the name is taken;
    all are found before anything is written. Rounds are stored unpublished unless
    ``publish``; ``at`` stamps the result events.
    """
    render_trf(trf)  # the reader's consistency rules, for a tournament built by hand
    tournament_named(session, trf.name)
    new = trf_tournament(
        trf, who_user=who_user, publish=publish, at=time.time() if at is None else at
    )
    stored = store_tournament(session, new)
    return ImportReport(
        stored.tournament_id, stored.players, len(stored.round_ids), stored.games, stored.round_ids
    )


def trf_tournament(trf: TrfTournament, *, who_user: str, publish: bool, at: float) -> NewTournament:
    """What storing ``trf`` writes: players, rounds, games with their result events, byes.

    Raises :class:`TrfImportError` for a double forfeit.
    """
    last = max((r.round for p in trf.players for r in p.results), default=0)
    rounds: list[NewRound] = []
    for number in range(1, last + 1):
        pairs, byes = _round_entries(trf.players, number)
        games: list[NewGame] = []
        for board, (white, black, code) in enumerate(pairs, start=1):
            if code == "":
                games.append(NewGame(board, white, black))  # not played yet
                continue
            if code == "-" and _code_of(trf.players, black, number) == "-":
                raise TrfImportError(
                    f"round {number}: {white} - {black} is a double forfeit, which the relay "
                    "cannot store"
                )
            result, forfeit = RESULTS[code]
            events = result_events(
                result, forfeit=forfeit, by=who_user, reason=REASON, at=at, record=GameRecord()
            )
            rows = [(event.kind, event_data(event)) for event in events]
            games.append(NewGame(board, white, black, rows))
        rounds.append(NewRound(number, games, byes))
    return NewTournament(
        name=trf.name,
        site=trf.city or "?",
        start_date=trf.start,
        end_date=trf.end,
        time_control=readable_time_control(trf.time_control),
        rounds_planned=trf.rounds or None,
        pairing_system=_system_of(trf.tournament_type),
        players=[
            NewPlayer(
                start_number=player.start_number,
                name=player.name,
                fide_id=player.fide_id or None,
                title=player.title,  # the official form (GM, WGM, ...), as the relay holds it
                rating=player.rating or None,
                federation=player.federation,
            )
            for player in trf.players
        ],
        rounds=rounds,
        published=publish,
        recorded_at=at,
    )


def readable_time_control(text: str | None) -> str | None:
    """``text`` if the relay can read it as a time control, else None."""
    if not text:
        return None
    try:
        parse_time_control(text)
    except TimeControlError:
        return None
    return text


def result_events(
    result: Result, *, forfeit: bool, by: str, reason: str, at: float, record: GameRecord
) -> list[GameEvent]:
    """The arbiter's result and its verification, checked against ``record`` (updated)."""
    events: list[GameEvent] = []
    events.append(set_result(record, result=result, by=by, reason=reason, at=at, forfeit=forfeit))
    record.apply(events[-1])
    events.append(verify_result(record, result=result, by=by, at=at))
    record.apply(events[-1])
    return events


def _system_of(tournament_type: str | None) -> PairingSystem:
    text = (tournament_type or "").lower().replace("-", " ")
    if "robin" in text:
        return PairingSystem.DOUBLE_ROUND_ROBIN if "double" in text else PairingSystem.ROUND_ROBIN
    return PairingSystem.SWISS


def _entry(player: TrfPlayer, number: int) -> TrfResult | None:
    return next((r for r in player.results if r.round == number), None)


def _code_of(players: Sequence[TrfPlayer], start_number: int, number: int) -> str | None:
    player = next(p for p in players if p.start_number == start_number)
    entry = _entry(player, number)
    return None if entry is None else entry.result


def _round_entries(
    players: Sequence[TrfPlayer], number: int
) -> tuple[list[tuple[int, int, str]], list[tuple[int, ByeKind]]]:
    """Round ``number``'s games as (White, Black, White's code) in board order (first
    appearance), and its byes as (start number, kind)."""
    games: list[tuple[int, int, str]] = []
    placed: set[int] = set()
    byes: list[tuple[int, ByeKind]] = []
    missing: list[int] = []
    for player in players:
        entry = _entry(player, number)
        if entry is None:
            missing.append(player.start_number)
        elif entry.opponent is None:
            byes.append((player.start_number, BYES[entry.result]))
        elif player.start_number not in placed:
            opponent = entry.opponent
            if entry.colour == "w":
                games.append((player.start_number, opponent, entry.result))
            else:
                white_code = _code_of(players, opponent, number)
                assert white_code is not None  # render_trf checked the mirror entry
                games.append((opponent, player.start_number, white_code))
            placed |= {player.start_number, opponent}
    if games:
        byes += [(start_number, ByeKind.ZERO_POINT) for start_number in missing]
    return games, byes
