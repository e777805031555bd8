from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from relay.domain.formats.event_file import EventFileError, parse_event_file, render_event_file

ROOT = Path(__file__).resolve().parents[4]

EXAMPLE = """
[tournament]
name = "Prague Open 2026"
site = "Prague CZE"
start_date = 2026-11-21
end_date = 2026-11-29
time_control = "40/5400+30:1800+30"
rounds = 9

[[player]]
number = 1
name = "Navara, David"
fide_id = 309095
title = "GM"
rating = 2680
federation = "cze"
team = "Czechia"

[[player]]
number = 2
name = "Laznicka, Viktor"

[[board]]
number = 1
url = "/dev/ttyACM0"

[[round]]
number = 1
starts = 2026-11-21T15:00:00+01:00
delay = 900
pairings = [[2, 1]]
"""


def test_the_documented_example_reads_back():
    setup = parse_event_file(EXAMPLE)
    assert setup.tournament.name == "Prague Open 2026"
    assert setup.tournament.start_date == date(2026, 11, 21)
    assert setup.tournament.rounds == 9
    navara = setup.players[0]
    assert (navara.fide_id, navara.title, navara.federation) == (309095, "GM", "CZE")
    assert setup.players[1].rating is None
    assert (setup.boards[0].driver, setup.boards[0].url) == ("dgt", "/dev/ttyACM0")
    round_ = setup.rounds[0]
    assert round_.pairings == ((2, 1),)
    assert round_.delay == 900
    assert round_.published is True
    assert round_.starts == datetime(2026, 11, 21, 15, tzinfo=timezone(timedelta(hours=1)))
    assert round_.starts.astimezone(UTC).hour == 14


