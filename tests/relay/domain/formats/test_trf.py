from __future__ import annotations

import contextlib
import re
import string
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relay.domain.formats.trf import (
    RESULT_HALF_POINTS,
    TITLES,
    TrfError,
    TrfPlayer,
    TrfResult,
    TrfTournament,
    dialect_of,
    parse_trf,
    render_trf,
    title_of,
)

# Written by hand from the column table of FIDE's TRF16 description (docs/formats.md,
# "Player lines"; 1-based columns):
# 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating, 54-56 federation,
# 58-68 FIDE id, 70-79 birth, 81-84 points, 86-89 rank, round r at 92 + 10(r-1).
# Four players, three rounds: a normal game, a draw, a forfeit, a pairing-allocated bye (U)
# and a requested half-point bye (H). test_canonical_columns checks the columns by index.
HEADER = (
    "012 Prague Open 2026\n"
    "022 Prague\n"
    "032 CZE\n"
    "042 2026/11/21\n"
    "052 2026/11/29\n"
    "062 4\n"
    "072 3\n"
    "092 Individual: Swiss-System\n"
    "102 IA Novak, Petr\n"
    "122 90 min/40 moves + 30 min + 30 s/move\n"
)
PLAYERS = (
    "001    1 m GM Navara, David                     2680 CZE      309095 1985/03/27"
    "  2.5    1     4 w 1     3 b 1     2 w =\n"
    "001    2 m GM Laznicka, Viktor                  2650 CZE      314471 1988/01/09"
    "  2.0    2     3 w =     4 b +     1 b =\n"
    "001    3 wWIM Novak, Jana                       2300 SVK    14912345 1999/12/01"
    "  1.5    3     2 b =     1 w 0  0000 - U\n"
    "001    4 m    Test, Unrated                          GER             2010      "
    "  0.5    4     1 b 0     2 w -  0000 - H\n"
)
CANONICAL_16 = HEADER + "XXR 3\nXXC white1\n" + PLAYERS
CANONICAL_2026 = HEADER + "142 3\n152 W\n" + PLAYERS
FIRST_PLAYER_LINE = 13


def expected_tournament() -> TrfTournament:
    def r(round_: int, opponent: int | None, colour: str, result: str) -> TrfResult:
        return TrfResult(round_, opponent, colour, result)  # type: ignore[arg-type]

    return TrfTournament(
        name="Prague Open 2026",
        city="Prague",
        federation="CZE",
        start=date(2026, 11, 21),
        end=date(2026, 11, 29),
        rounds=3,
        time_control="90 min/40 moves + 30 min + 30 s/move",
        first_colour="white",
        tournament_type="Individual: Swiss-System",
        arbiter="IA Novak, Petr",
        players=[
            TrfPlayer(
                1, "Navara, David", "m", "GM", 2680, "CZE", 309095, "1985/03/27", 2.5, 1,
                [r(1, 4, "w", "1"), r(2, 3, "b", "1"), r(3, 2, "w", "=")],
            ),
            TrfPlayer(
                2, "Laznicka, Viktor", "m", "GM", 2650, "CZE", 314471, "1988/01/09", 2.0, 2,
                [r(1, 3, "w", "="), r(2, 4, "b", "+"), r(3, 1, "b", "=")],
            ),
            TrfPlayer(
                3, "Novak, Jana", "w", "WIM", 2300, "SVK", 14912345, "1999/12/01", 1.5, 3,
                [r(1, 2, "b", "="), r(2, 1, "w", "0"), r(3, None, "-", "U")],
            ),
            TrfPlayer(
                4, "Test, Unrated", "m", None, None, "GER", None, "2010", 0.5, 4,
                [r(1, 1, "b", "0"), r(2, 2, "w", "-"), r(3, None, "-", "H")],
            ),
        ],
    )  # fmt: skip


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def cols(line: str, first: int, last: int) -> str:
    """1-based inclusive columns, as the FIDE tables give them."""
    return line[first - 1 : last]


