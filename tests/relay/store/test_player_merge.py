"""Two player rows made one, on SQLite and PostgreSQL: games and byes move to the player
kept, who takes the name chosen and what they lacked; the other row goes and the start
numbers close up. Two players of one round, or with different FIDE ids, are refused, and a
refusal changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from relay.domain.formats.event_file import EventSetup, PlayerSetup, RoundSetup, TournamentSetup
from relay.domain.tournament.byes import ByeKind
from relay.store.models import Bye, Game, Player
from relay.store.pairings import round_numbered, set_bye, withdraw
from relay.store.player_merge import PlayerMergeError, merge_players, placements
from relay.store.setup import load_event
from relay.store.tournaments import NotFoundError, list_players, list_rounds, round_pairings

pytestmark = pytest.mark.both_stores

PLAYERS = (
    PlayerSetup(1, "Kramnik, Vladimir", fide_id=4101588, rating=2753),
    PlayerSetup(2, "Carlsen, Magnus", fide_id=1503014, rating=2830),
    PlayerSetup(3, "Kramnik, V", title="GM", federation="RUS", team="Russia"),
    PlayerSetup(4, "Kramnik, Alexander", rating=2400),
    PlayerSetup(5, "Müller, Jörg"),
    PlayerSetup(6, "Mueller, Joerg", fide_id=4600000),
)


def load(engine: Engine, rounds: tuple[RoundSetup, ...], name: str = "Names Open") -> int:
    setup = EventSetup(tournament=TournamentSetup(name=name), players=PLAYERS, rounds=rounds)
    with Session(engine) as session:
        tournament_id = load_event(session, setup).tournament_id
        session.commit()
        return tournament_id


def ids(engine: Engine, tournament_id: int) -> dict[int, int]:
    """Player id by start number."""
    with Session(engine) as session:
        return {
            p.start_number: p.id or 0 for p in list_players(session, tournament_id=tournament_id)
        }


def starting_list(engine: Engine, tournament_id: int) -> list[tuple[int, str]]:
    with Session(engine) as session:
        return [
            (p.start_number, p.name) for p in list_players(session, tournament_id=tournament_id)
        ]


def boards(engine: Engine, tournament_id: int) -> list[tuple[int, int, str, str]]:
    """Every game: (round, board, White, Black)."""
    with Session(engine) as session:
        return [
            (round_.number, p.game.board, p.white.name, p.black.name)
            for round_ in list_rounds(session, tournament_id=tournament_id)
            for p in round_pairings(session, round_id=round_.id or 0)
        ]


def test_the_dropped_player_s_games_and_byes_become_the_kept_one_s(engine):
    tid = load(
        engine, (RoundSetup(1, pairings=((3, 2), (4, 5))), RoundSetup(2, pairings=((2, 3),)))
    )
    player = ids(engine, tid)
    with Session(engine) as session:
        # Round 3 is there only for the bye player 3 asked for.
        three = round_numbered(session, tournament_id=tid, number=3)
        set_bye(session, round_id=three.id or 0, player_id=player[3], kind=ByeKind.HALF_POINT)
        session.commit()
    with Session(engine) as session:
        merged = merge_players(
            session,
            tournament_id=tid,
            keep_id=player[1],
            drop_id=player[3],
            name="Kramnik, Vladimir",
        )
        session.commit()
        assert (merged.games, merged.byes) == (2, 1)
        assert merged.renumbered == [(4, 3), (5, 4), (6, 5)]
        assert (merged.dropped_name, merged.dropped_start_number) == ("Kramnik, V", 3)
    assert starting_list(engine, tid) == [
        (1, "Kramnik, Vladimir"),
        (2, "Carlsen, Magnus"),
        (3, "Kramnik, Alexander"),
        (4, "Müller, Jörg"),
        (5, "Mueller, Joerg"),
    ]
    assert boards(engine, tid) == [
        (1, 1, "Kramnik, Vladimir", "Carlsen, Magnus"),
        (1, 2, "Kramnik, Alexander", "Müller, Jörg"),
        (2, 1, "Carlsen, Magnus", "Kramnik, Vladimir"),
    ]
    with Session(engine) as session:
        kept = session.get(Player, player[1])
        assert kept is not None
        # What the kept row lacked comes from the other; what it had stays.
        assert (kept.fide_id, kept.rating, kept.title, kept.federation, kept.team) == (
            4101588,
            2753,
            "GM",
            "RUS",
            "Russia",
        )
        assert session.get(Player, player[3]) is None
        byes = session.exec(select(Bye)).all()
        assert [(b.player_id, b.kind) for b in byes] == [(player[1], ByeKind.HALF_POINT)]
        assert session.exec(select(Game).where(Game.white_id == player[3])).all() == []


def test_two_players_of_one_round_are_two_people(engine):
    tid = load(engine, (RoundSetup(1, pairings=((1, 2), (3, 4))),))
    player = ids(engine, tid)
    before = starting_list(engine, tid), boards(engine, tid)
    with Session(engine) as session, pytest.raises(PlayerMergeError) as refused:
        merge_players(session, tournament_id=tid, keep_id=player[1], drop_id=player[3], name="X, Y")
    assert str(refused.value) == (
        "Kramnik, Vladimir and Kramnik, V both play in one round (round 1 (board 1) and "
        "round 1 (board 2)): they are two people"
    )
    assert (starting_list(engine, tid), boards(engine, tid)) == before


def test_a_bye_in_the_round_counts_as_playing_in_it(engine):
    tid = load(engine, (RoundSetup(1, pairings=((1, 2),)),))
    player = ids(engine, tid)
    with Session(engine) as session:
        set_bye(session, round_id=list_rounds(session, tournament_id=tid)[0].id or 0,
                player_id=player[3], kind=ByeKind.HALF_POINT)  # fmt: skip
        session.commit()
    with Session(engine) as session, pytest.raises(PlayerMergeError, match=r"\(a bye\)"):
        merge_players(session, tournament_id=tid, keep_id=player[1], drop_id=player[3], name="K, V")


def test_different_fide_ids_are_two_people(engine):
    tid = load(engine, ())
    player = ids(engine, tid)
    with Session(engine) as session, pytest.raises(PlayerMergeError) as refused:
        merge_players(session, tournament_id=tid, keep_id=player[1], drop_id=player[2], name="K")
    assert str(refused.value) == (
        "Kramnik, Vladimir (FIDE id 4101588) and Carlsen, Magnus (FIDE id 1503014) have "
        "different FIDE ids: they are two people"
    )
    with Session(engine) as session:  # one FIDE id: the row kept takes it
        merged = merge_players(
            session, tournament_id=tid, keep_id=player[5], drop_id=player[6], name="Müller, Jörg"
        )
        assert (merged.kept.fide_id, merged.kept.name) == (4600000, "Müller, Jörg")


def test_a_player_of_another_tournament_or_themselves_is_refused(engine):
    tid = load(engine, ())
    other = load(engine, (), name="Other Open")
    player = ids(engine, tid)
    elsewhere = ids(engine, other)
    with Session(engine) as session, pytest.raises(NotFoundError):
        merge_players(session, tournament_id=tid, keep_id=player[1], drop_id=elsewhere[3], name="K")
    with Session(engine) as session, pytest.raises(PlayerMergeError, match="themselves"):
        merge_players(session, tournament_id=tid, keep_id=player[1], drop_id=player[1], name="K")


@pytest.mark.parametrize(
    ("kept_after", "dropped_after", "merged_after"),
    [(None, 2, None), (3, None, None), (2, 4, 4), (None, None, None)],
)
def test_the_one_person_is_withdrawn_only_when_both_rows_were(
    engine, kept_after, dropped_after, merged_after
):
    tid = load(engine, ())
    player = ids(engine, tid)
    with Session(engine) as session:
        withdraw(session, player_id=player[1], after_round=kept_after)
        withdraw(session, player_id=player[3], after_round=dropped_after)
        merged = merge_players(
            session, tournament_id=tid, keep_id=player[1], drop_id=player[3], name="Kramnik, V"
        )
        assert merged.kept.withdrawn_after == merged_after


def test_placements_name_each_player_s_rounds(engine):
    tid = load(
        engine,
        (RoundSetup(1, pairings=((3, 2),)), RoundSetup(2, pairings=((1, 3),), published=False)),
    )
    player = ids(engine, tid)
    with Session(engine) as session:
        found = placements(session, tournament_id=tid)
    assert [str(p) for p in found[player[3]]] == ["round 1 (board 1)", "round 2 (board 1)"]
    assert [p.published for p in found[player[3]]] == [True, False]
    assert player[4] not in found
