"""The FIDE Tournament Report File (TRF16 and TRF-2026), read by rating officers and engines.

A TRF is fixed-column text. Header lines carry a three-character code in columns 1-3 and
their value from column 5 (``012`` name, ``022`` city, ``032`` federation, ``042``/``052``
start and end as YYYY/MM/DD, ``062``/``072`` player and rated-player counts, ``092`` type,
``102`` chief arbiter, ``122`` time control). The two dialects differ in how they give the
number of rounds and the first-round colour: TRF16 uses the JaVaFo extension lines
``XXR 9`` and ``XXC white1``/``black1``; TRF-2026 has the codes ``142 9`` and ``152 W``/``B``.
Only TRF-2026 has room for the tie-breaks: its ``202`` line lists them as FIDE's Mandatory
Tie-Breaks codes (``BH/C1,BH,SB``), and it allows ``###`` comment lines, where the edition of
FIDE C.07 that ranks the tournament is written (``### Tie-breaks: FIDE C.07 (2026): ...``);
no code of either dialect holds the edition. Reading, both lines are skipped.

Player lines ``001`` use these 1-based columns: 5-8 start number, 10 sex, 11-13 title,
15-47 name, 49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points,
86-89 rank, then one block per round r at column 92 + 10(r-1): opponent (``0000`` for none),
colour at +5, result at +7.

Titles (columns 11-13) are FIDE's: the TRF16 and TRF-2026 descriptions give them as ``GM``,
``IM``, ``WGM``, ``FM``, ``WIM``, ``CM``, ``WFM``, ``WCM``, the form written here
(right-aligned). Older files, and the TRFx samples of JaVaFo-based programs, carry one- and
two-letter codes instead: ``g``, ``m``, ``wg``, ``f``, ``wm``, ``c``, ``wf``, ``wc``. Both are
read, in any case and alignment, and a :class:`TrfPlayer` holds the official form
(:func:`title_of`). Honorary titles are not in the descriptions and are refused.

Parsing is strict: a misaligned column, a points total that disagrees with the results, or a
game the two players report differently raises :class:`TrfError` with the line number,
because pairing engines refuse such files or, worse, pair from them. Every error of a file is
reported, not only the first: one :class:`TrfError` lists them all, each with its line
(:attr:`~relay.domain.errors.InvalidInputError.problems`). Lines this model does
not hold (``112`` deputies, ``132`` round dates, ``013`` teams, other ``XX`` extensions,
``###`` comments) are skipped, so a parsed file re-renders without them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from relay.domain.errors import Collector, InvalidInputError, Problem

Dialect = Literal["trf16", "trf2026"]
Colour = Literal["w", "b", "-"]
FirstColour = Literal["white", "black"]

#: Half-points each result code is worth. A pairing-allocated bye is ``U``, never ``F``
#: (``F`` is a full-point bye the player asked for); blank is a round not yet played.
RESULT_HALF_POINTS: dict[str, int] = {
    "1": 2,
    "=": 1,
    "0": 0,
    "+": 2,
    "-": 0,
    "W": 2,
    "D": 1,
    "L": 0,
    "H": 1,
    "F": 2,
    "U": 2,
    "Z": 0,
    "": 0,
}
PAIRING_ALLOCATED_BYE = "U"
#: Codes for a game across the board: they need an opponent.
GAME_RESULTS = frozenset("1=0WDL")
#: Codes for a round without an opponent.
BYE_RESULTS = frozenset("HFUZ")
#: What the opponent must have written for each code in the same round. A double forfeit
#: (both ``-``) is a real outcome, so ``-`` answers ``+`` or ``-``.
_MIRROR: dict[str, frozenset[str]] = {
    "1": frozenset("0"),
    "0": frozenset("1"),
    "=": frozenset("="),
    "W": frozenset("L"),
    "L": frozenset("W"),
    "D": frozenset("D"),
    "+": frozenset("-"),
    "-": frozenset("+-"),
    "": frozenset({""}),
}
SEXES = frozenset("mwf")
#: FIDE titles as the TRF16 and TRF-2026 descriptions give them: the form held and written.
TITLES = frozenset({"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"})
#: The one- and two-letter codes of older TRFs and of JaVaFo-style TRFx files, read too.
TITLE_LETTERS: dict[str, str] = {
    "g": "GM",
    "m": "IM",
    "wg": "WGM",
    "f": "FM",
    "wm": "WIM",
    "c": "CM",
    "wf": "WFM",
    "wc": "WCM",
}
_TITLES_KNOWN = f"{', '.join(TITLE_LETTERS.values())} or {', '.join(TITLE_LETTERS)}"

_DATE = re.compile(r"(\d{4})/(\d{2})/(\d{2})")
_POINTS = re.compile(r"\d{1,2}\.[05]|\d{1,4}")
_FEDERATION = re.compile(r"[A-Z]{3}")
_COLOURS: dict[str, Colour] = {"w": "w", "b": "b", "-": "-"}
#: A C.07 modifier (``-C1``, ``-M2``) as FIDE's Mandatory Tie-Breaks codes write it (``/C1``).
_TIE_BREAK_CODE = re.compile(r"-([CM][0-9]+)$")
#: Tie-breaks without a Mandatory Tie-Breaks code: the ``202`` line is left out.
_NOT_FIDE = frozenset({"SB-IECG"})
_LINE_CODES = ("012", "022", "032", "042", "052", "062", "072", "092", "102", "122")
_READ_CODES = frozenset({"001", *_LINE_CODES, "142", "152", "XXR", "XXC"})


def title_of(text: str) -> str | None:
    """The official form (``GM``, ``WGM``, ...) of a title written either way, in any case
    and with any surrounding blanks: ``"gm"``, ``" g"``, ``"Wg "`` and ``"WGM"`` all read.

    None for a text that is no FIDE title (a blank one included).
    """
    code = text.strip()
    if code.upper() in TITLES:
        return code.upper()
    return TITLE_LETTERS.get(code.lower())


class TrfError(ValueError, InvalidInputError):
    """A TRF that cannot be read or written; ``line`` is the 1-based line number, if any.

    A file with several errors raises one TrfError for all of them: its ``problems`` list
    each with its line, its message lists them, and its own ``line`` is None.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.reason = message

    def problem(self) -> Problem:
        return Problem(str(self), line=self.line)


