"""What a correspondence event is made of, checked before anything is stored: its players,
their names and addresses, time zones and days (docs/correspondence.md). Bad input is a
clear refusal, never half an event."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from relay.domain.correspondence.adjudication import TournamentFormat
from relay.domain.correspondence.days import EventKind
from relay.domain.errors import InvalidInputError, RefusedError, UnavailableError

__all__ = [
    "FIRST_DAY",
    "LAST_DAY",
    "MAX_PLAYERS",
    "CorrespondenceError",
    "CorrespondenceInputError",
    "NewEvent",
    "NewPlayer",
    "SweepBusyError",
    "check_day",
    "check_event",
    "name_key",
]

#: Longest name and address a player may have.
MAX_TEXT = 200
#: Most players in one event (a round robin of 40 is 780 games).
MAX_PLAYERS = 40
#: The days an event's start and a leave may fall on.
FIRST_DAY, LAST_DAY = date(1990, 1, 1), date(2199, 12, 31)


class CorrespondenceError(ValueError, RefusedError):
    """What a player or the TS may not do: move in another's game or out of turn, a leave
    the rules do not grant, a step of an adjudication in a game that is over."""


class CorrespondenceInputError(ValueError, InvalidInputError):
    """An event that cannot be: too few or too many players, a name or address that
    cannot be used, an unknown time zone, a day out of range."""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    name: str
    email: str | None = None
    rating: int | None = None
    time_zone: str = "UTC"


@dataclass(frozen=True, slots=True)
class NewEvent:
    """A correspondence round robin: every game starts on ``started``."""

    name: str
    control: EventKind
    format: TournamentFormat
    started: date
    players: tuple[NewPlayer, ...]
    ts_email: str | None = None
    double: bool = False


def name_key(name: str) -> str:
    """A player's name as the hub tells people apart: spaces collapsed, case folded (the
    rating list takes two entries under one key for one person)."""
    return " ".join(name.split()).casefold()


def check_day(day: date, what: str) -> None:
    """Refuse a day the rules' arithmetic cannot be asked about (months and days are added
    to it)."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise CorrespondenceInputError(f"{what} {day} is not between {FIRST_DAY} and {LAST_DAY}")


def check_event(event: NewEvent) -> None:
    check_day(event.started, "the start")
    if not 2 <= len(event.players) <= MAX_PLAYERS:
        raise CorrespondenceInputError(
            f"an event has 2 to {MAX_PLAYERS} players, not {len(event.players)}"
        )
    _check_text(event.name, "the event's name")
    if event.ts_email is not None:
        _check_email(event.ts_email)
    keys = set()
    for player in event.players:
        _check_text(player.name, "a player's name")
        if name_key(player.name) in keys:
            raise CorrespondenceInputError(f"{player.name} is entered twice")
        keys.add(name_key(player.name))
        if player.email is not None:
            _check_email(player.email)
        try:
            ZoneInfo(player.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise CorrespondenceInputError(f"{player.time_zone!r} is not a time zone") from None


def _check_text(text: str, what: str) -> None:
    if not text.strip() or len(text) > MAX_TEXT or not text.isprintable():
        raise CorrespondenceInputError(f"{what} is 1 to {MAX_TEXT} printable characters")


def _check_email(address: str) -> None:
    """An address a letter can go to: one ``@``, no spaces or line breaks (which would
    write headers of their own)."""
    local, at, domain = address.partition("@")
    if not (local and at and domain) or "@" in domain or len(address) > MAX_TEXT:
        raise CorrespondenceInputError(f"{address!r} is not an email address")
    if any(c.isspace() or not c.isprintable() for c in address):
        raise CorrespondenceInputError(f"{address!r} is not an email address")


class SweepBusyError(RuntimeError, UnavailableError):
    """Another hub process sharing the store is acting on what fell due, and did not finish
    within the wait."""
