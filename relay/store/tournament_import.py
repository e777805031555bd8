"""Storing a whole tournament decided elsewhere: its players, rounds, games, their logs and
byes, as one :class:`NewTournament`.

What goes in it (which player is which start number, which game is on which board, which
events each game's log starts with) is decided by the importers of the hub
(``relay.hub.trf_import``, ``relay.hub.pgn_event_import``), which check everything before
anything is written. This module only writes: in the caller's session, flushed and not
committed, so the caller commits it with whatever else belongs to the transaction (an audit
entry), or lets it roll back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlmodel import Session, select

from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.store.event_log import append_events
from relay.store.models import Bye, Tournament
from relay.store.tournaments import (
    ConflictError,
    add_player,
    create_game,
    create_round,
    create_tournament,
)


@dataclass(frozen=True, slots=True)
class NewPlayer:
    start_number: int
    name: str
    fide_id: int | None = None
    title: str | None = None
    rating: int | None = None
    federation: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game between two start numbers, with the ``(kind, data)`` events of its log."""

    board: int
    white: int
    black: int
    events: Sequence[tuple[str, Mapping[str, Any]]] = ()


@dataclass(frozen=True, slots=True)
class NewRound:
    number: int
    games: Sequence[NewGame] = ()
    #: ``(start number, kind)``
    byes: Sequence[tuple[int, ByeKind]] = ()


@dataclass(frozen=True, slots=True)
class NewTournament:
    name: str
    site: str = "?"
    start_date: date | None = None
    end_date: date | None = None
    time_control: str | None = None
    rounds_planned: int | None = None
    pairing_system: PairingSystem | None = None
    players: Sequence[NewPlayer] = ()
    rounds: Sequence[NewRound] = ()
    published: bool = False
    #: When the games' events were recorded.
    recorded_at: float = 0.0


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """What :func:`store_tournament` wrote."""

    tournament_id: int
    players: int
    round_ids: tuple[int, ...]
    games: int


def tournament_named(session: Session, name: str) -> None:
    """Refuse a tournament name already stored (:class:`ConflictError`)."""
    if session.exec(select(Tournament).where(Tournament.name == name)).first() is not None:
        raise ConflictError(f"a tournament named {name!r} is already stored")


def store_tournament(session: Session, new: NewTournament) -> StoredTournament:
    """Write ``new`` in the caller's transaction (flushed, not committed)."""
    tournament_named(session, new.name)
    tournament = create_tournament(
        session,
        name=new.name,
        site=new.site,
        start_date=new.start_date,
        end_date=new.end_date,
        time_control=new.time_control,
        rounds_planned=new.rounds_planned,
    )
    tournament.pairing_system = new.pairing_system
    session.add(tournament)
    assert tournament.id is not None
    ids: dict[int, int] = {}
    for player in new.players:
        stored = add_player(
            session,
            tournament_id=tournament.id,
            start_number=player.start_number,
            name=player.name,
            fide_id=player.fide_id,
            title=player.title,
            rating=player.rating,
            federation=player.federation,
        )
        assert stored.id is not None
        ids[player.start_number] = stored.id
    round_ids: list[int] = []
    games = 0
    for new_round in new.rounds:
        round_ = create_round(
            session, tournament_id=tournament.id, number=new_round.number, published=new.published
        )
        assert round_.id is not None
        round_ids.append(round_.id)
        for new_game in new_round.games:
            game = create_game(
                session,
                round_id=round_.id,
                board=new_game.board,
                white_id=ids[new_game.white],
                black_id=ids[new_game.black],
            )
            assert game.id is not None
            games += 1
            if new_game.events:
                append_events(
                    session, game_id=game.id, events=new_game.events, recorded_at=new.recorded_at
                )
        for start_number, kind in new_round.byes:
            session.add(Bye(round_id=round_.id, player_id=ids[start_number], kind=kind))
    session.flush()
    return StoredTournament(tournament.id, len(ids), tuple(round_ids), games)