def test_the_module_documentation_is_a_valid_event_file():
    from relay.domain.formats import event_file

    assert event_file.__doc__ is not None
    body = event_file.__doc__.split("\n\n", 1)[1].split("\nParsing is strict")[0]
    text = "\n".join(line[4:] for line in body.splitlines())
    setup = parse_event_file(text)
    assert [p.name for p in setup.players] == ["Navara, David", "Laznicka, Viktor"]
    assert setup.rounds[0].pairings == ((2, 1),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = 1", "unknown key 'name'"),
        ("[[player]]\nnumber = 1\nname = 'A'", "no [tournament] table"),
        ("[tournament]\nname = ''", "name is required"),
        ("[tournament]\nname = 'X'\nrouds = 9", "unknown key 'rouds'"),
        ("[tournament]\nname = 'X'\n[[player]]\nnumber = 0\nname = 'A'", "positive integer"),
        ("[tournament]\nname = 'X'\n[[player]]\nnumber = 1\nname = 'A'\ntitle = 'XM'", "title"),
        (
            "[tournament]\nname = 'X'\n[[player]]\nnumber = 1\nname = 'A'\nrating = '2000'",
            "rating must be an integer",
        ),
        (
            "[tournament]\nname = 'X'\n[[round]]\nnumber = 1\npairings = [[1, 2]]",
            "no player with number 1",
        ),
        (
            "[tournament]\nname = 'X'\n[[round]]\nnumber = 1\ndelay = 4000",
            "delay must be 0 to 3600",
        ),
        (
            "[tournament]\nname = 'X'\n[[round]]\nnumber = 1\nstarts = 2026-11-21T15:00:00",
            "UTC offset",
        ),
        (
            "[tournament]\nname = 'X'\n[[board]]\nnumber = 1\nurl = 'x'\ndriver = 'millennium'",
            "driver",
        ),
        (
            "[tournament]\nname = 'X'\nstart_date = 2026-11-21T10:00:00Z",
            "start_date must be a date",
        ),
        ("[tournament\nname = 'X'", "not valid TOML"),
        ("[tournament]\nname = 'X'\nstart_date = 2026-11-22\nend_date = 2026-11-21", "before"),
        ("[tournament]\nname = 'X'\ntime_control = 'ninety minutes'", "time_control"),
        ("[tournament]\nname = 'X'\npairing_system = 'dutch'", "pairing_system is one of"),
        ("[tournament]\nname = 'X'\ntie_breaks = ['BH', 'BH-Z9']", "tie_breaks: .*BH-Z9"),
        ("[tournament]\nname = 'X'\ntie_breaks = [1]", "tie_breaks is a list of names"),
        (
            "[tournament]\nname = 'X'\ntie_break_edition = '2025'",
            "[tournament]: tie_break_edition is .2024. or .2026. .in quotes., not .2025.",
        ),
        ("[tournament]\nname = 'X'\ntie_break_edition = 2026", "in quotes., not 2026"),
    ],
)
def test_bad_files_are_refused_with_the_place_and_the_reason(text, message):
    with pytest.raises(EventFileError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_event_file(text)


def test_a_boards_clock_side_is_read_and_written_back():
    assert parse_event_file(EXAMPLE).boards[0].clock == "auto"
    for clock in ("auto", "white-left", "white-right"):
        text = EXAMPLE.replace('url = "/dev/ttyACM0"', f'url = "/dev/ttyACM0"\nclock = "{clock}"')
        setup = parse_event_file(text)
        assert setup.boards[0].clock == clock
        assert parse_event_file(render_event_file(setup)) == setup
    for bad, message in (("'sideways'", "board 1: clock 'sideways' is not one of"), ("1", "text")):
        text = EXAMPLE.replace('url = "/dev/ttyACM0"', f'url = "/dev/ttyACM0"\nclock = {bad}')
        with pytest.raises(EventFileError, match=message):
            parse_event_file(text)


def test_a_player_paired_twice_in_a_round_is_refused():
    text = EXAMPLE + "\n[[round]]\nnumber = 2\npairings = [[1, 2], [2, 1]]\n"
    with pytest.raises(EventFileError, match="round 2, board 2: player 2 is paired twice"):
        parse_event_file(text)


def test_duplicate_numbers_are_refused():
    text = EXAMPLE + '\n[[player]]\nnumber = 2\nname = "Again, Someone"\n'
    with pytest.raises(EventFileError, match="player 2 appears twice"):
        parse_event_file(text)


def toml_example(document: str, heading: str) -> str:
    """The first TOML block after ``heading`` in one of the repository's documents."""
    text = (ROOT / document).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    return section.split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_readme_example_is_a_valid_event_file():
    setup = parse_event_file(toml_example("README.md", "## A real event in ten minutes"))
    assert setup.tournament.time_control == "5400+30"
    assert setup.tournament.pairing_system == "swiss"
    assert [p.name for p in setup.players] == ["Moss, Mary", "Lee, Hugo"]
    assert setup.boards[0].url == "/dev/ttyACM0"
    assert setup.rounds[0].pairings == ((1, 2),)
    assert setup.rounds[0].delay == 900


def test_the_formats_complete_example_is_a_valid_event_file():
    setup = parse_event_file(toml_example("docs/formats.md", "### A complete example"))
    assert setup.tournament.time_control == "40/5400+30:1800+30"
    assert setup.rounds[0].pairings == ((2, 1), (3, 4))
    assert [b.url for b in setup.boards] == ["/dev/ttyACM0", "socket://10.0.0.7:7000"]
    assert [b.clock for b in setup.boards] == ["auto", "white-right"]
    assert setup.tournament.pairing_system == "swiss"
    assert setup.tournament.tie_breaks == ("BH-C1", "BH", "SB", "WIN", "BPG")
    assert [r.number for r in setup.rounds] == [1, 2]


def test_a_rendered_event_file_reads_back_the_same():
    setup = parse_event_file(EXAMPLE)
    assert parse_event_file(render_event_file(setup)) == setup
    odd = replace(
        setup.players[1], name='Quote "the" \\ Player', team="Ünïcode", title="WGM", rating=0
    )
    setup = replace(setup, players=(setup.players[0], odd))
    assert parse_event_file(render_event_file(setup)) == setup


def test_the_tie_break_edition_is_read_and_written_back():
    assert parse_event_file(EXAMPLE).tournament.tie_break_edition is None  # by start_date
    for edition in ("2024", "2026"):
        text = EXAMPLE.replace("rounds = 9", f'rounds = 9\ntie_break_edition = "{edition}"')
        setup = parse_event_file(text)
        assert setup.tournament.tie_break_edition == edition
        assert parse_event_file(render_event_file(setup)) == setup