def with_line(text: str, number: int, new: str) -> str:
    lines = lines_of(text)
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def with_columns(text: str, number: int, first: int, value: str) -> str:
    line = lines_of(text)[number - 1].ljust(first - 1 + len(value))
    return with_line(text, number, line[: first - 1] + value + line[first - 1 + len(value) :])


# --- the canonical file ----------------------------------------------------------------------


def test_canonical_columns():
    players = [line for line in lines_of(CANONICAL_16) if line.startswith("001")]
    first, _, third, fourth = players
    assert cols(first, 1, 3) == "001"
    assert cols(first, 5, 8) == "   1"
    assert cols(first, 10, 10) == "m"
    assert cols(first, 11, 13) == " GM"
    assert cols(first, 15, 47) == "Navara, David".ljust(33)
    assert cols(first, 49, 52) == "2680"
    assert cols(first, 54, 56) == "CZE"
    assert cols(first, 58, 68) == "     309095"
    assert cols(first, 70, 79) == "1985/03/27"
    assert cols(first, 81, 84) == " 2.5"
    assert cols(first, 86, 89) == "   1"
    for r, block in enumerate(["   4 w 1", "   3 b 1", "   2 w ="], start=1):
        start = 92 + 10 * (r - 1)
        assert cols(first, start, start + 7) == block
        assert cols(first, start + 5, start + 5) == block[5]
        assert cols(first, start + 7, start + 7) == block[7]
    assert cols(third, 10, 13) == "wWIM"
    assert cols(third, 112, 119) == "0000 - U"
    assert cols(fourth, 49, 52) == "    "
    assert cols(fourth, 70, 79) == "2010      "
    assert all(len(line) == 119 for line in players)


@pytest.mark.parametrize(
    ("text", "dialect"), [(CANONICAL_16, "trf16"), (CANONICAL_2026, "trf2026")]
)
def test_canonical_file_parses_and_renders_byte_identical(text, dialect):
    assert dialect_of(text) == dialect
    parsed = parse_trf(text)
    assert parsed == expected_tournament()
    assert render_trf(parsed, dialect) == text


def test_dialects_differ_only_in_rounds_and_colour_lines():
    t = expected_tournament()
    assert render_trf(t, "trf16") == CANONICAL_16
    assert render_trf(t, "trf2026") == CANONICAL_2026
    black = replace(t, first_colour="black")
    assert "XXC black1\n" in render_trf(black, "trf16")
    assert "152 B\n" in render_trf(black, "trf2026")
    assert parse_trf(render_trf(black, "trf2026")).first_colour == "black"


def test_only_trf_2026_writes_the_tie_breaks_and_their_c07_edition():
    t = replace(
        expected_tournament(), tie_breaks=("BH-C1", "BH", "SB", "BH-M1"), tie_break_edition="2026"
    )
    text = render_trf(t, "trf2026")
    # 202: FIDE's Mandatory Tie-Breaks codes, modifiers after a slash; the edition in a ###
    # comment line, the only room either dialect has for it.
    assert "202 BH/C1,BH,SB,BH/M1\n" in text
    assert "### Tie-breaks: FIDE C.07 (2026): BH-C1, BH, SB, BH-M1\n" in text
    assert render_trf(t, "trf16") == CANONICAL_16
    # Reading skips both lines: the file reads back as the tournament without them.
    assert parse_trf(text) == expected_tournament()
    # SB-IECG has no FIDE code: no 202 line, the comment still names every tie-break.
    iecg = render_trf(replace(t, tie_breaks=("SB-IECG", "BH")), "trf2026")
    assert "\n202 " not in iecg
    assert "### Tie-breaks: FIDE C.07 (2026): SB-IECG, BH\n" in iecg


def test_crlf_comments_and_unmodelled_lines_are_read():
    text = "### written by hand\n" + CANONICAL_16.replace("XXR 3\n", "XXR 3\n132 26/11/21\n")
    assert parse_trf(text.replace("\n", "\r\n")) == expected_tournament()


def test_without_a_rounds_line_the_rounds_come_from_the_results():
    text = CANONICAL_16.replace("XXR 3\nXXC white1\n", "")
    assert dialect_of(text) is None
    assert parse_trf(text) == replace(expected_tournament(), first_colour=None)


