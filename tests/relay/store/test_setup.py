from __future__ import annotations

from dataclasses import replace

import pytest
from sqlmodel import Session, select

from relay.domain.formats.event_file import BoardSetup, parse_event_file
from relay.store.models import Game, Player, Round, Tournament
from relay.store.pairings import set_pairings
from relay.store.setup import load_event
from relay.store.tournaments import (
    ConflictError,
    assign_eboard,
    create_round,
    list_eboards,
    list_games,
    round_pairings,
    set_eboard_clock,
    set_eboard_url,
)

pytestmark = pytest.mark.both_stores

EVENT = """
[tournament]
name = "Weekend Open"
time_control = "90+30"

[[player]]
number = 1
name = "Moss, Mary"
rating = 1800

[[player]]
number = 2
name = "Lee, Hugo"

[[player]]
number = 3
name = "Berg, Ann"

[[player]]
number = 4
name = "Ruiz, Jon"

[[board]]
number = 1
url = "/dev/pts/7"

[[round]]
number = 1
pairings = [[1, 2], [3, 4]]
"""


def test_an_event_file_becomes_a_paired_round_with_its_board(engine):
    setup = parse_event_file(EVENT)
    with Session(engine) as session:
        report = load_event(session, setup)
        assert (report.created, report.players, report.boards, report.rounds, report.games) == (
            True, 4, 1, 1, 2,
        )  # fmt: skip
        round_ = session.exec(select(Round)).one()
        assert round_.id is not None
        pairings = round_pairings(session, round_id=round_.id)
        assert [(p.game.board, p.white.name, p.black.name) for p in pairings] == [
            (1, "Moss, Mary", "Lee, Hugo"),
            (2, "Berg, Ann", "Ruiz, Jon"),
        ]
        assert pairings[0].eboard is not None
        assert pairings[0].eboard.url == "/dev/pts/7"
        assert pairings[1].eboard is None
        assert pairings[0].tournament.time_control == "90+30"


def test_loading_again_adds_only_what_is_new(engine):
    setup = parse_event_file(EVENT)
    more = parse_event_file(
        EVENT + '\n[[board]]\nnumber = 2\nurl = "/dev/pts/8"\n'
        "\n[[round]]\nnumber = 2\npairings = [[2, 3], [4, 1]]\n"
    )
    with Session(engine) as session:
        load_event(session, setup)
        again = load_event(session, setup)
        assert (again.created, again.players, again.games) == (False, 0, 0)
        grown = load_event(session, more)
        assert (grown.boards, grown.rounds, grown.games) == (1, 1, 2)
        assert len(session.exec(select(Game)).all()) == 4
        assert [b.number for b in list_eboards(session, tournament_id=grown.tournament_id)] == [
            1,
            2,
        ]


def test_the_caller_owns_the_transaction(engine):
    with Session(engine) as session:
        load_event(session, parse_event_file(EVENT))  # never committed
    with Session(engine) as session:
        assert session.exec(select(Player)).all() == []
        load_event(session, parse_event_file(EVENT))
        session.commit()
    with Session(engine) as session:
        assert len(session.exec(select(Player)).all()) == 4


def test_a_contradiction_is_refused_and_nothing_is_half_loaded(engine):
    with Session(engine) as session:
        load_event(session, parse_event_file(EVENT))
        session.commit()
    changed = parse_event_file(
        EVENT.replace("pairings = [[1, 2], [3, 4]]", "pairings = [[1, 2], [4, 3]]")
        + '\n[[player]]\nnumber = 5\nname = "New, Player"\n'
    )
    with Session(engine) as session, pytest.raises(ConflictError, match="board 2"):
        load_event(session, changed)
    with Session(engine) as session:
        assert len(session.exec(select(Player)).all()) == 4  # player 5 was not added


def test_a_renamed_player_is_a_conflict(engine):
    setup = parse_event_file(EVENT)
    renamed = replace(setup, players=(replace(setup.players[0], name="Other, Name"),))
    with Session(engine) as session:
        load_event(session, setup)
        with pytest.raises(ConflictError, match="player 1 is stored as 'Moss, Mary'"):
            load_event(session, renamed)