def _by_line(error: TrfError) -> int | None:
    return error.line


@dataclass(frozen=True)
class TrfResult:
    """One round of one player: ``opponent`` None is a round without one (``0000``)."""

    round: int
    opponent: int | None
    colour: Colour
    result: str


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` line. A ``title`` given in either form is held in the official one (``g``
    becomes ``GM``); one that is no FIDE title is kept as given and refused when written."""

    start_number: int
    name: str
    sex: str | None = None
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    fide_id: int | None = None
    birth: str | None = None
    points: float = 0.0
    rank: int | None = None
    results: list[TrfResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.title is not None:
            object.__setattr__(self, "title", title_of(self.title) or self.title)


@dataclass(frozen=True)
class TrfTournament:
    name: str
    city: str | None = None
    federation: str | None = None
    start: date | None = None
    end: date | None = None
    rounds: int = 0
    time_control: str | None = None
    first_colour: FirstColour | None = None
    players: list[TrfPlayer] = field(default_factory=list)
    # Beyond the brief's model: both are mandatory (102) or expected (092) in a rating report.
    tournament_type: str | None = None
    arbiter: str | None = None
    #: The tie-breaks in order (C.07 names such as ``BH-C1``) and the C.07 edition that ranks
    #: the tournament (``2024`` or ``2026``): written in TRF-2026 only, never read.
    tie_breaks: tuple[str, ...] = ()
    tie_break_edition: str | None = None


# --- writing -------------------------------------------------------------------------------


def render_trf(t: TrfTournament, dialect: Dialect = "trf16") -> str:
    """The tournament as TRF text, one ``\\n``-terminated line each, no trailing blanks.

    Refuses (with :class:`TrfError`) a tournament a reader would refuse: the same
    consistency rules as :func:`parse_trf`, numbered by the line they would be written on.
    """
    if dialect not in ("trf16", "trf2026"):
        raise TrfError(f"unknown dialect {dialect!r}")
    lines: list[str] = []

    def header(code: str, value: str | None) -> None:
        if value is None:
            return
        if not value.isprintable() or value != value.strip():
            raise TrfError(
                f"{code} value {value!r} has a line break or surrounding blanks", len(lines) + 1
            )
        lines.append(f"{code} {value}".rstrip())

    header("012", t.name)
    header("022", t.city)
    header("032", t.federation)
    header("042", None if t.start is None else t.start.strftime("%Y/%m/%d"))
    header("052", None if t.end is None else t.end.strftime("%Y/%m/%d"))
    header("062", str(len(t.players)))
    header("072", str(sum(1 for p in t.players if p.rating)))
    header("092", t.tournament_type)
    header("102", t.arbiter)
    header("122", t.time_control)
    if dialect == "trf2026":
        header("142", str(t.rounds))
        header("152", None if t.first_colour is None else t.first_colour[0].upper())
        codes = [_TIE_BREAK_CODE.sub(r"/\1", name) for name in t.tie_breaks]
        if codes and not any(name in _NOT_FIDE for name in t.tie_breaks):
            header("202", ",".join(codes))
        if t.tie_break_edition is not None:
            names = ", ".join(t.tie_breaks) or "none"
            header("###", f"Tie-breaks: FIDE C.07 ({t.tie_break_edition}): {names}")
    else:
        header("XXR", str(t.rounds))
        header("XXC", None if t.first_colour is None else f"{t.first_colour}1")
    line_of: dict[int, int] = {}
    for player in t.players:
        line_of.setdefault(player.start_number, len(lines) + 1)
        lines.append(_render_player(player, len(lines) + 1))
    errors = Collector(TrfError)
    _check_consistency(t.players, t.rounds, line_of, errors)
    errors.check(order=_by_line)
    return "".join(line + "\n" for line in lines)


def _render_player(p: TrfPlayer, line: int) -> str:
    def fit(what: str, text: str, width: int, align: Literal["<", ">"] = "<") -> str:
        if len(text) > width or not text.isprintable() or text != text.strip():
            raise TrfError(
                f"{what} {text!r} is not at most {width} printable characters without "
                "surrounding blanks",
                line,
            )
        return f"{text:{align}{width}}"

    def number(what: str, value: int | None, width: int) -> str:
        if value is not None and value < 0:
            raise TrfError(f"{what} {value} is negative", line)
        return fit(what, "" if value is None else str(value), width, ">")

    if p.sex is not None and p.sex not in SEXES:
        raise TrfError(f"sex {p.sex!r} is not one of m, w, f", line)
    if p.title is not None and p.title not in TITLES:
        raise TrfError(f"title {p.title!r} is not a FIDE title ({_TITLES_KNOWN})", line)
    if p.federation is not None and not _FEDERATION.fullmatch(p.federation):
        raise TrfError(f"federation {p.federation!r} is not three capital letters", line)
    if p.start_number < 1:
        raise TrfError(f"start number {p.start_number} is not positive", line)
    if p.points < 0 or p.points * 2 != int(p.points * 2):
        raise TrfError(f"points {p.points} is not a whole or half point", line)
    text = " ".join(
        (
            "001",
            number("start number", p.start_number, 4),
            (p.sex or " ") + fit("title", p.title or "", 3, ">"),
            fit("name", p.name, 33),
            number("rating", p.rating, 4),
            fit("federation", p.federation or "", 3),
            number("FIDE id", p.fide_id, 11),
            fit("birth date", p.birth or "", 10),
            fit("points", f"{p.points:.1f}", 4, ">"),
            number("rank", p.rank, 4),
        )
    )
    blocks: dict[int, str] = {}
    for r in p.results:
        if r.round < 1 or r.round in blocks:
            raise TrfError(f"round {r.round} is out of order or repeated", line)
        opponent = "0000" if r.opponent is None else number("opponent", r.opponent, 4)
        if len(r.result) > 1:
            raise TrfError(f"result code {r.result!r} is longer than one character", line)
        blocks[r.round] = f"{opponent} {r.colour} {r.result or ' '}"
    for round_number in range(1, max(blocks, default=0) + 1):
        text += "  " + blocks.get(round_number, " " * 8)
    return text.rstrip()


# --- reading -------------------------------------------------------------------------------


def dialect_of(text: str) -> Dialect | None:
    """``trf2026`` if the text has ``142``/``152`` lines, ``trf16`` if ``XXR``/``XXC``.

    None when it has neither (a plain end-of-tournament report, readable as either).
    """
    codes = {line[:3] for line in text.splitlines()}
    new, old = bool(codes & {"142", "152"}), bool(codes & {"XXR", "XXC"})
    if new and old:
        raise TrfError("mixes TRF16 (XXR/XXC) and TRF-2026 (142/152) lines")
    return "trf2026" if new else "trf16" if old else None


def parse_trf(text: str) -> TrfTournament:
    """Read a TRF16 or TRF-2026 file, telling the dialect by its round/colour lines.

    Every error of the file is reported, not only the first: one :class:`TrfError` whose
    ``problems`` are in line order (those of the whole file, without a line, last). Each line
    is read on its own, each field and round of a player line too. The checks that need
    every player (the ``062``/``072`` counts, the players' consistency) are left out while
    a player line cannot be read: they would only repeat its error.
    """
    errors = Collector(TrfError)
    errors.attempt(dialect_of, text)
    values: dict[str, tuple[int, str]] = {}
    players: list[TrfPlayer] = []
    line_of: dict[int, int] = {}
    every_player = True
    unread: set[str] = set()  # the codes of lines that cannot be read
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        code = line[:3]
        if code not in _READ_CODES:
            continue  # a blank, a ### comment, or a line this model does not hold
        if len(line) > 3 and line[3] != " ":
            errors.add(TrfError(f"column 4 after the code {code!r} must be blank", number))
            unread.add(code)
            every_player = every_player and code != "001"
            continue
        if code == "001":
            player = _parse_player(line, number, errors)
            if player is None:
                every_player = False
            elif player.start_number in line_of:
                first = line_of[player.start_number]
                errors.add(
                    TrfError(
                        f"start number {player.start_number} already used on line {first}",
                        number,
                    )
                )
                every_player = False
            else:
                line_of[player.start_number] = number
                players.append(player)
        elif code in values:
            errors.add(TrfError(f"second {code} line (first on line {values[code][0]})", number))
        else:
            values[code] = (number, line[4:].strip())

    def value(code: str) -> str | None:
        return values[code][1] if code in values else None

    def day(code: str) -> date | None:
        if code not in values:
            return None
        line, text = values[code]
        return errors.attempt(_date, text, line)

    name = value("012")
    if name is None and "012" not in unread:
        errors.add(TrfError("no 012 line (tournament name)"))
    start, end = day("042"), day("052")
    played = max((r.round for p in players for r in p.results), default=0)
    rounds_at = values.get("142") or values.get("XXR")
    rounds: int | None = played
    if rounds_at is not None:
        rounds = errors.attempt(_int_field, rounds_at[1], "number of rounds", rounds_at[0])
    first_colour = errors.attempt(_first_colour, values)
    if every_player:
        errors.attempt(_check_count, values.get("062"), len(players), "players")
        rated = sum(1 for p in players if p.rating)
        errors.attempt(_check_count, values.get("072"), rated, "rated players")
        _check_consistency(players, played if rounds is None else rounds, line_of, errors)
    errors.check(order=_by_line)
    assert name is not None
    assert rounds is not None
    return TrfTournament(
        name=name,
        city=value("022"),
        federation=value("032"),
        start=start,
        end=end,
        rounds=rounds,
        time_control=value("122"),
        first_colour=first_colour,
        players=players,
        tournament_type=value("092"),
        arbiter=value("102"),
    )


def _first_colour(values: dict[str, tuple[int, str]]) -> FirstColour | None:
    if "152" in values:
        line, text = values["152"]
        colours: dict[str, FirstColour] = {"W": "white", "B": "black"}
        if text not in colours:
            raise TrfError(f"152 initial colour {text!r} is not W or B", line)
        return colours[text]
    if "XXC" in values:
        line, text = values["XXC"]
        found: FirstColour | None = None
        for token in text.split():
            if token == "white1":
                found = "white"
            elif token == "black1":
                found = "black"
            else:
                raise TrfError(f"XXC setting {token!r} is not white1 or black1", line)
        return found
    return None


def _check_count(at: tuple[int, str] | None, actual: int, what: str) -> None:
    if at is None:
        return
    declared = _int_field(at[1], f"number of {what}", at[0])
    if declared != actual:
        raise TrfError(f"says {declared} {what}, the file has {actual}", at[0])


def _int_field(text: str, what: str, line: int, columns: str = "") -> int:
    if not text.isascii() or not text.isdigit():
        where = f" (columns {columns})" if columns else ""
        raise TrfError(f"{what} {text!r}{where} is not a number", line)
    return int(text)


def _date(text: str, line: int) -> date:
    match = _DATE.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise TrfError(f"date {text!r} is not YYYY/MM/DD", line) from None


#: Separator columns of a player line (1-based) that must be blank.
_BLANK_COLUMNS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)


def _parse_player(line: str, number: int, errors: Collector[TrfError]) -> TrfPlayer | None:
    """The player of a ``001`` line, or None once its errors are noted: a line of the wrong
    shape is one error; in one of the right shape, each field and round is read on its own."""
    if len(line) < 84:
        errors.add(
            TrfError(
                f"player line is {len(line)} columns long; it needs at least 84 (through points)",
                number,
            )
        )
        return None
    for column in _BLANK_COLUMNS:
        if column <= len(line) and line[column - 1] != " ":
            errors.add(
                TrfError(f"column {column} should be blank, found {line[column - 1]!r}", number)
            )
            return None
    found = len(errors)

    def cols(first: int, last: int) -> str:
        return line[first - 1 : last].strip()

    def optional_int(first: int, last: int, what: str) -> int | None:
        text = cols(first, last)
        return None if not text else _int_field(text, what, number, f"{first}-{last}")

    start_number = errors.attempt(_int_field, cols(5, 8), "start number", number, "5-8")
    if start_number is not None and start_number < 1:
        errors.add(TrfError("start number must be positive (columns 5-8)", number))
    sex = cols(10, 10) or None
    if sex is not None and sex not in SEXES:
        errors.add(TrfError(f"sex {sex!r} (column 10) is not m, w or f", number))
    written = cols(11, 13)
    title = title_of(written)
    if written and title is None:
        errors.add(
            TrfError(
                f"title {written!r} (columns 11-13) is not a FIDE title ({_TITLES_KNOWN})", number
            )
        )
    rating = errors.attempt(optional_int, 49, 52, "rating")
    federation = cols(54, 56) or None
    if federation is not None and not _FEDERATION.fullmatch(federation):
        errors.add(TrfError(f"federation {federation!r} (columns 54-56) is not 3 letters", number))
    fide_id = errors.attempt(optional_int, 58, 68, "FIDE id")
    points_text = cols(81, 84)
    if not _POINTS.fullmatch(points_text):
        errors.add(TrfError(f"points {points_text!r} (columns 81-84) is not like ' 4.5'", number))
    rank = errors.attempt(optional_int, 86, 89, "rank")
    results = _parse_rounds(line, number, errors)
    if len(errors) > found or start_number is None:
        return None
    return TrfPlayer(
        start_number=start_number,
        name=cols(15, 47),
        sex=sex,
        title=title,
        rating=rating,
        federation=federation,
        fide_id=fide_id,
        birth=cols(70, 79) or None,
        points=float(points_text),
        rank=rank,
        results=results,
    )


def _parse_rounds(line: str, number: int, errors: Collector[TrfError]) -> list[TrfResult]:
    """The round blocks of a player line, each read on its own."""
    results: list[TrfResult] = []
    # 0-based index of column 92 + 10(r-1)
    for round_number, start in enumerate(range(91, len(line), 10), start=1):
        block = line[start : start + 10].ljust(10)
        where = f"round {round_number} (columns {start + 1}-{start + 8})"
        result = errors.attempt(_parse_round, block, round_number, where, number)
        if result is not None:
            results.append(result)
    return results


def _parse_round(block: str, round_number: int, where: str, number: int) -> TrfResult | None:
    """One round block (ten columns), None for a blank one."""
    if block[8:].strip():
        raise TrfError(f"{where} is followed by {block[8:]!r}, not two blanks", number)
    if not block.strip():
        return None
    if block[4] != " " or block[6] != " ":
        raise TrfError(f"{where} is misaligned: {block[:8]!r}", number)
    opponent_text, colour, result = block[:4].strip(), _COLOURS.get(block[5]), block[7].strip()
    if not opponent_text:
        raise TrfError(f"{where} has no opponent number (0000 for none)", number)
    opponent = _int_field(opponent_text, f"{where} opponent", number) or None
    if colour is None:
        raise TrfError(f"{where} colour {block[5]!r} is not w, b or -", number)
    if result not in RESULT_HALF_POINTS:
        raise TrfError(f"{where} result code {result!r} is unknown", number)
    return TrfResult(round_number, opponent, colour, result)


# --- consistency, shared by reading and writing ----------------------------------------------


def _check_consistency(
    players: list[TrfPlayer], rounds: int, line_of: dict[int, int], errors: Collector[TrfError]
) -> None:
    """Note every result that does not hold together, and every points total that disagrees
    with its results. A disagreement is told once, at the first of the two players; a round
    beyond the last once, at the first player who has it."""
    by_number = {p.start_number: p for p in players}
    if len(by_number) != len(players):
        errors.add(TrfError("two players share a start number"))
        return
    #: (round, start number) of the results already told wrong; (round, 0): a round told
    #: to be beyond the last.
    told: set[tuple[int, int]] = set()
    for p in players:
        line = line_of[p.start_number]
        seen: set[int] = set()
        for r in p.results:
            errors.attempt(_check_result, p, r, rounds, seen, by_number, line, told)
        half_points = sum(RESULT_HALF_POINTS.get(r.result, 0) for r in p.results)
        if half_points != round(p.points * 2):
            errors.add(
                TrfError(
                    f"player {p.start_number} has {p.points:.1f} points but the results add up "
                    f"to {half_points / 2:.1f}",
                    line,
                )
            )


def _check_result(
    p: TrfPlayer,
    r: TrfResult,
    rounds: int,
    seen: set[int],
    by_number: dict[int, TrfPlayer],
    line: int,
    told: set[tuple[int, int]],
) -> None:
    where = f"player {p.start_number} round {r.round}"
    beyond = not 1 <= r.round <= rounds
    if beyond and (r.round, 0) in told:
        return
    if r.round in seen or beyond:
        if beyond:
            told.add((r.round, 0))
        raise TrfError(f"{where}: not a round of a {rounds}-round tournament", line)
    seen.add(r.round)
    if (r.round, p.start_number) in told or (
        r.opponent is not None and (r.round, r.opponent) in told
    ):
        return  # the other side of a result already told wrong
    told.add((r.round, p.start_number))  # taken back below if the result holds
    if r.result not in RESULT_HALF_POINTS:
        raise TrfError(f"{where}: result code {r.result!r} is unknown", line)
    if r.opponent is None:
        if r.colour != "-":
            raise TrfError(f"{where}: no opponent, so the colour must be '-'", line)
        if r.result in GAME_RESULTS:
            raise TrfError(f"{where}: result {r.result!r} needs an opponent", line)
        told.discard((r.round, p.start_number))
        return
    if r.result in BYE_RESULTS:
        raise TrfError(f"{where}: bye {r.result!r} cannot have an opponent", line)
    if r.colour not in ("w", "b"):
        raise TrfError(f"{where}: a paired round needs colour w or b", line)
    opponent = by_number.get(r.opponent)
    if opponent is None or r.opponent == p.start_number:
        raise TrfError(f"{where}: opponent {r.opponent} is not another player", line)
    theirs = next((o for o in opponent.results if o.round == r.round), None)
    if (
        theirs is None
        or theirs.opponent != p.start_number
        or theirs.colour == r.colour
        or theirs.result not in _MIRROR[r.result]
    ):
        said = "nothing"
        if theirs is not None:
            said = f"'{theirs.opponent or '0000'} {theirs.colour} {theirs.result}'"
        told.add((r.round, r.opponent))
        raise TrfError(
            f"{where}: '{r.opponent} {r.colour} {r.result}' but player {r.opponent} reports {said}",
            line,
        )
    told.discard((r.round, p.start_number))