def test_unplayed_rounds_and_published_pairings():
    # Round 4 is paired but not played (blank results); round 5 not paired yet.
    t = expected_tournament()
    players = [
        replace(p, results=[*p.results, TrfResult(4, q, c, "")])  # type: ignore[arg-type]
        for p, (q, c) in zip(t.players, [(2, "b"), (1, "w"), (4, "w"), (3, "b")], strict=True)
    ]
    t = replace(t, rounds=5, players=players)
    text = render_trf(t)
    assert cols(lines_of(text)[FIRST_PLAYER_LINE - 1], 122, 129) == "   2 b"
    assert parse_trf(text) == t


def test_a_round_without_a_block_in_the_middle_stays_empty():
    t = TrfTournament(
        name="Club",
        rounds=3,
        players=[
            TrfPlayer(1, "A", points=1.0, results=[TrfResult(3, None, "-", "U")]),
            TrfPlayer(2, "B", points=0.0),
        ],
    )
    text = render_trf(t)
    assert cols(lines_of(text)[4], 92, 111).strip() == ""
    assert parse_trf(text) == t


# --- titles ------------------------------------------------------------------------------------

# The FIDE TRF16 and TRF-2026 descriptions give the title (columns 11-13) as GM, IM, WGM, FM,
# WIM, CM, WFM, WCM; files from JaVaFo-style programs carry the older letter codes. Both are
# read, in any case and alignment, as the official form, which is what is written back.
LETTER_CODE = {
    "GM": "g", "IM": "m", "WGM": "wg", "FM": "f", "WIM": "wm", "CM": "c", "WFM": "wf", "WCM": "wc",
}  # fmt: skip
LETTER_CODES_16 = (
    CANONICAL_16.replace("m GM Navara", "m  g Navara")
    .replace("m GM Laznicka", "m  g Laznicka")
    .replace("wWIM Novak", "w wm Novak")
)


def test_titles_are_the_official_ones():
    assert set(LETTER_CODE) == TITLES


@pytest.mark.parametrize(
    ("written", "title"),
    [
        (" GM", "GM"), ("GM ", "GM"), ("gm ", "GM"), (" Gm", "GM"), ("  g", "GM"), ("g  ", "GM"),
        (" G ", "GM"), (" IM", "IM"), ("  m", "IM"), ("M  ", "IM"), ("WGM", "WGM"), ("wgm", "WGM"),
        ("WgM", "WGM"), (" wg", "WGM"), ("WG ", "WGM"), (" FM", "FM"), ("  f", "FM"),
        ("WIM", "WIM"), (" wm", "WIM"), (" CM", "CM"), ("c  ", "CM"), ("WFM", "WFM"),
        ("wf ", "WFM"), ("WCM", "WCM"), ("wcm", "WCM"), (" Wc", "WCM"), ("   ", None),
    ],
)  # fmt: skip
def test_a_title_reads_in_either_form_any_case_and_alignment(written, title):
    text = with_columns(CANONICAL_16, P3, 11, written)
    player = parse_trf(text).players[2]
    assert player.title == title
    rendered = lines_of(render_trf(parse_trf(text)))[P3 - 1]
    assert cols(rendered, 11, 13) == (title or "").rjust(3)


@st.composite
def written_titles(draw) -> tuple[str, str]:
    """A title as some program writes it in columns 11-13 (official form or letter code,
    any case, any alignment), and its official form."""
    official = draw(st.sampled_from(sorted(LETTER_CODE)))
    code = draw(st.sampled_from([official, LETTER_CODE[official]]))
    cased = "".join(draw(st.sampled_from([c.lower(), c.upper()])) for c in code)
    left = draw(st.integers(0, 3 - len(cased)))
    return (" " * left + cased).ljust(3), official


