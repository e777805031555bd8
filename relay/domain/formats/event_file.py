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
    tie_break_edition = "2026"   # or "2024"; none: the C.07 edition in force at start_date

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

    [[output]]                 # optional: where else the games go (output_setup.py)
    kind = "folder"
    path = "/srv/www/live"

Parsing is strict: an unknown key is a typo, not something to ignore. Every problem of a
file is reported, not only the first: each table, and each key of it, is read on its own.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from relay.domain.clock.orientation import clock_setting
from relay.domain.clock.time_control import TimeControlError
from relay.domain.clock.written_time_control import parse_time_control
from relay.domain.errors import Collector, InvalidInputError, Problem
from relay.domain.formats.output_setup import (
    OUTPUT_KINDS,
    FolderSetup,
    FtpSetup,
    LichessSetup,
    LiveChessSetup,
    OutputSetup,
)
from relay.domain.formats.trf import TITLES as FIDE_TITLES
from relay.domain.tournament.pairing_systems import PairingSystem
from relay.domain.tournament.tie_break_editions import EDITIONS, parse_edition
from relay.domain.tournament.tie_break_names import parse_order
from relay.domain.vocabulary import UnknownWordError

DRIVERS = frozenset({"dgt"})
#: The file's tables.
TOP_LEVEL = {"tournament", "player", "board", "round", "output"}
MAX_DELAY_SECONDS = 3600
#: FIDE's titles, and the Lady Master of some national federations.
TITLES = FIDE_TITLES | {"LM"}

T = TypeVar("T")


class EventFileError(ValueError, InvalidInputError):
    """An event file that cannot be used; the message says where and why, and ``field``
    says where for a program (``[tournament]``, ``player 3``, ``round 2, board 1``), when
    known. A file with several problems raises one EventFileError that lists them all
    (:attr:`~relay.domain.errors.InvalidInputError.problems`)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def problem(self) -> Problem:
        return Problem(str(self), field=self.field)


def _fail(where: str, reason: str) -> EventFileError:
    return EventFileError(f"{where}: {reason}", field=where)


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    name: str
    site: str = "?"
    start_date: date | None = None
    end_date: date | None = None
    time_control: str | None = None
    rounds: int | None = None
    pairing_system: PairingSystem | None = None
    tie_breaks: tuple[str, ...] | None = None
    #: ``"2024"`` or ``"2026"``; None: the C.07 edition in force at ``start_date``.
    tie_break_edition: str | None = None


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
    outputs: tuple[OutputSetup, ...] = ()


def parse_event_file(text: str) -> EventSetup:
    """Read an event file; raises :class:`EventFileError` naming every problem found (one
    error listing them all). Text that is not TOML is one problem: nothing past it reads."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise EventFileError(f"not valid TOML: {error}") from None
    errors = Collector(EventFileError)
    errors.attempt(_only, document, "the file", TOP_LEVEL)
    tournament = None
    if "tournament" not in document:
        errors.add(EventFileError("the file has no [tournament] table"))
    elif (table := errors.attempt(_table, document["tournament"], "[tournament]")) is not None:
        tournament = _tournament(table, errors)
    players, every_player = _each(document, "player", _player, errors)
    boards, _ = _each(document, "board", _board, errors)
    rounds, _ = _each(document, "round", _round, errors)
    outputs: list[OutputSetup]
    outputs, _ = _each(document, "output", _output, errors)
    # A player that cannot be read would only make its pairings look wrong.
    if every_player:
        _check_references(players, boards, rounds, errors)
    errors.check()
    assert tournament is not None
    return EventSetup(
        tournament=tournament,
        players=tuple(players),
        boards=tuple(boards),
        rounds=tuple(rounds),
        outputs=tuple(outputs),
    )


Reader = Callable[[Mapping[str, Any], str, Collector[EventFileError]], T | None]


def _each(
    document: Mapping[str, Any], key: str, read: Reader[T], errors: Collector[EventFileError]
) -> tuple[list[T], bool]:
    """What the ``[[key]]`` tables give, each read on its own; and whether every one read."""
    items = errors.attempt(_array, document, key)
    if items is None:
        return [], False
    found: list[T] = []
    for i, item in enumerate(items, start=1):
        table = errors.attempt(_table, item, f"{key} {i}")
        setup = None if table is None else read(table, f"{key} {i}", errors)
        if setup is not None:
            found.append(setup)
    return found, len(found) == len(items)


