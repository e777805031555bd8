"""The event file: a tournament, its players, boards and rounds, written by hand in TOML.

    [tournament]
    name = "Prague Open 2026"
    site = "Prague CZE"
    start_date = 2026-11-21
    end_date = 2026-11-29
    time_control = "40/5400+30:1800+30"   # PGN syntax, or "90 min/40 moves + 30 min + 30 s/move"
    rounds = 9
    pairing_system = "swiss"   # or "round-robin", "double-round-robin", "knockout",
                               # "scheveningen" (two teams); none: pairings given below
    tie_breaks = ["BH-C1", "BH", "SB", "WIN", "BPG"]   # FIDE C.07 names, in order

    [[player]]
    number = 1                 # start number
    name = "Navara, David"     # "Family, Given"
    fide_id = 309095
    title = "GM"
    rating = 2680
    federation = "CZE"
    team = "Czechia"           # optional, as are fide_id, title, rating and federation

    [[player]]
    number = 2
    name = "Laznicka, Viktor"

    [[board]]
    number = 1
    driver = "dgt"             # the only driver so far
    url = "/dev/ttyACM0"       # anything pyserial opens: /dev/pts/3, socket://host:port
    clock = "auto"             # White's side of the clock: "white-left", "white-right", or
                               # "auto" (decided from the clock's presses; the default)

    [[round]]
    number = 1
    starts = 2026-11-21T15:00:00+01:00   # with its UTC offset
    delay = 900                # transmission delay for the public, 0-3600 s
    published = true           # shown to the public (the default)
    pairings = [[2, 1]]        # [white, black] start numbers, board 1 first

Parsing is strict: an unknown key is a typo, not something to ignore.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from relay.domain.clock.orientation import clock_setting
from relay.domain.clock.time_control import TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.formats.trf import TITLES as FIDE_TITLES
from relay.domain.tournament.tie_break_names import parse_order

DRIVERS = frozenset({"dgt"})
MAX_DELAY_SECONDS = 3600
#: FIDE's titles, and the Lady Master of some national federations.
TITLES = FIDE_TITLES | {"LM"}

T = TypeVar("T")


class EventFileError(ValueError):
    """An event file that cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    name: str
    site: str = "?"
    start_date: date | None = None
    end_date: date | None = None
    time_control: str | None = None
    rounds: int | None = None
    pairing_system: str | None = None
    tie_breaks: tuple[str, ...] | None = None


#: How the hub can pair a tournament's next round.
PAIRING_SYSTEMS = ("swiss", "round-robin", "double-round-robin", "knockout", "scheveningen")


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    number: int
    name: str
    fide_id: int | None = None
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    team: str | None = None


@dataclass(frozen=True, slots=True)
class BoardSetup:
    number: int
    url: str
    driver: str = "dgt"
    #: Which side of the clock White's is: ``auto``, ``white-left`` or ``white-right``.
    clock: str = "auto"


@dataclass(frozen=True, slots=True)
class RoundSetup:
    number: int
    pairings: tuple[tuple[int, int], ...] = ()
    starts: datetime | None = None
    delay: int = 0
    #: Shown to the public; an arbiter can publish or hide it later.
    published: bool = True


@dataclass(frozen=True, slots=True)
class EventSetup:
    tournament: TournamentSetup
    players: tuple[PlayerSetup, ...] = ()
    boards: tuple[BoardSetup, ...] = ()
    rounds: tuple[RoundSetup, ...] = ()