@given(written_titles())
def test_any_written_title_reads_as_its_official_form(written):
    text, official = written
    assert title_of(text) == official
    assert TrfPlayer(1, "A", title=text).title == official
    parsed = parse_trf(with_columns(CANONICAL_16, P3, 11, text))
    assert parsed.players[2].title == official
    assert cols(lines_of(render_trf(parsed))[P3 - 1], 11, 13) == official.rjust(3)


def test_a_file_with_the_letter_codes_reads_the_same_and_is_written_official():
    assert LETTER_CODES_16 != CANONICAL_16
    assert cols(lines_of(LETTER_CODES_16)[P1 - 1], 11, 13) == "  g"
    assert parse_trf(LETTER_CODES_16) == expected_tournament()
    assert render_trf(parse_trf(LETTER_CODES_16)) == CANONICAL_16


def test_a_player_holds_the_official_form():
    assert TrfPlayer(1, "A", title="wg").title == "WGM"
    assert TrfPlayer(1, "A", title="Im") == TrfPlayer(1, "A", title="IM")
    assert replace(TrfPlayer(1, "A"), title="c").title == "CM"
    # One that is no title is kept as given, for the writer to refuse with its line.
    assert TrfPlayer(1, "A", title="LM").title == "LM"


@pytest.mark.parametrize("written", [" LM", "HGM", " HM", "  h", " xx", "w g", "gmx", " W "])
def test_an_unknown_title_names_the_line_and_the_columns(written):
    with pytest.raises(TrfError) as caught:
        parse_trf(with_columns(CANONICAL_16, P3, 11, written))
    assert caught.value.line == P3
    reason = caught.value.reason
    assert reason.startswith(f"title {written.strip()!r} (columns 11-13) is not a FIDE title")
    assert "GM, IM, WGM, FM, WIM, CM, WFM, WCM" in reason


# --- the property ------------------------------------------------------------------------------

GAME_PAIRS = [("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+"), ("-", "-")]
GAME_PAIRS += [("W", "L"), ("L", "W"), ("D", "D"), ("", "")]
LONE = ["H", "F", "Z", "U", "+", "-", ""]
TEXT = st.text(alphabet=string.ascii_letters + string.digits + " ,.-'/čéöß", max_size=40).map(
    str.strip
)


@st.composite
def tournaments(draw) -> TrfTournament:
    n = draw(st.integers(1, 8))
    rounds = draw(st.integers(0, 5))
    numbers = draw(st.lists(st.integers(1, 9999), min_size=n, max_size=n, unique=True))
    results: dict[int, list[TrfResult]] = {number: [] for number in numbers}
    for r in range(1, draw(st.integers(0, rounds)) + 1):
        order = draw(st.permutations(numbers))
        absent = draw(st.integers(0, min(2, n)))
        for number in order[:absent]:
            results[number].append(TrfResult(r, None, "-", draw(st.sampled_from(LONE))))
        paired = order[absent:]
        if len(paired) % 2:
            results[paired[-1]].append(TrfResult(r, None, "-", "U"))
        for white, black in zip(paired[0::2], paired[1::2], strict=False):
            ours, theirs = draw(st.sampled_from(GAME_PAIRS))
            results[white].append(TrfResult(r, black, "w", ours))
            results[black].append(TrfResult(r, white, "b", theirs))
    players = [
        TrfPlayer(
            start_number=number,
            name=draw(TEXT.map(lambda s: s[:33].strip())),
            sex=draw(st.sampled_from([None, "m", "w", "f"])),
            title=draw(st.none() | written_titles().map(lambda w: w[0])),
            rating=draw(st.none() | st.integers(0, 9999)),
            federation=draw(st.none() | st.from_regex(r"[A-Z]{3}", fullmatch=True)),
            fide_id=draw(st.none() | st.integers(0, 10**11 - 1)),
            birth=draw(st.sampled_from([None, "1990/01/02", "1985", "2011/00/00"])),
            points=sum(RESULT_HALF_POINTS[x.result] for x in results[number]) / 2,
            rank=draw(st.none() | st.integers(1, 9999)),
            results=results[number],
        )
        for number in numbers
    ]
    return TrfTournament(
        name=draw(TEXT),
        city=draw(st.none() | TEXT),
        federation=draw(st.none() | st.from_regex(r"[A-Z]{3}", fullmatch=True)),
        start=draw(st.none() | st.dates(date(1900, 1, 1), date(9999, 12, 31))),
        end=draw(st.none() | st.dates(date(1900, 1, 1), date(9999, 12, 31))),
        rounds=rounds,
        time_control=draw(st.none() | TEXT),
        first_colour=draw(st.sampled_from([None, "white", "black"])),
        players=players,
        tournament_type=draw(st.none() | TEXT),
        arbiter=draw(st.none() | TEXT),
    )