def _tournament(
    table: Mapping[str, Any], errors: Collector[EventFileError]
) -> TournamentSetup | None:
    where = "[tournament]"
    found = len(errors)
    errors.attempt(
        _only,
        table,
        where,
        {"name", "site", "start_date", "end_date", "time_control", "rounds"}
        | {"pairing_system", "tie_breaks", "tie_break_edition"},
    )
    start = errors.attempt(_optional, table, "start_date", date, where)
    end = errors.attempt(_optional, table, "end_date", date, where)
    if start and end and end < start:
        errors.add(_fail(where, f"end_date {end} is before start_date {start}"))
    rounds = errors.attempt(_optional, table, "rounds", int, where)
    if rounds is not None and rounds < 1:
        errors.add(_fail(where, "rounds must be at least 1"))
    time_control = None
    with errors.catching():
        time_control = _optional(table, "time_control", str, where)
        if time_control is not None:
            try:
                parse_time_control(time_control)
            except TimeControlError as error:
                raise _fail(where, f"time_control: {error}") from None
    system = None
    with errors.catching():
        written = _optional(table, "pairing_system", str, where)
        try:
            system = None if written is None else PairingSystem.parse(written)
        except UnknownWordError:
            raise _fail(where, f"pairing_system is one of {', '.join(PairingSystem)}") from None
    tie_breaks = None
    with errors.catching():
        names = _optional(table, "tie_breaks", list, where)
        if names is not None:
            if not all(isinstance(name, str) for name in names):
                raise _fail(where, "tie_breaks is a list of names")
            try:
                tie_breaks = parse_order(", ".join(names))
            except ValueError as error:
                raise _fail(where, f"tie_breaks: {error}") from None
    edition = None
    if "tie_break_edition" in table:
        given = table["tie_break_edition"]
        try:
            edition = parse_edition(given).value
        except ValueError:
            editions = " or ".join(f'"{e}"' for e in EDITIONS)
            errors.add(_fail(where, f"tie_break_edition is {editions} (in quotes), not {given!r}"))
    name = errors.attempt(_text, table, "name", where)
    site = errors.attempt(_optional, table, "site", str, where)
    if len(errors) > found or name is None:
        return None
    return TournamentSetup(
        name=name,
        site=site or "?",
        start_date=start,
        end_date=end,
        time_control=time_control,
        rounds=rounds,
        pairing_system=system,
        tie_breaks=tie_breaks,
        tie_break_edition=edition,
    )


def _player(
    table: Mapping[str, Any], where: str, errors: Collector[EventFileError]
) -> PlayerSetup | None:
    found = len(errors)
    keys = {"number", "name", "fide_id", "title", "rating", "federation", "team"}
    errors.attempt(_only, table, where, keys)
    number = errors.attempt(_positive, table, "number", where)
    if number is not None:
        where = f"player {number}"
    name = errors.attempt(_text, table, "name", where)
    title = errors.attempt(_optional, table, "title", str, where)
    if title is not None and title not in TITLES:
        errors.add(_fail(where, f"title {title!r} is not one of {sorted(TITLES)}"))
    federation = errors.attempt(_optional, table, "federation", str, where)
    if federation is not None and not (len(federation) == 3 and federation.isalpha()):
        errors.add(_fail(where, f"federation {federation!r} is not a 3-letter code"))
    rating = errors.attempt(_optional, table, "rating", int, where)
    if rating is not None and not 0 <= rating <= 4000:
        errors.add(_fail(where, f"rating {rating} is out of range"))
    fide_id = errors.attempt(_optional, table, "fide_id", int, where)
    team = errors.attempt(_optional, table, "team", str, where)
    if len(errors) > found or number is None or name is None:
        return None
    return PlayerSetup(
        number=number,
        name=name,
        fide_id=fide_id,
        title=title,
        rating=rating,
        federation=federation.upper() if federation else None,
        team=team,
    )