def parse_event_file(text: str) -> EventSetup:
    """Read an event file; raises :class:`EventFileError` naming the first problem."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise EventFileError(f"not valid TOML: {error}") from None
    _only(document, "the file", {"tournament", "player", "board", "round"})
    if "tournament" not in document:
        raise EventFileError("the file has no [tournament] table")
    setup = EventSetup(
        tournament=_tournament(_table(document["tournament"], "[tournament]")),
        players=tuple(
            _player(_table(item, f"player {i}"), f"player {i}")
            for i, item in enumerate(_array(document, "player"), start=1)
        ),
        boards=tuple(
            _board(_table(item, f"board {i}"), f"board {i}")
            for i, item in enumerate(_array(document, "board"), start=1)
        ),
        rounds=tuple(
            _round(_table(item, f"round {i}"), f"round {i}")
            for i, item in enumerate(_array(document, "round"), start=1)
        ),
    )
    _check_references(setup)
    return setup


def _tournament(table: Mapping[str, Any]) -> TournamentSetup:
    where = "[tournament]"
    _only(
        table,
        where,
        {"name", "site", "start_date", "end_date", "time_control", "rounds"}
        | {"pairing_system", "tie_breaks"},
    )
    start = _optional(table, "start_date", date, where)
    end = _optional(table, "end_date", date, where)
    if start and end and end < start:
        raise EventFileError(f"{where}: end_date {end} is before start_date {start}")
    rounds = _optional(table, "rounds", int, where)
    if rounds is not None and rounds < 1:
        raise EventFileError(f"{where}: rounds must be at least 1")
    time_control = _optional(table, "time_control", str, where)
    if time_control is not None:
        try:
            parse_time_control(time_control)
        except TimeControlError as error:
            raise EventFileError(f"{where}: time_control: {error}") from None
    system = _optional(table, "pairing_system", str, where)
    if system is not None and system not in PAIRING_SYSTEMS:
        raise EventFileError(f"{where}: pairing_system is one of {', '.join(PAIRING_SYSTEMS)}")
    names = _optional(table, "tie_breaks", list, where)
    tie_breaks = None
    if names is not None:
        if not all(isinstance(name, str) for name in names):
            raise EventFileError(f"{where}: tie_breaks is a list of names")
        try:
            tie_breaks = parse_order(", ".join(names))
        except ValueError as error:
            raise EventFileError(f"{where}: tie_breaks: {error}") from None
    return TournamentSetup(
        name=_text(table, "name", where),
        site=_optional(table, "site", str, where) or "?",
        start_date=start,
        end_date=end,
        time_control=time_control,
        rounds=rounds,
        pairing_system=system,
        tie_breaks=tie_breaks,
    )


def _player(table: Mapping[str, Any], where: str) -> PlayerSetup:
    _only(table, where, {"number", "name", "fide_id", "title", "rating", "federation", "team"})
    number = _positive(table, "number", where)
    where = f"player {number}"
    name = _text(table, "name", where)
    title = _optional(table, "title", str, where)
    if title is not None and title not in TITLES:
        raise EventFileError(f"{where}: title {title!r} is not one of {sorted(TITLES)}")
    federation = _optional(table, "federation", str, where)
    if federation is not None and not (len(federation) == 3 and federation.isalpha()):
        raise EventFileError(f"{where}: federation {federation!r} is not a 3-letter code")
    rating = _optional(table, "rating", int, where)
    if rating is not None and not 0 <= rating <= 4000:
        raise EventFileError(f"{where}: rating {rating} is out of range")
    return PlayerSetup(
        number=number,
        name=name,
        fide_id=_optional(table, "fide_id", int, where),
        title=title,
        rating=rating,
        federation=federation.upper() if federation else None,
        team=_optional(table, "team", str, where),
    )


def _board(table: Mapping[str, Any], where: str) -> BoardSetup:
    _only(table, where, {"number", "driver", "url", "clock"})
    number = _positive(table, "number", where)
    where = f"board {number}"
    driver = _optional(table, "driver", str, where) or "dgt"
    if driver not in DRIVERS:
        raise EventFileError(f"{where}: driver {driver!r} is not one of {sorted(DRIVERS)}")
    clock = _optional(table, "clock", str, where)
    try:
        clock = "auto" if clock is None else clock_setting(clock)
    except ValueError as error:
        raise EventFileError(f"{where}: {error}") from None
    return BoardSetup(number=number, url=_text(table, "url", where), driver=driver, clock=clock)


def _round(table: Mapping[str, Any], where: str) -> RoundSetup:
    _only(table, where, {"number", "starts", "delay", "pairings", "published"})
    number = _positive(table, "number", where)
    where = f"round {number}"
    delay = _optional(table, "delay", int, where) or 0
    if not 0 <= delay <= MAX_DELAY_SECONDS:
        raise EventFileError(f"{where}: delay must be 0 to {MAX_DELAY_SECONDS} seconds")
    pairings: list[tuple[int, int]] = []
    for board, pair in enumerate(_optional(table, "pairings", list, where) or [], start=1):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
        ):
            raise EventFileError(
                f"{where}, board {board}: a pairing is [white, black] start numbers"
            )
        pairings.append((pair[0], pair[1]))
    starts = _optional(table, "starts", datetime, where)
    if starts is not None and starts.utcoffset() is None:
        raise EventFileError(
            f"{where}: starts needs its UTC offset, as in 2026-11-21T15:00:00+01:00 "
            "(or ...Z for UTC)"
        )
    return RoundSetup(
        number=number,
        pairings=tuple(pairings),
        starts=starts,
        delay=delay,
        published=_flag(table, "published", where, default=True),
    )


def _check_references(setup: EventSetup) -> None:
    numbers = [player.number for player in setup.players]
    _unique(numbers, "player")
    _unique([board.number for board in setup.boards], "board")
    _unique([round_.number for round_ in setup.rounds], "round")
    known = set(numbers)
    for round_ in setup.rounds:
        seen: set[int] = set()
        for board, (white, black) in enumerate(round_.pairings, start=1):
            where = f"round {round_.number}, board {board}"
            for number in (white, black):
                if number not in known:
                    raise EventFileError(f"{where}: no player with number {number}")
                if number in seen:
                    raise EventFileError(f"{where}: player {number} is paired twice")
                seen.add(number)


def _unique(numbers: list[int], what: str) -> None:
    seen: set[int] = set()
    for number in numbers:
        if number in seen:
            raise EventFileError(f"{what} {number} appears twice")
        seen.add(number)


def _only(table: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise EventFileError(f"{where}: unknown key {unknown[0]!r} (known: {sorted(allowed)})")


def _array(document: Mapping[str, Any], key: str) -> list[Any]:
    value = document.get(key, [])
    if not isinstance(value, list):
        raise EventFileError(f"{key} must be an array of tables: write [[{key}]]")
    return value


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise EventFileError(f"{where} must be a table")
    return value


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise EventFileError(f"{where}: {key} is required and must be text")
    return value.strip()


def _flag(table: Mapping[str, Any], key: str, where: str, *, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise EventFileError(f"{where}: {key} must be true or false")
    return value


def _positive(table: Mapping[str, Any], key: str, where: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise EventFileError(f"{where}: {key} is required and must be a positive integer")
    return value


def _optional(table: Mapping[str, Any], key: str, kind: type[T], where: str) -> T | None:
    if key not in table:
        return None
    value = table[key]
    # TOML dates and datetimes are distinct types; a datetime is not a date here.
    wrong = isinstance(value, bool) and kind is not bool
    wrong = wrong or (kind is date and isinstance(value, datetime))
    if wrong or not isinstance(value, kind):
        raise EventFileError(f"{where}: {key} must be {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


_KIND_NAMES: dict[type[Any], str] = {
    int: "an integer",
    str: "text",
    list: "an array",
    date: "a date (2026-11-21)",
    datetime: "a date and time (2026-11-21T15:00:00)",
}


def render_event_file(setup: EventSetup) -> str:
    """An event file that :func:`parse_event_file` reads back as ``setup``."""
    lines = ["[tournament]"]
    tournament = setup.tournament
    lines += _pairs(
        name=tournament.name,
        site=tournament.site,
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        time_control=tournament.time_control,
        rounds=tournament.rounds,
        pairing_system=tournament.pairing_system,
        tie_breaks=list(tournament.tie_breaks) if tournament.tie_breaks is not None else None,
    )
    for player in setup.players:
        lines += ["", "[[player]]"]
        lines += _pairs(
            number=player.number,
            name=player.name,
            fide_id=player.fide_id,
            title=player.title,
            rating=player.rating,
            federation=player.federation,
            team=player.team,
        )
    for board in setup.boards:
        lines += ["", "[[board]]"]
        lines += _pairs(number=board.number, driver=board.driver, url=board.url, clock=board.clock)
    for round_ in setup.rounds:
        lines += ["", "[[round]]"]
        lines += _pairs(
            number=round_.number,
            starts=round_.starts,
            delay=round_.delay,
            published=round_.published,
        )
        pairs = ", ".join(f"[{white}, {black}]" for white, black in round_.pairings)
        lines.append(f"pairings = [{pairs}]")
    return "\n".join(lines) + "\n"


def _pairs(**values: object) -> list[str]:
    return [f"{key} = {_toml(value)}" for key, value in values.items() if value is not None]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)