@given(tournaments(), st.sampled_from(["trf16", "trf2026"]))
def test_render_then_parse_is_identity(t, dialect):
    text = render_trf(t, dialect)
    assert dialect_of(text) == dialect
    assert parse_trf(text) == t
    assert render_trf(parse_trf(text), dialect) == text


@given(st.text(alphabet=" 0123456789wb-=+.:XRC\n", max_size=300))
def test_parse_returns_or_raises_trf_error(text):
    # A reader's contract: a value or the documented error, nothing else.
    with contextlib.suppress(TrfError):
        parse_trf("012 Fuzz\n" + text)


# --- errors ------------------------------------------------------------------------------------

P1, P2, P3, P4 = range(FIRST_PLAYER_LINE, FIRST_PLAYER_LINE + 4)


def block_column(round_: int, offset: int = 0) -> int:
    return 92 + 10 * (round_ - 1) + offset


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        pytest.param(
            with_line(CANONICAL_16, P2, lines_of(CANONICAL_16)[P2 - 1][:70]),
            P2,
            "70 columns long",
            id="short line",
        ),
        pytest.param(with_columns(CANONICAL_16, P1, 48, "x"), P1, "column 48", id="separator"),
        pytest.param(with_columns(CANONICAL_16, P1, 49, "26a0"), P1, "rating", id="rating"),
        pytest.param(with_columns(CANONICAL_16, P1, 5, "   x"), P1, "start number", id="number"),
        pytest.param(with_columns(CANONICAL_16, P3, 10, "x"), P3, "sex", id="sex"),
        pytest.param(with_columns(CANONICAL_16, P3, 11, " xx"), P3, "title", id="title"),
        pytest.param(with_columns(CANONICAL_16, P3, 54, "S1K"), P3, "federation", id="fed"),
        pytest.param(with_columns(CANONICAL_16, P1, 81, "2.25"), P1, "points", id="points-text"),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(2, 5), "x"), P1, "colour", id="colour"
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(2, 4), "x"), P1, "misaligned", id="block"
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(2), "    "), P1, "no opponent", id="opp"
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(3, 8), "x"), P1, "two blanks", id="tail"
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(1, 7), "X"),
            P1,
            "result code 'X' is unknown",
            id="result code",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, 81, " 3.0"),
            P1,
            "3.0 points but the results add up to 2.5",
            id="points disagree",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P4, 81, " 1.0"),
            P4,
            "1.0 points but the results add up to 0.5",
            id="points disagree last",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(1), "   9"),
            P1,
            "opponent 9 is not another player",
            id="missing opponent",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P1, block_column(1), "   1"),
            P1,
            "opponent 1 is not another player",
            id="self opponent",
        ),
        pytest.param(
            with_columns(with_columns(CANONICAL_16, P1, block_column(1, 7), "="), P1, 81, " 2.0"),
            P1,
            "player 4 reports '1 b 0'",
            id="asymmetric result",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P4, block_column(1, 5), "w"),
            P1,
            "player 4 reports '1 w 0'",
            id="same colour",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P3, block_column(3), "   4"),
            P3,
            "bye 'U' cannot have an opponent",
            id="bye with opponent",
        ),
        pytest.param(
            with_columns(with_columns(CANONICAL_16, P4, block_column(3, 7), "0"), P4, 81, " 0.0"),
            P4,
            "result '0' needs an opponent",
            id="game without opponent",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P4, block_column(3, 5), "w"),
            P4,
            "colour must be '-'",
            id="colour without opponent",
        ),
        pytest.param(
            CANONICAL_16.replace("XXR 3", "XXR 2"),
            P1,
            "not a round of a 2-round tournament",
            id="round beyond XXR",
        ),
        pytest.param(
            with_columns(CANONICAL_16, P4, 5, "   3"), P4, "already used on line 15", id="dup"
        ),
        pytest.param(CANONICAL_16.replace("062 4", "062 5"), 6, "says 5 players", id="062"),
        pytest.param(CANONICAL_16.replace("072 3", "072 4"), 7, "4 rated players", id="072"),
        pytest.param(CANONICAL_16.replace("2026/11/21", "21.11.2026"), 4, "YYYY/MM/DD", id="d"),
        pytest.param(CANONICAL_16.replace("2026/11/29", "2026/02/30"), 5, "YYYY/MM/DD", id="d2"),
        pytest.param(CANONICAL_16.replace("XXR 3", "XXR x"), 11, "number of rounds", id="XXR"),
        pytest.param(CANONICAL_16.replace("white1", "rank"), 12, "XXC setting", id="XXC"),
        pytest.param(CANONICAL_2026.replace("152 W", "152 white"), 12, "W or B", id="152"),
        pytest.param(CANONICAL_16 + "022 Brno\n", 17, "second 022 line", id="second"),
        pytest.param(CANONICAL_16.replace("122 90", "122x90"), 10, "column 4", id="code"),
    ],
)
def test_bad_input_names_the_line(text, line, reason):
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    assert caught.value.line == line, str(caught.value)
    assert reason in caught.value.reason, str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")
    assert isinstance(caught.value, ValueError)


