"""The standings services called directly, over a real SQLite store (no HTTP): a TRF's own
points come back, provisional results count apart, team matches rank teams, the start date
(or the rules) pick the edition of FIDE C.07."""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import Session, select

from relay.bus.memory import MemoryBus
from relay.domain.game.events import GameEvent, ResultSet, ResultVerified, event_data
from relay.domain.results import Result
from relay.domain.tournament.tie_break_editions import Edition
from relay.hub.game_views import GameViews
from relay.hub.standings import VisibleRound, edition_of, player_standings
from relay.hub.team_standings import team_standings_of
from relay.hub.trf_import import import_trf
from relay.store.event_log import append_events
from relay.store.models import Tournament
from relay.store.tournaments import (
    add_player,
    create_game,
    create_round,
    create_tournament,
    get_tournament,
    list_rounds,
)
from tests.relay.store.test_trf_import import club_open


def every_round(session: Session, tournament_id: int) -> list[VisibleRound]:
    return [(r.id or 0, r, None) for r in list_rounds(session, tournament_id=tournament_id)]


def result(game_id: int, session: Session, value: str, *, verified: bool) -> None:
    events: list[GameEvent] = [ResultSet(result=Result(value), by="arb", reason="sheet", at=1.0)]
    if verified:
        events.append(ResultVerified(result=Result(value), by="arb", at=1.0))
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


async def bh_by_start(engine, start: date | None, edition: str | None) -> dict[int, float]:
    """BH per start number of the imported Club Open, dated ``start`` and naming
    ``edition``."""
    with Session(engine) as session:
        tournament = session.exec(select(Tournament)).one()
        tournament.start_date, tournament.tie_break_edition = start, edition
        session.add(tournament)
        session.commit()
        assert tournament.id is not None
        rows = await player_standings(
            GameViews(engine, MemoryBus()),
            session,
            tournament,
            every_round(session, tournament.id),
            provisional=False,
        )
    return {row.player.start_number: row.tie_breaks["BH"] for row in rows}


@pytest.mark.anyio
async def test_the_start_date_picks_the_c07_edition(engine):
    with Session(engine) as session:
        import_trf(session, club_open(), who_user="arbiter", at=1.0)
        session.commit()
    before = await bh_by_start(engine, date(2026, 2, 28), None)
    after = await bh_by_start(engine, date(2026, 3, 1), None)
    # Club Open, 3 rounds: the 2026 edition caps each dummy (C.07 16.4) at a draw times the
    # rounds, 1.5, or, for a forfeit, at the scheduled opponent's adjusted score.
    # No. 2 (2 points) won r3 by forfeit against No. 9 (a PAB and two forfeit losses: 1):
    # the dummy drops from 2 to 1. No. 5 (1.5) won r2 by forfeit against No. 9: 1.5 -> 1.
    # No. 8 (2) had a PAB in r3: 2 -> 1.5. Everyone else's unplayed rounds (No. 3's half
    # bye, No. 9's own) have a dummy at or under the caps already.
    assert {n: before[n] - after[n] for n in before} == {
        1: 0, 2: 1, 3: 0, 4: 0, 5: 0.5, 6: 0, 7: 0, 8: 0.5, 9: 0,
    }  # fmt: skip
    # Named, the edition wins over the start date.
    assert await bh_by_start(engine, date(2026, 3, 1), "2024") == before
    assert await bh_by_start(engine, date(2026, 2, 28), "2026") == after


def test_without_a_start_date_the_edition_in_force_today():
    undated = Tournament(name="Undated")
    assert edition_of(undated, date(2026, 2, 1)) is Edition.FIDE_2024
    assert edition_of(undated, date(2026, 3, 1)) is Edition.FIDE_2026
    assert edition_of(Tournament(name="Named", tie_break_edition="2024"), date(2027, 1, 1)) is (
        Edition.FIDE_2024
    )