def _board(
    table: Mapping[str, Any], where: str, errors: Collector[EventFileError]
) -> BoardSetup | None:
    found = len(errors)
    errors.attempt(_only, table, where, {"number", "driver", "url", "clock"})
    number = errors.attempt(_positive, table, "number", where)
    if number is not None:
        where = f"board {number}"
    driver = errors.attempt(_optional, table, "driver", str, where) or "dgt"
    if driver not in DRIVERS:
        errors.add(_fail(where, f"driver {driver!r} is not one of {sorted(DRIVERS)}"))
    clock = None
    with errors.catching():
        clock = _optional(table, "clock", str, where)
        try:
            clock = "auto" if clock is None else clock_setting(clock)
        except ValueError as error:
            raise _fail(where, str(error)) from None
    url = errors.attempt(_text, table, "url", where)
    if len(errors) > found or number is None or url is None or clock is None:
        return None
    return BoardSetup(number=number, url=url, driver=driver, clock=clock)


def _round(
    table: Mapping[str, Any], where: str, errors: Collector[EventFileError]
) -> RoundSetup | None:
    found = len(errors)
    errors.attempt(_only, table, where, {"number", "starts", "delay", "pairings", "published"})
    number = errors.attempt(_positive, table, "number", where)
    if number is not None:
        where = f"round {number}"
    delay = errors.attempt(_optional, table, "delay", int, where) or 0
    if not 0 <= delay <= MAX_DELAY_SECONDS:
        errors.add(_fail(where, f"delay must be 0 to {MAX_DELAY_SECONDS} seconds"))
    pairings: list[tuple[int, int]] = []
    given = errors.attempt(_optional, table, "pairings", list, where) or []
    for board, pair in enumerate(given, start=1):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)
        ):
            errors.add(
                _fail(f"{where}, board {board}", "a pairing is [white, black] start numbers")
            )
            continue
        pairings.append((pair[0], pair[1]))
    starts = errors.attempt(_optional, table, "starts", datetime, where)
    if starts is not None and starts.utcoffset() is None:
        errors.add(
            _fail(
                where,
                "starts needs its UTC offset, as in 2026-11-21T15:00:00+01:00 (or ...Z for UTC)",
            )
        )
    published = errors.attempt(_flag, table, "published", where, default=True)
    if len(errors) > found or number is None or published is None:
        return None
    return RoundSetup(
        number=number,
        pairings=tuple(pairings),
        starts=starts,
        delay=delay,
        published=published,
    )


_BROADCAST_ROUND = re.compile(r"[A-Za-z0-9]{8}")
#: The keys each kind of ``[[output]]`` takes besides ``kind``.
_OUTPUT_KEYS = {
    "lichess": {"rounds", "token_env", "url"},
    "folder": {"path"},
    "ftp": {"host", "port", "user", "password_env", "directory", "tls"},
    "livechess": set(),
}


def _output(
    table: Mapping[str, Any], where: str, errors: Collector[EventFileError]
) -> OutputSetup | None:
    found = len(errors)
    kind = errors.attempt(_text, table, "kind", where)
    if kind is None:
        return None
    if kind not in OUTPUT_KINDS:
        errors.add(_fail(where, f"kind {kind!r} is not one of {list(OUTPUT_KINDS)}"))
        return None
    where = f"{where} ({kind})"
    errors.attempt(_only, table, where, {"kind"} | _OUTPUT_KEYS[kind])
    setup: OutputSetup | None = None
    if kind == "lichess":
        rounds = errors.attempt(_lichess_rounds, table, where)
        token_env = errors.attempt(_optional, table, "token_env", str, where)
        url = errors.attempt(_optional, table, "url", str, where)
        if rounds is not None:
            setup = LichessSetup(
                rounds=rounds,
                token_env=token_env or "LICHESS_TOKEN",
                url=(url or "https://lichess.org").rstrip("/"),
            )
    elif kind == "folder":
        path = errors.attempt(_text, table, "path", where)
        setup = FolderSetup(path=path) if path is not None else None
    elif kind == "ftp":
        host = errors.attempt(_text, table, "host", where)
        port = errors.attempt(_optional, table, "port", int, where)
        port = 21 if port is None else port
        if not 0 < port < 65536:
            errors.add(_fail(where, "port must be 1 to 65535"))
        user = errors.attempt(_optional, table, "user", str, where)
        password_env = errors.attempt(_optional, table, "password_env", str, where)
        directory = errors.attempt(_optional, table, "directory", str, where)
        tls = errors.attempt(_flag, table, "tls", where, default=False)
        if host is not None and tls is not None:
            setup = FtpSetup(
                host=host,
                port=port,
                user=user or "anonymous",
                password_env=password_env,
                directory=directory or "",
                tls=tls,
            )
    else:
        setup = LiveChessSetup()
    return setup if len(errors) == found else None


