"""A TRF16 written the way Swiss-Manager writes its rating reports (as the issue describes
them), read, written back and read again.

``tests/data/trf/swiss-manager-trf16.trf`` was written by hand for these tests from the
FIDE TRF16 description (FIDE Handbook C.04 Annex 2, "Format of TRF (Tournament Report
File)", C04Annex2_TRF16, approved 2015): titles in the upper-case form the description gives
(``GM``, ``WGM``, ...) right-aligned in columns 11-13, a ``112`` deputy arbiter and ``132``
round dates, and no ``XXR``/``XXC`` lines (the JaVaFo extension). The tournament, its
players and their FIDE ids are made up. Ten players, four rounds: games won, drawn and lost,
a forfeit in round 1 and one in round 3, a half-point bye (``H``), a zero-point bye (``Z``),
a full-point bye (``F``) and a pairing-allocated bye (``U``), an untitled player and an
unrated one.
"""

from __future__ import annotations

from datetime import date

import pytest

from relay.domain.formats.trf import parse_trf, render_trf
from tests.data_files import DATA

FILE = DATA / "trf" / "swiss-manager-trf16.trf"
TEXT = FILE.read_text(encoding="utf-8")

#: start number: (sex, title, name, rating, federation, FIDE id, birth, points, rank)
PLAYERS = {
    1: ("m", "GM", "Kowalczyk, Adam", 2605, "POL", 91000011, "1990/05/12", 2.5, 2),
    2: ("m", "IM", "Horvath, Bela", 2480, "HUN", 91000029, "1997/02/03", 3.5, 1),
    3: ("w", "WGM", "Novakova, Eva", 2390, "CZE", 91000037, "1995/08/03", 2.5, 5),
    4: ("m", "FM", "Lindqvist, Erik", 2330, "SWE", 91000045, "2001", 2.5, 3),
    5: ("w", "WIM", "Petrova, Anna", 2260, "BUL", 91000053, "2003/11/21", 2.0, 6),
    6: ("m", "CM", "Schmid, Lukas", 2210, "AUT", 91000061, "2008/01/30", 0.5, 10),
    7: ("w", "WFM", "Garcia Lopez, Maria", 2105, "ESP", 91000070, "2006/06/06", 2.0, 7),
    8: ("m", None, "Dvorak, Tomas", 2040, "CZE", 91000088, "1979/09/09", 1.5, 8),
    9: ("w", "WCM", "Kovacs, Reka", 2010, "HUN", 91000096, "2010/03/14", 2.5, 4),
    10: ("m", None, "Svoboda, Jiri", None, "CZE", 91000100, "2012", 1.0, 9),
}
#: start number: each round's (opponent, colour, result), round 1 first.
RESULTS = {
    1: [(6, "w", "1"), (2, "b", "="), (4, "w", "="), (9, "b", "=")],
    2: [(7, "b", "1"), (1, "w", "="), (3, "w", "1"), (4, "b", "1")],
    3: [(8, "w", "="), (7, "w", "1"), (2, "b", "0"), (10, "b", "1")],
    4: [(9, "b", "1"), (5, "w", "1"), (1, "b", "="), (2, "w", "0")],
    5: [(10, "w", "+"), (4, "b", "0"), (9, "w", "0"), (6, "b", "1")],
    6: [(1, "b", "0"), (None, "-", "H"), (8, "w", "-"), (5, "w", "0")],
    7: [(2, "w", "0"), (3, "b", "0"), (None, "-", "F"), (8, "w", "1")],
    8: [(3, "b", "="), (9, "w", "0"), (6, "b", "+"), (7, "b", "0")],
    9: [(4, "w", "0"), (8, "b", "1"), (5, "b", "1"), (1, "w", "=")],
    10: [(5, "b", "-"), (None, "-", "Z"), (None, "-", "U"), (3, "w", "0")],
}


def player_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("001")]


def test_the_file_is_laid_out_as_swiss_manager_lays_it_out():
    lines = TEXT.splitlines()
    assert [line[:3] for line in lines[:12]] == [
        *("012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132"),
    ]
    assert lines[11][91:] == "24/04/12  24/04/12  24/04/13  24/04/14"  # from column 92
    assert not any(line[:3] in ("XXR", "XXC", "142", "152") for line in lines)
    titles = [line[10:13] for line in player_lines(TEXT)]
    assert titles == [" GM", " IM", "WGM", " FM", "WIM", " CM", "WFM", "   ", "WCM", "   "]


def test_the_file_reads_as_written():
    t = parse_trf(TEXT)
    assert (t.name, t.city, t.federation) == ("Ostrava Spring Open 2024", "Ostrava", "CZE")
    assert (t.start, t.end) == (date(2024, 4, 12), date(2024, 4, 14))
    assert (t.rounds, t.first_colour) == (4, None)
    assert (t.tournament_type, t.arbiter) == (
        "Individual: Swiss-System",
        "IA Dvorak, Jan (91000118)",
    )
    assert (
        t.time_control
        == "90 min/40 moves + 30 min + 30 sec. increment per move starting from move 1"
    )
    assert {
        p.start_number: (
            p.sex,
            p.title,
            p.name,
            p.rating,
            p.federation,
            p.fide_id,
            p.birth,
            p.points,
            p.rank,
        )
        for p in t.players
    } == PLAYERS
    assert {
        p.start_number: [(r.opponent, r.colour, r.result) for r in p.results] for p in t.players
    } == RESULTS
    assert [[r.round for r in p.results] for p in t.players] == [[1, 2, 3, 4]] * 10


def test_crlf_line_ends_read_the_same():
    assert parse_trf(TEXT.replace("\n", "\r\n")) == parse_trf(TEXT)


@pytest.mark.parametrize("dialect", ["trf16", "trf2026"])
def test_read_written_and_read_again_is_the_same_tournament(dialect):
    first = parse_trf(TEXT)
    written = render_trf(first, dialect)
    assert parse_trf(written) == first
    assert render_trf(parse_trf(written), dialect) == written
    # The player lines are written back byte for byte; only the lines the model does not
    # hold (112, 132) are left out, and the number of rounds is written out.
    assert player_lines(written) == player_lines(TEXT)
    assert [line[:3] for line in written.splitlines() if line[:3] in ("112", "132")] == []


def test_the_same_file_with_letter_codes_in_any_case_reads_the_same():
    codes = {" GM": "g  ", " IM": " M ", "WGM": "Wg ", " FM": "  f", "WIM": "wm ", " CM": " C"}
    codes |= {"WFM": " wF", "WCM": "wc "}

    def recoded(line: str) -> str:
        if not line.startswith("001") or line[10:13] == "   ":
            return line
        return line[:10] + codes[line[10:13]].ljust(3) + line[13:]

    text = "\n".join(recoded(line) for line in TEXT.splitlines()) + "\n"
    assert text != TEXT
    assert parse_trf(text) == parse_trf(TEXT)
    assert render_trf(parse_trf(text)) == render_trf(parse_trf(TEXT))
