"""A TRF stored as a tournament: players with their titles, rounds with games in the order
the file implies, results as verified events in the games' logs, byes; refusals leave the
database as it was."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import func
from sqlmodel import Session, col, select

from relay.domain.formats.trf import TrfError, TrfResult, TrfTournament, parse_trf, render_trf
from relay.domain.tournament.byes import ByeKind
from relay.domain.tournament.swiss import (
    Board,
    GameResult,
    SwissPlayer,
    SwissRound,
    SwissState,
    tournament_trf,
)
from relay.hub.trf_import import TrfImportError, import_trf
from relay.store.event_log import read_events
from relay.store.models import AuditEntry, Game, GameEventRow, Player, Round, Tournament
from relay.store.models import Bye as ByeRow
from relay.store.tournaments import ConflictError, round_pairings
from tests.data_files import DATA

pytestmark = pytest.mark.both_stores

W, B, D = GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW
WF, BF = GameResult.WHITE_WINS_BY_FORFEIT, GameResult.BLACK_WINS_BY_FORFEIT
#: Given in the older letter codes; a TrfPlayer holds them as GM, WGM, IM, WFM, CM.
TITLE_CODES = {1: "g", 2: "wg", 3: "m", 4: "wf", 5: "c"}
SWISS_MANAGER_TRF16 = DATA / "trf" / "swiss-manager-trf16.trf"


def club_open() -> TrfTournament:
    """9 players, 3 rounds: a pairing-allocated bye in rounds 1 and 3, a half-point bye and
    a forfeit in round 2, a forfeit won by Black in round 3."""
    players = tuple(
        SwissPlayer(n, f"Player, No{n}", 2400 - 50 * n, "ENG" if n % 2 else "NOR", 1000 + n)
        for n in range(1, 10)
    )
    rounds = (
        SwissRound(
            (Board(1, 5, W), Board(6, 2, D), Board(3, 7, W), Board(8, 4, B)),
            {9: ByeKind.PAIRING_ALLOCATED},
        ),
        SwissRound(
            (Board(2, 1, D), Board(5, 9, WF), Board(4, 6, W), Board(7, 8, B)),
            {3: ByeKind.HALF_POINT},
        ),
        SwissRound(
            (Board(1, 3, W), Board(9, 2, BF), Board(5, 4, D), Board(6, 7, W)),
            {8: ByeKind.PAIRING_ALLOCATED},
        ),
    )
    state = SwissState(name="Club Open", players=players, total_rounds=3, rounds=rounds)
    trf = tournament_trf(state)
    titled = [
        replace(p, title=TITLE_CODES.get(p.start_number), sex="w" if p.start_number == 2 else None)
        for p in trf.players
    ]
    return replace(trf, players=titled, city="Leeds", time_control="5400+30")


def count(session: Session, model: type) -> int:
    return session.exec(select(func.count()).select_from(model)).one()


def counts(session: Session) -> dict[str, int]:
    models = (Tournament, Player, Round, Game, GameEventRow, ByeRow, AuditEntry)
    return {m.__name__: count(session, m) for m in models}


def test_a_trf_becomes_a_stored_tournament(engine):
    trf = parse_trf(render_trf(club_open()))
    with Session(engine) as session:
        report = import_trf(session, trf, who_user="Chief Arbiter", at=5.0)
        assert (report.players, report.rounds, report.games) == (9, 3, 12)
        tournament = session.get(Tournament, report.tournament_id)
        assert tournament is not None
        assert (tournament.name, tournament.site, tournament.rounds_planned) == (
            "Club Open",
            "Leeds",
            3,
        )
        assert (tournament.pairing_system, tournament.time_control) == ("swiss", "5400+30")
        players = {
            p.start_number: p
            for p in session.exec(select(Player).where(Player.tournament_id == tournament.id))
        }
        assert [players[n].title for n in range(1, 7)] == ["GM", "WGM", "IM", "WFM", "CM", None]
        assert (players[3].rating, players[3].federation, players[3].fide_id) == (2250, "ENG", 1003)
        rounds = session.exec(
            select(Round).where(Round.tournament_id == tournament.id).order_by(col(Round.number))
        ).all()
        assert [(r.number, r.published) for r in rounds] == [(1, False), (2, False), (3, False)]
        numbers = {p.id: n for n, p in players.items()}
        boards = [
            [
                (numbers[p.white.id], numbers[p.black.id])
                for p in round_pairings(session, round_id=r.id or 0)
            ]
            for r in rounds
        ]
        # Boards in order of first appearance in the file (player lines by start number).
        assert boards == [
            [(1, 5), (6, 2), (3, 7), (8, 4)],
            [(2, 1), (4, 6), (5, 9), (7, 8)],
            [(1, 3), (9, 2), (5, 4), (6, 7)],
        ]
        byes = {
            (r.number, numbers[b.player_id], b.kind)
            for r in rounds
            for b in session.exec(select(ByeRow).where(ByeRow.round_id == r.id))
        }
        assert byes == {(1, 9, "pab"), (2, 3, "half"), (3, 8, "pab")}
        second = round_pairings(session, round_id=rounds[1].id or 0)
        forfeit = read_events(session, game_id=second[2].game_id)
        assert [(e.kind, e.data["result"]) for e in forfeit] == [
            ("result", "1-0"),
            ("verified", "1-0"),
        ]
        assert forfeit[0].data["forfeit"] is True
        assert forfeit[0].data["by"] == "Chief Arbiter"
        drawn = read_events(session, game_id=second[0].game_id)
        assert [(e.kind, e.data["result"]) for e in drawn] == [
            ("result", "1/2-1/2"),
            ("verified", "1/2-1/2"),
        ]
        assert drawn[0].data["forfeit"] is False


def test_rounds_may_be_published_and_absences_are_zero_byes(engine):
    trf = club_open()
    # Player 9 was not there in round 2: no entry (the file loses the forfeit win).
    nine = trf.players[8]
    five = trf.players[4]
    trf = replace(
        trf,
        players=[
            *trf.players[:4],
            replace(
                five,
                points=five.points - 1,
                results=[r if r.round != 2 else TrfResult(2, None, "-", "Z") for r in five.results],
            ),
            *trf.players[5:8],
            replace(nine, results=[r for r in nine.results if r.round != 2]),
        ],
    )
    with Session(engine) as session:
        report = import_trf(session, trf, who_user="arbiter", publish=True)
        rounds = session.exec(
            select(Round).where(Round.tournament_id == report.tournament_id)
        ).all()
        assert all(r.published for r in rounds)
        two = next(r for r in rounds if r.number == 2)
        numbers = {p.id: p.start_number for p in session.exec(select(Player))}
        kinds = {
            numbers[b.player_id]: b.kind
            for b in session.exec(select(ByeRow).where(ByeRow.round_id == two.id))
        }
        assert kinds == {3: "half", 5: "zero", 9: "zero"}


def test_a_taken_name_is_a_conflict_and_nothing_is_written(engine):
    trf = club_open()
    with Session(engine) as session:
        import_trf(session, trf, who_user="arbiter")
        before = counts(session)
        with pytest.raises(ConflictError, match="Club Open"):
            import_trf(session, trf, who_user="arbiter")
        assert counts(session) == before


def test_a_double_forfeit_is_refused_whole(engine):
    trf = club_open()
    players = []
    for p in trf.players:
        if p.start_number in (9, 2):  # round 3: 9 - 2 was a forfeit won by Black
            results = [r if r.round != 3 else replace(r, result="-") for r in p.results]
            points = p.points - (1 if p.start_number == 2 else 0)
            p = replace(p, results=results, points=points)
        players.append(p)
    with Session(engine) as session:
        before = counts(session)
        with pytest.raises(TrfImportError, match="double forfeit"):
            import_trf(session, replace(trf, players=players), who_user="arbiter")
        assert counts(session) == before


def test_a_tournament_that_does_not_hold_together_is_refused(engine):
    trf = club_open()
    wrong = replace(trf.players[0], points=trf.players[0].points + 1)
    with Session(engine) as session, pytest.raises(TrfError, match="points"):
        import_trf(session, replace(trf, players=[wrong, *trf.players[1:]]), who_user="a")


def test_a_round_robin_type_sets_the_system(engine):
    trf = replace(club_open(), tournament_type="Double Round Robin")
    with Session(engine) as session:
        report = import_trf(session, trf, who_user="arbiter")
        tournament = session.get(Tournament, report.tournament_id)
        assert tournament is not None
        assert tournament.pairing_system == "double-round-robin"


def test_a_swiss_manager_file_is_stored_with_its_titles_results_and_byes(engine):
    """The TRF16 of tests/data/trf, laid out as Swiss-Manager lays it out (see
    tests/relay/domain/formats/test_trf_swiss_manager.py): upper-case titles, all four
    kinds of bye, forfeits either way."""
    trf = parse_trf(SWISS_MANAGER_TRF16.read_text(encoding="utf-8"))
    with Session(engine) as session:
        report = import_trf(session, trf, who_user="Chief Arbiter", at=5.0)
        assert (report.players, report.rounds, report.games) == (10, 4, 18)
        players = {
            p.start_number: p
            for p in session.exec(
                select(Player).where(Player.tournament_id == report.tournament_id)
            )
        }
        assert {n: (p.title, p.rating) for n, p in players.items()} == {
            1: ("GM", 2605), 2: ("IM", 2480), 3: ("WGM", 2390), 4: ("FM", 2330),
            5: ("WIM", 2260), 6: ("CM", 2210), 7: ("WFM", 2105), 8: (None, 2040),
            9: ("WCM", 2010), 10: (None, None),
        }  # fmt: skip
        rounds = session.exec(
            select(Round)
            .where(Round.tournament_id == report.tournament_id)
            .order_by(col(Round.number))
        ).all()
        numbers = {p.id: n for n, p in players.items()}
        byes = {
            (r.number, numbers[b.player_id], b.kind)
            for r in rounds
            for b in session.exec(select(ByeRow).where(ByeRow.round_id == r.id))
        }
        assert byes == {(2, 6, "half"), (2, 10, "zero"), (3, 7, "full"), (3, 10, "pab")}
        forfeits = {}
        for r in rounds:
            for pairing in round_pairings(session, round_id=r.id or 0):
                (result, _) = read_events(session, game_id=pairing.game_id)
                if result.data["forfeit"]:
                    pair = (numbers[pairing.white.id], numbers[pairing.black.id])
                    forfeits[(r.number, pair)] = result.data["result"]
        assert forfeits == {(1, (5, 10)): "1-0", (3, (6, 8)): "0-1"}
