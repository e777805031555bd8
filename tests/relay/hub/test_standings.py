"""The standings services called directly, over a real SQLite store (no HTTP): a TRF's own
points come back, provisional results count apart, team matches rank teams."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from relay.bus.memory import MemoryBus
from relay.domain.game.events import GameEvent, ResultSet, ResultVerified, event_data
from relay.hub.game_views import GameViews
from relay.hub.standings import VisibleRound, player_standings
from relay.hub.team_standings import team_standings_of
from relay.hub.trf_import import import_trf
from relay.store.engine import open_store
from relay.store.event_log import append_events
from relay.store.tournaments import (
    add_player,
    create_game,
    create_round,
    create_tournament,
    get_tournament,
    list_rounds,
)
from tests.relay.store.test_trf_import import club_open


@pytest.fixture
def engine(tmp_path):
    engine = open_store(f"sqlite:///{tmp_path / 'standings.db'}")
    yield engine
    engine.dispose()


def every_round(session: Session, tournament_id: int) -> list[VisibleRound]:
    return [(r.id or 0, r, None) for r in list_rounds(session, tournament_id=tournament_id)]


def result(game_id: int, session: Session, value: str, *, verified: bool) -> None:
    events: list[GameEvent] = [ResultSet(result=value, by="arb", reason="sheet", at=1.0)]
    if verified:
        events.append(ResultVerified(result=value, by="arb", at=1.0))
    rows = [(event.kind, event_data(event)) for event in events]
    append_events(session, game_id=game_id, events=rows, recorded_at=1.0)


def league(session: Session, teams: dict[str, int]) -> tuple[int, list[int]]:
    """A tournament of teams; returns its id and its players' ids, by start number."""
    tournament = create_tournament(session, name="League", time_control="15+10")
    assert tournament.id is not None
    ids = []
    number = 0
    for team, size in teams.items():
        for board in range(1, size + 1):
            number += 1
            player = add_player(
                session,
                tournament_id=tournament.id,
                start_number=number,
                name=f"{team}, Board{board}",
                rating=2300 - 10 * number,
                team=team,
            )
            assert player.id is not None
            ids.append(player.id)
    return tournament.id, ids


@pytest.mark.anyio
async def test_the_standings_of_an_imported_trf_give_its_own_points(engine):
    trf = club_open()
    with Session(engine) as session:
        tournament_id = import_trf(session, trf, who_user="arbiter", at=1.0).tournament_id
        session.commit()
    views = GameViews(engine, MemoryBus())
    with Session(engine) as session:
        rows = await player_standings(
            views,
            session,
            get_tournament(session, tournament_id=tournament_id),
            every_round(session, tournament_id),
            provisional=False,
        )
    points = {row.player.start_number: row.points for row in rows}
    assert points == {p.start_number: p.points for p in trf.players}
    assert [row.points for row in rows] == sorted(points.values(), reverse=True)
    assert all(row.provisional == 0.0 for row in rows)
    assert list(rows[0].tie_breaks)[:5] == ["BH-C1", "BH", "SB", "WIN", "BPG"]


@pytest.mark.anyio
async def test_provisional_results_count_apart_and_only_for_tokens(engine):
    with Session(engine) as session:
        tournament_id, (a, b, c, d) = league(session, {"Hradec": 2, "Opava": 2})
        round_ = create_round(session, tournament_id=tournament_id, number=1, published=True)
        assert round_.id is not None
        first = create_game(session, round_id=round_.id, board=1, white_id=a, black_id=c)
        second = create_game(session, round_id=round_.id, board=2, white_id=d, black_id=b)
        result(first.id or 0, session, "1-0", verified=True)
        result(second.id or 0, session, "1/2-1/2", verified=False)
        session.commit()
    views = GameViews(engine, MemoryBus())
    with Session(engine) as session:
        tournament = get_tournament(session, tournament_id=tournament_id)
        rounds = every_round(session, tournament_id)
        public = await player_standings(views, session, tournament, rounds, provisional=False)
        live = await player_standings(views, session, tournament, rounds, provisional=True)
        teams_public = await team_standings_of(
            views, session, tournament_id, rounds, provisional=False
        )
        teams_live = await team_standings_of(
            views, session, tournament_id, rounds, provisional=True
        )
    by_number = {row.player.start_number: row for row in public}
    assert (by_number[1].points, by_number[1].played) == (1.0, 1)
    assert (by_number[4].points, by_number[4].played, by_number[4].provisional) == (0.0, 0, 0.0)
    assert by_number[1].rating_change is not None  # rated players met rated players
    live_by_number = {row.player.start_number: row for row in live}
    assert (live_by_number[4].points, live_by_number[4].provisional) == (0.0, 0.5)
    assert live_by_number[4].played == 1
    # The match counts once both games have a result the reader sees.
    assert [(t.team, t.match_points, t.matches) for t in teams_public] == [
        ("Hradec", 0.0, ()),
        ("Opava", 0.0, ()),
    ]
    assert [(t.team, t.match_points, t.game_points) for t in teams_live] == [
        ("Hradec", 2.0, 1.5),
        ("Opava", 0.0, 0.5),
    ]
    (match,) = teams_live[0].matches
    assert (match.home, match.away, match.boards) == ("Hradec", "Opava", (1.0, 0.5))