def _lichess_rounds(table: Mapping[str, Any], where: str) -> tuple[tuple[int, str], ...]:
    """``rounds = { 1 = "AbCd1234", ... }``: our round numbers to broadcast round ids (a
    lichess round id is eight ASCII letters and digits)."""
    given = table.get("rounds")
    wrong = _fail(where, 'rounds must map round numbers to broadcast round ids: { 1 = "AbCd1234" }')
    if not isinstance(given, dict) or not given:
        raise wrong
    mapped: dict[int, str] = {}
    for key, round_id in given.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 6) or int(key) < 1:
            raise wrong
        number = int(key)
        if number in mapped:
            raise _fail(where, f"round {number} is mapped twice")
        if not isinstance(round_id, str) or not _BROADCAST_ROUND.fullmatch(round_id):
            raise _fail(
                where,
                f"round {number}: {str(round_id)[:40]!r} is not a broadcast round id "
                "(eight letters and digits, the end of the round's address)",
            )
        mapped[number] = round_id
    return tuple(sorted(mapped.items()))


def _check_references(
    players: list[PlayerSetup],
    boards: list[BoardSetup],
    rounds: list[RoundSetup],
    errors: Collector[EventFileError],
) -> None:
    numbers = [player.number for player in players]
    _unique(numbers, "player", errors)
    _unique([board.number for board in boards], "board", errors)
    _unique([round_.number for round_ in rounds], "round", errors)
    known = set(numbers)
    for round_ in rounds:
        seen: set[int] = set()
        for board, (white, black) in enumerate(round_.pairings, start=1):
            where = f"round {round_.number}, board {board}"
            for number in (white, black):
                if number not in known:
                    errors.add(_fail(where, f"no player with number {number}"))
                elif number in seen:
                    errors.add(_fail(where, f"player {number} is paired twice"))
                seen.add(number)


def _unique(numbers: list[int], what: str, errors: Collector[EventFileError]) -> None:
    """Each number that appears more than once, told once."""
    seen: set[int] = set()
    told: set[int] = set()
    for number in numbers:
        if number in seen and number not in told:
            errors.add(EventFileError(f"{what} {number} appears twice", field=f"{what} {number}"))
            told.add(number)
        seen.add(number)


def _only(table: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _fail(where, f"unknown key {unknown[0]!r} (known: {sorted(allowed)})")


def _array(document: Mapping[str, Any], key: str) -> list[Any]:
    value = document.get(key, [])
    if not isinstance(value, list):
        raise EventFileError(f"{key} must be an array of tables: write [[{key}]]", field=key)
    return value


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise EventFileError(f"{where} must be a table", field=where)
    return value


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"{key} is required and must be text")
    return value.strip()


def _flag(table: Mapping[str, Any], key: str, where: str, *, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise _fail(where, f"{key} must be true or false")
    return value


def _positive(table: Mapping[str, Any], key: str, where: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise _fail(where, f"{key} is required and must be a positive integer")
    return value


def _optional(table: Mapping[str, Any], key: str, kind: type[T], where: str) -> T | None:
    if key not in table:
        return None
    value = table[key]
    # TOML dates and datetimes are distinct types; a datetime is not a date here.
    wrong = isinstance(value, bool) and kind is not bool
    wrong = wrong or (kind is date and isinstance(value, datetime))
    if wrong or not isinstance(value, kind):
        raise _fail(where, f"{key} must be {_KIND_NAMES.get(kind, kind.__name__)}")
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
        tie_break_edition=tournament.tie_break_edition,
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
    for output in setup.outputs:
        lines += ["", "[[output]]", f"kind = {_toml(output.kind)}"]
        if isinstance(output, LichessSetup):
            mapped = ", ".join(f"{number} = {_toml(name)}" for number, name in output.rounds)
            lines.append(f"rounds = {{ {mapped} }}")
            lines += _pairs(token_env=output.token_env, url=output.url)
        elif isinstance(output, FolderSetup):
            lines += _pairs(path=output.path)
        elif isinstance(output, FtpSetup):
            lines += _pairs(
                host=output.host,
                port=output.port,
                user=output.user,
                password_env=output.password_env,
                directory=output.directory,
                tls=output.tls,
            )
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
