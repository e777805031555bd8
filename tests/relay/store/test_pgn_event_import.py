"""A whole event's PGN stored as a tournament: players from the tags, seeded by rating then
name, rounds and boards from ``Round "r.b"``, verified results, and the moves of games
that have them; refusals leave the database as it was."""

from __future__ import annotations

import pytest
from sqlalchemy import func
from sqlmodel import Session, col, select

from relay.domain.formats.pgn_import import PgnImportError
from relay.domain.game.events import event_from_data
from relay.domain.game.record import GameRecord
from relay.hub.pgn_event_import import event_games, import_event_pgn
from relay.store.event_log import read_events
from relay.store.models import Game, GameEventRow, Player, Round, Tournament
from relay.store.tournaments import ConflictError, round_pairings

pytestmark = pytest.mark.both_stores


def game(round_: str, white: str, black: str, result: str, moves: str = "", **tags: str) -> str:
    lines = [
        '[Event "Spring Rapid"]',
        '[Site "Oslo"]',
        f'[Date "2025.04.0{round_[0]}"]',
        f'[Round "{round_}"]',
        f'[White "{white}"]',
        f'[Black "{black}"]',
        f'[Result "{result}"]',
        '[TimeControl "15 min + 10 s/move"]',
        *(f'[{name} "{value}"]' for name, value in tags.items()),
    ]
    return "\n".join(lines) + f"\n\n{moves} {result}\n\n"


EVENT = "".join(
    (
        game("1.2", "Berg, Ann", "Dahl, Eva", "0-1", BlackElo="2300", BlackTitle="WGM"),
        game(
            "1.1",
            "Aas, Kari",
            "Cruz, Maria",
            "1-0",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
            WhiteElo="2400",
            WhiteFideId="1503014",
            WhiteTitle="IM",
            WhiteFed="NOR",
            BlackElo="2300",
            BlackFed="ESP",
        ),
        game("2", "Dahl, Eva", "Aas, Kari", "1/2-1/2"),
        game("2", "Cruz, Maria", "Berg, Ann", "*", "1. d4 d5"),
    )
)


def count(session: Session, model: type) -> int:
    return session.exec(select(func.count()).select_from(model)).one()


def test_an_event_pgn_becomes_a_tournament(engine):
    with Session(engine) as session:
        report = import_event_pgn(session, event_games(EVENT), who_user="admin", at=7.0)
        assert (report.players, report.rounds, report.games) == (4, 2, 4)
        tournament = session.get(Tournament, report.tournament_id)
        assert tournament is not None
        assert (tournament.name, tournament.site, tournament.rounds_planned) == (
            "Spring Rapid",
            "Oslo",
            2,
        )
        assert (str(tournament.start_date), str(tournament.end_date)) == (
            "2025-04-01",
            "2025-04-02",
        )
        assert tournament.time_control == "15 min + 10 s/move"
        players = session.exec(
            select(Player)
            .where(Player.tournament_id == tournament.id)
            .order_by(col(Player.start_number))
        ).all()
        # Rating descending, then name: Cruz and Dahl share 2300; Berg is unrated.
        assert [(p.start_number, p.name, p.rating) for p in players] == [
            (1, "Aas, Kari", 2400),
            (2, "Cruz, Maria", 2300),
            (3, "Dahl, Eva", 2300),
            (4, "Berg, Ann", None),
        ]
        aas = players[0]
        assert (aas.fide_id, aas.title, aas.federation) == (1503014, "IM", "NOR")
        assert (players[2].title, players[1].federation) == ("WGM", "ESP")
        rounds = session.exec(
            select(Round).where(Round.tournament_id == tournament.id).order_by(col(Round.number))
        ).all()
        assert not any(r.published for r in rounds)
        one = round_pairings(session, round_id=rounds[0].id or 0)
        assert [(p.game.board, p.white.name) for p in one] == [(1, "Aas, Kari"), (2, "Berg, Ann")]
        mate = _record(session, one[0].game_id)
        assert [m.san for m in mate.moves][-1] == "Qxf7#"
        assert (mate.result, mate.verified) == ("1-0", True)
        two = round_pairings(session, round_id=rounds[1].id or 0)
        # No board numbers: boards in file order.
        assert [p.white.name for p in two] == ["Dahl, Eva", "Cruz, Maria"]
        assert (
            _record(session, two[0].game_id).result,
            _record(session, two[0].game_id).verified,
        ) == (
            "1/2-1/2",
            True,
        )
        open_game = _record(session, two[1].game_id)
        assert (len(open_game.moves), open_game.result) == (2, "*")


def _record(session: Session, game_id: int) -> GameRecord:
    return GameRecord.from_events(
        event_from_data(e.kind, e.data) for e in read_events(session, game_id=game_id)
    )


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        (EVENT + game("x", "Aas, Kari", "Berg, Ann", "1-0"), PgnImportError, "round 'x'"),
        (EVENT + game("2.1", "Aas, Kari", "Berg, Ann", "1-0"), ConflictError, "plays twice"),
        (
            EVENT + game("1.3", "Fry, Liv", "Gran, Ida", "1-0", WhiteFideId="1503014"),
            ConflictError,
            "FIDE id 1503014 is given to Aas, Kari and Fry, Liv",
        ),
        (
            EVENT + game("2.3", "Aas, Kari", "Gran, Ida", "1-0", WhiteFideId="1"),
            ConflictError,
            "Aas, Kari has FIDE id 1 here",
        ),
        (
            EVENT + game("3.1", "Fry, Liv", "Gran, Ida", "1-0", WhiteElo="high"),
            PgnImportError,
            "Elo",
        ),
    ],
)
def test_refusals_write_nothing(engine, text, error, match):
    with Session(engine) as session:
        before = [count(session, m) for m in (Tournament, Player, Round, Game, GameEventRow)]
        with pytest.raises(error, match=match):
            import_event_pgn(session, event_games(text), who_user="admin")
        after = [count(session, m) for m in (Tournament, Player, Round, Game, GameEventRow)]
        assert after == before


def test_a_taken_name_is_a_conflict_unless_another_is_given(engine):
    with Session(engine) as session:
        import_event_pgn(session, event_games(EVENT), who_user="admin")
        with pytest.raises(ConflictError, match="Spring Rapid"):
            import_event_pgn(session, event_games(EVENT), who_user="admin")
        again = import_event_pgn(session, event_games(EVENT), who_user="admin", name="Copy")
        assert again.players == 4


def test_tags_are_paired_with_the_games_read():
    games = event_games(EVENT)
    assert [g.tags["Round"] for g in games] == ["1.2", "1.1", "2", "2"]
    assert [g.game.board for g in games] == [2, 1, None, None]
    with pytest.raises(PgnImportError):
        event_games(EVENT + game("3", "Fry, Liv", "Gran, Ida", "1-0", "1. e4 e4"))


def test_repeated_board_numbers_follow_the_file_order_with_a_note(engine):
    sections = game("1.1", "Aas, Kari", "Berg, Ann", "1-0") + game(
        "1.1", "Cruz, Maria", "Dahl, Eva", "0-1"
    )
    with Session(engine) as session:
        report = import_event_pgn(session, event_games(sections), who_user="admin")
        assert report.notes == ("round 1: board numbers repeat, so boards follow the file's order",)
        (round_,) = session.exec(
            select(Round).where(Round.tournament_id == report.tournament_id)
        ).all()
        pairings = round_pairings(session, round_id=round_.id or 0)
        assert [(p.game.board, p.white.name) for p in pairings] == [
            (1, "Aas, Kari"),
            (2, "Cruz, Maria"),
        ]