def test_file_level_errors_have_no_line():
    with pytest.raises(TrfError, match="no 012 line") as caught:
        parse_trf(CANONICAL_16.replace("012 Prague Open 2026\n", ""))
    assert caught.value.line is None
    with pytest.raises(TrfError, match="mixes TRF16"):
        parse_trf(CANONICAL_16 + "142 3\n")


def test_points_must_agree_with_results_when_writing_too():
    t = expected_tournament()
    wrong = replace(t, players=[replace(t.players[0], points=3.0), *t.players[1:]])
    with pytest.raises(
        TrfError, match=re.escape("3.0 points but the results add up to 2.5")
    ) as caught:
        render_trf(wrong)
    assert caught.value.line == FIRST_PLAYER_LINE


def test_points_count_byes_and_forfeits():
    # U and F are worth a point, H and = half, Z and - nothing, + a point.
    t = parse_trf(CANONICAL_16)
    assert [p.points for p in t.players] == [2.5, 2.0, 1.5, 0.5]
    assert {code: RESULT_HALF_POINTS[code] for code in "UFH=Z-+"} == {
        "U": 2, "F": 2, "H": 1, "=": 1, "Z": 0, "-": 0, "+": 2,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"name": "x" * 34}, "name"),
        ({"name": " Navara"}, "name"),
        ({"rating": 10000}, "rating"),
        ({"fide_id": 10**11}, "FIDE id"),
        ({"federation": "cze"}, "federation"),
        ({"title": "LM"}, "title"),
        ({"title": "HGM"}, "title"),
        ({"sex": "x"}, "sex"),
        ({"points": 2.25}, "whole or half"),
        ({"start_number": 0}, "start number"),
    ],
)
def test_render_refuses_fields_that_do_not_fit(change, reason):
    t = expected_tournament()
    bad = replace(t, players=[replace(t.players[0], **change), *t.players[1:]])
    with pytest.raises(TrfError, match=reason) as caught:
        render_trf(bad)
    assert caught.value.line == FIRST_PLAYER_LINE


def test_render_refuses_an_unknown_dialect_and_a_header_with_a_line_break():
    with pytest.raises(TrfError, match="dialect"):
        render_trf(expected_tournament(), "trf06")  # type: ignore[arg-type]
    with pytest.raises(TrfError, match="022"):
        render_trf(replace(expected_tournament(), city="Prague\n001"))