def test_boards_unknown_to_the_round_stay_unassigned(engine):
    setup = parse_event_file(EVENT)
    setup = replace(setup, boards=(BoardSetup(5, "socket://10.0.0.5:7000"),))
    with Session(engine) as session:
        load_event(session, setup)
        assert all(game.eboard_id is None for game in session.exec(select(Game)))


def test_a_round_paired_later_plays_on_the_boards_of_its_numbers(engine):
    """A round the hub pairs (not the event file) is played on the event's electronic
    boards too: board 1 on the board numbered 1, and a board without one stays unassigned."""
    setup = parse_event_file(EVENT)
    setup = replace(setup, rounds=())
    with Session(engine) as session:
        report = load_event(session, setup)
        round_ = create_round(session, tournament_id=report.tournament_id, number=1)
        assert round_.id is not None
        ids = {p.name: p.id or 0 for p in session.exec(select(Player))}
        set_pairings(
            session,
            round_id=round_.id,
            games=[(ids["Ruiz, Jon"], ids["Moss, Mary"]), (ids["Lee, Hugo"], ids["Berg, Ann"])],
            byes=[],
        )
        pairings = round_pairings(session, round_id=round_.id)
        assert [p.eboard.url if p.eboard else None for p in pairings] == ["/dev/pts/7", None]


def test_a_boards_clock_setting_is_stored_and_follows_the_file_as_it_is_edited(engine):
    right = EVENT.replace('url = "/dev/pts/7"', 'url = "/dev/pts/7"\nclock = "white-right"')
    with Session(engine) as session:
        report = load_event(session, parse_event_file(right))
        (eboard,) = list_eboards(session, tournament_id=report.tournament_id)
        assert eboard.clock == "white-right"
        assert eboard.id is not None
        again = load_event(session, parse_event_file(EVENT))  # the line taken out: auto
        assert (eboard.clock, again.changed_boards) == ("auto", (eboard.id,))
        assert again.notes == ("board 1: clock setting auto (was white-right)",)
        set_eboard_clock(session, eboard_id=eboard.id, clock="white-left")
        kept = load_event(session, parse_event_file(EVENT))
        assert (eboard.clock, kept.changed_boards) == ("white-left", ())
        assert kept.notes == (
            "board 1: clock setting stays white-left, set since the file was loaded "
            "(the file still says auto; edit the file to change it)",
        )
        with pytest.raises(ValueError, match="sideways"):
            set_eboard_clock(session, eboard_id=eboard.id, clock="sideways")


def test_a_port_the_file_changed_is_applied_and_said(engine):
    """A USB board replugged comes back as another /dev/ttyACM*: the organiser edits the
    file and loads it again (``relay serve EVENT_FILE``)."""
    with Session(engine) as session:
        first = load_event(session, parse_event_file(EVENT))
        (eboard,) = list_eboards(session, tournament_id=first.tournament_id)
        moved = load_event(session, parse_event_file(EVENT.replace("/dev/pts/7", "/dev/pts/8")))
        assert eboard.url == "/dev/pts/8"
        assert (moved.boards, moved.changed_boards) == (0, (eboard.id,))
        assert moved.notes == ("board 1: port /dev/pts/8 (was /dev/pts/7)",)
        assert str(moved).splitlines()[1:] == ["board 1: port /dev/pts/8 (was /dev/pts/7)"]
        again = load_event(session, parse_event_file(EVENT.replace("/dev/pts/7", "/dev/pts/8")))
        assert (again.changed_boards, again.notes) == ((), ())
        (game, _) = round_pairings(session, round_id=1)
        assert game.eboard is not None
        assert game.eboard.url == "/dev/pts/8"


