"""A paired round in a fresh database, the way an event file would make it."""

from __future__ import annotations

from sqlmodel import Session

from relay.domain.formats.event_file import (
    BoardSetup,
    EventSetup,
    PlayerSetup,
    RoundSetup,
    TournamentSetup,
)
from relay.store.setup import load_event
from relay.store.tournaments import list_games, list_rounds


def paired_round(
    session: Session,
    *,
    games: int = 1,
    name: str = "Test Open",
    number: int = 1,
    ports: list[str] | None = None,
    published: bool = True,
    delay: int = 0,
) -> tuple[int, list[int]]:
    """Round ``number`` of tournament ``name`` with ``games`` boards; returns the round's id
    and its games' ids in board order. Player ``2b-1`` has White on board ``b``."""
    players = []
    for board in range(1, games + 1):
        players.append(PlayerSetup(2 * board - 1, f"White{board}, Player", rating=2000 + board))
        players.append(PlayerSetup(2 * board, f"Black{board}, Player", rating=1900 + board))
    setup = EventSetup(
        tournament=TournamentSetup(name=name, site="Oslo NOR", time_control="40/5400+30"),
        players=tuple(players),
        boards=tuple(BoardSetup(n, url) for n, url in enumerate(ports or [], start=1)),
        rounds=(
            RoundSetup(
                number=number,
                pairings=tuple((2 * b - 1, 2 * b) for b in range(1, games + 1)),
                published=published,
                delay=delay,
            ),
        ),
    )
    report = load_event(session, setup)
    session.commit()
    round_ = next(
        r for r in list_rounds(session, tournament_id=report.tournament_id) if r.number == number
    )
    assert round_.id is not None
    return round_.id, [game.id or 0 for game in list_games(session, round_id=round_.id)]