def test_a_port_set_on_the_console_stays_while_the_file_says_the_same(engine):
    """A restart loads the same file again: the port the operator gave the board since is
    kept, and the report says the file differs."""
    with Session(engine) as session:
        first = load_event(session, parse_event_file(EVENT))
        (eboard,) = list_eboards(session, tournament_id=first.tournament_id)
        assert eboard.id is not None
        set_eboard_url(session, eboard_id=eboard.id, url="/dev/serial/by-id/usb-DGT-1")
        again = load_event(session, parse_event_file(EVENT))
        assert eboard.url == "/dev/serial/by-id/usb-DGT-1"
        assert again.changed_boards == ()
        assert again.notes == (
            "board 1: port stays /dev/serial/by-id/usb-DGT-1, set since the file was loaded "
            "(the file still says /dev/pts/7; edit the file to change it)",
        )


TWO_BOARDS = EVENT.replace(
    'url = "/dev/pts/7"', 'url = "/dev/pts/7"\n\n[[board]]\nnumber = 2\nurl = "/dev/pts/8"'
)


def test_the_next_round_keeps_the_boards_the_operator_reassigned(engine):
    """Round 1's boards 1 and 2 swapped e-boards (board 1's broke and was replaced by board
    2's): round 2, paired by the hub or by the file, plays on them as they stand, and an
    e-board added since goes to its number."""
    with Session(engine) as session:
        report = load_event(session, parse_event_file(TWO_BOARDS))
        first, second = (e.id for e in list_eboards(session, tournament_id=report.tournament_id))
        one, two = list_games(session, round_id=1)
        assign_eboard(session, game_id=one.id or 0, eboard_id=None)
        assign_eboard(session, game_id=two.id or 0, eboard_id=first)
        assign_eboard(session, game_id=one.id or 0, eboard_id=second)
        third = TWO_BOARDS.replace(
            "[[round]]", '[[board]]\nnumber = 3\nurl = "/dev/pts/9"\n\n[[round]]'
        )
        load_event(session, parse_event_file(third))
        round_2 = create_round(session, tournament_id=report.tournament_id, number=2)
        ids = {p.start_number: p.id or 0 for p in session.exec(select(Player))}
        set_pairings(
            session,
            round_id=round_2.id or 0,
            games=[(ids[2], ids[3]), (ids[4], ids[1])],
            byes=[],
        )
        assert [g.eboard_id for g in list_games(session, round_id=round_2.id or 0)] == [
            second,
            first,
        ]
        filed = third + "\n[[round]]\nnumber = 3\npairings = [[1, 3], [2, 4]]\n"
        load_event(session, parse_event_file(filed))
        round_3 = session.exec(select(Round).where(Round.number == 3)).one()
        assert [g.eboard_id for g in list_games(session, round_id=round_3.id or 0)] == [
            second,
            first,
        ]


def test_a_board_number_without_an_e_board_before_gets_the_one_of_its_number(engine):
    with Session(engine) as session:
        report = load_event(session, parse_event_file(TWO_BOARDS))
        first, second = (e.id for e in list_eboards(session, tournament_id=report.tournament_id))
        _, two = list_games(session, round_id=1)
        assign_eboard(session, game_id=two.id or 0, eboard_id=None)  # board 2's is broken
        round_2 = create_round(session, tournament_id=report.tournament_id, number=2)
        ids = {p.start_number: p.id or 0 for p in session.exec(select(Player))}
        set_pairings(
            session, round_id=round_2.id or 0, games=[(ids[2], ids[3]), (ids[4], ids[1])], byes=[]
        )
        assert [g.eboard_id for g in list_games(session, round_id=round_2.id or 0)] == [
            first,
            second,
        ]


def test_the_tie_break_edition_is_stored_and_kept_when_loaded_again(engine):
    named = EVENT.replace(
        'time_control = "90+30"', 'time_control = "90+30"\ntie_break_edition = "2024"'
    )
    with Session(engine) as session:
        report = load_event(session, parse_event_file(named))
        stored = session.get(Tournament, report.tournament_id)
        assert stored is not None
        assert stored.tie_break_edition == "2024"
        load_event(session, parse_event_file(EVENT))  # the file now names none
        session.refresh(stored)
        assert stored.tie_break_edition == "2024"  # a stored tournament keeps it
