"""The emails of a correspondence event: what the relay writes, and to whom, when something
falls due in a game (:class:`~relay.domain.correspondence.silence.Due`), by the IECG Rules
and Regulations 6.4, section C: :func:`letter`.

Who is written to, by what falls due:

* the reminder (C.3.1.C): the silent player, with a copy to the Tournament Secretary (TS).
  The relay repeats the last move for the waiting player, as the article asks of him;
* the TS informed (C.3.1.D): the TS alone, who decides on the game;
* doubled time (C.3.1.B): the player to move alone, as a warning: it is no ruling, and the
  TS sees the clocks on the game's page;
* a rapid game that may be scored as lost (C.3.1.E): the TS, whose decision it is, with a
  copy to the player at risk, who may have told the TS of the delay after all;
* a team player's withdrawal (C.3.2.A), a fallen flag (C.6.B), a forfeit (C.3.1.A), a team
  game lost by silence (C.3.2.E): both players and the TS.

A reader without an email address is left out, and an address given twice is written to
once; with nobody left there is no letter. Names are put on one line (runs of white space,
line breaks included, become one space; characters that cannot be printed are dropped), so
no name can break a subject line. Bodies are plain text wrapped at 78 characters; only the
game page's address, on a line of its own, may be longer. Dates come in with the facts and
the due item: nothing here reads a clock.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Literal

from relay.domain.correspondence.silence import Due, DueKind, Side

#: The widest line of a body (RFC 5322's advice), the game page's address aside.
WIDTH = 78

#: Between the players' names in a subject: an en dash with a space each side.
DASH = " \N{EN DASH} "

#: Who may read a letter: a player, or the Tournament Secretary.
Reader = Literal["white", "black", "ts"]

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True, slots=True)
class Letter:
    """An email to send: its recipients' addresses, its subject and its plain-text body."""

    to: tuple[str, ...]
    subject: str
    body: str


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a letter says about its game: the event, the game's number and players, the
    addresses it may be sent to (None when not known), the game's page, and the last move
    sent, in SAN with its number (``"23...Nf6"``), with the day it was sent (None before the
    first move)."""

    event: str
    game_id: int
    white: str
    black: str
    white_email: str | None
    black_email: str | None
    ts_email: str | None
    url: str
    last_move: str | None = None
    last_move_sent: date | None = None


@dataclass(frozen=True, slots=True)
class _Draft:
    """A letter before its addresses are known: who reads it, its subject (without the
    event's tag) and its paragraphs, each to be wrapped."""

    readers: tuple[Reader, ...]
    subject: str
    paragraphs: tuple[str, ...]


def letter(due: Due, facts: GameFacts) -> Letter | None:
    """The email for ``due`` in the game of ``facts``, or None if none of its readers has
    an email address (see the module's words for who reads which)."""
    draft = _DRAFTS[due.kind](due, facts)
    to = tuple(dict.fromkeys(_addresses(facts, draft.readers)))
    if not to:
        return None
    subject = f"[{_clean(facts.event)}] {draft.subject}"
    return Letter(to, subject, _body(draft.paragraphs, facts))


def _addresses(facts: GameFacts, readers: tuple[Reader, ...]) -> Iterator[str]:
    """The addresses of ``readers`` that have one, blank ones counted as none."""
    emails = {"white": facts.white_email, "black": facts.black_email, "ts": facts.ts_email}
    for reader in readers:
        address = (emails[reader] or "").strip()
        if address:
            yield address


def _body(paragraphs: tuple[str, ...], facts: GameFacts) -> str:
    """The paragraphs wrapped, then the game's page and a closing line."""
    closing = f"This message was sent automatically by the relay of {_clean(facts.event)}."
    wrapped = [textwrap.fill(text, WIDTH, break_on_hyphens=False) for text in paragraphs]
    page = f"The game's page:\n{facts.url}"
    return "\n\n".join([*wrapped, page, textwrap.fill(closing, WIDTH)]) + "\n"


def _reminder(due: Due, facts: GameFacts) -> _Draft:
    """C.3.1.C: ``due.side`` has waited long enough; the silent player is reminded."""
    silent = _other(due.side)
    move = _move(facts)
    repeated = f" the last move is repeated here: {move}." if move else " you are reminded."
    return _Draft(
        (silent, "ts"),
        f"Reminder: your move in {_game(facts)}",
        (
            f"To {_who(facts, silent)}, with a copy to the Tournament Secretary.",
            f"{_name(facts, due.side)} has had no reply from you in {_game(facts)},"
            f" {_clean(facts.event)}, by {_day(due.since)}. As article C.3.1.C of the IECG"
            f" rules asks,{repeated}",
            "Please send your reply to your opponent, or a notice of delay with a copy to"
            " the Tournament Secretary (article C.3.1.B). If no reply arrives within a"
            " further 10 days (5 in rapid events), the Tournament Secretary will be told"
            " and will decide on the game (article C.3.1.D).",
        ),
    )


def _inform_ts(due: Due, facts: GameFacts) -> _Draft:
    """C.3.1.D: the reminder went unanswered; ``due.side`` tells the TS."""
    silent = _other(due.side)
    return _Draft(
        ("ts",),
        f"No reply from {silent.capitalize()} in {_game(facts)}",
        (
            f"To the Tournament Secretary of {_clean(facts.event)}.",
            f"{_who(facts, silent)} has not replied in {_game(facts)}, even after the move"
            f" was repeated as article C.3.1.C asks. {_last_move(facts)}The further days"
            f" allowed after that reminder ran out on {_day(due.since)}.",
            "As article C.3.1.D of the IECG rules asks, you are told of it: please decide"
            f" on the game. {_who(facts, due.side)} waits for your decision.",
        ),
    )


def _doubled_time(due: Due, facts: GameFacts) -> _Draft:
    """C.3.1.B: the time of ``due.side``, to move, counts double."""
    move = _move(facts)
    silent = f"not yet replied to {move}" if move else "not yet made your move"
    return _Draft(
        (due.side,),
        f"Doubled time: your move in {_game(facts)}",
        (
            f"To {_who(facts, due.side)}.",
            f"In {_game(facts)}, {_clean(facts.event)}, you have {silent}. From"
            f" {_day(due.since)} your time for this move counts double (article C.3.1.B of"
            " the IECG rules): it does from a move's 11th day (rapid events: 6th), or from"
            " its 21st (11th) after a notice of delay to the opponent.",
            "Please send your move soon: more than 30 days (rapid events: 20) for one move"
            " forfeits the game (article C.3.1.A), and in a team event withdraws you from the"
            " tournament (article C.3.2.A).",
        ),
    )


def _score_as_lost(due: Due, facts: GameFacts) -> _Draft:
    """C.3.1.E: a rapid game without a move for 20 days; ``due.side`` did not tell the TS."""
    name = _name(facts, due.side)
    return _Draft(
        ("ts", due.side),
        f"May be scored as lost to {due.side.capitalize()}: {_game(facts)}",
        (
            f"To the Tournament Secretary of {_clean(facts.event)}, with a copy to"
            f" {_who(facts, due.side)}.",
            f"No move has been sent in {_game(facts)} for 20 days: the 20th day was"
            f" {_day(due.since)}. {_last_move(facts)}{name} has not told the Tournament"
            " Secretary about the delay, so by article C.3.1.E of the IECG rules the game"
            f" may be scored as lost to {name}.",
            f"The decision is the Tournament Secretary's. {name}: if you did tell the"
            " Tournament Secretary about the delay, write to the Tournament Secretary at"
            " once.",
        ),
    )


def _withdrawal(due: Due, facts: GameFacts) -> _Draft:
    """C.3.2.A: ``due.side`` took over 30 days for a move in a team event."""
    name = _name(facts, due.side)
    return _Draft(
        ("white", "black", "ts"),
        f"{due.side.capitalize()} withdrawn: {_game(facts)}",
        (
            f"To both players and the Tournament Secretary of {_clean(facts.event)}.",
            f"{_who(facts, due.side)} has taken more than 30 days over one move in"
            f" {_game(facts)}; the limit was passed on {_day(due.since)}."
            f" {_last_move(facts)}By article C.3.2.A of the IECG rules, {name} is withdrawn"
            " from the team tournament.",
            "The game goes on with a replacement, whom the team captain finds (article"
            " C.3.2.B); the time used until the next legal move counts as reflection time"
            " (article C.3.2.D). Tournament Secretary: please tell the team captain.",
        ),
    )


#: Why a game ended, by the kind of its end: (the subject's words, what happened).
_ENDINGS: dict[DueKind, tuple[str, str]] = {
    DueKind.FLAG: (
        "Flag fell",
        "In {game}, the time of {who} ran out on {since}: the flag fell.",
    ),
    DueKind.FORFEIT: (
        "Game forfeited",
        "In {game}, {who} took more than 30 days (rapid events: 20) for one move; the"
        " limit was passed on {since}.",
    ),
    DueKind.GAME_LOST: (
        "Game lost by silence",
        "In {game}, no legal move has been made for 60 days with {who} to move; the 60th"
        " day was {since}.",
    ),
}


def _game_over(due: Due, facts: GameFacts) -> _Draft:
    """C.6.B, C.3.1.A, C.3.2.E: the game is lost by ``due.side``."""
    words, happened = _ENDINGS[due.kind]
    result = "0-1" if due.side == "white" else "1-0"
    winner = _name(facts, _other(due.side))
    return _Draft(
        ("white", "black", "ts"),
        f"{words}: {_game(facts)}, {result}",
        (
            f"To both players and the Tournament Secretary of {_clean(facts.event)}.",
            happened.format(game=_game(facts), who=_who(facts, due.side), since=_day(due.since))
            + f" By article {due.article} of the IECG rules the game is lost by"
            f" {_name(facts, due.side)}. Result: {result}, {winner} wins.",
            f"{_last_move(facts)}If you think this is wrong, tell the Tournament Secretary"
            " at once (article C.5.D).",
        ),
    )


_DRAFTS: dict[DueKind, Callable[[Due, GameFacts], _Draft]] = {
    DueKind.REMINDER: _reminder,
    DueKind.INFORM_TS: _inform_ts,
    DueKind.DOUBLED_TIME: _doubled_time,
    DueKind.SCORE_AS_LOST: _score_as_lost,
    DueKind.WITHDRAWAL: _withdrawal,
    DueKind.FLAG: _game_over,
    DueKind.FORFEIT: _game_over,
    DueKind.GAME_LOST: _game_over,
}


def _other(side: Side) -> Side:
    return "black" if side == "white" else "white"


def _name(facts: GameFacts, side: Side) -> str:
    return _clean(facts.white if side == "white" else facts.black)


def _who(facts: GameFacts, side: Side) -> str:
    """A player with his colour: ``"Carlsen, Magnus (White)"``."""
    return f"{_name(facts, side)} ({side.capitalize()})"


def _game(facts: GameFacts) -> str:
    """The players joined by an en dash, then the game's number:
    ``"Carlsen \N{EN DASH} Nepomniachtchi (game 12)"``."""
    players = f"{_name(facts, 'white')}{DASH}{_name(facts, 'black')}"
    return f"{players} (game {facts.game_id})"


def _move(facts: GameFacts) -> str | None:
    """The last move and its day as far as known (``"23...Nf6, sent on 1 March 2023"``),
    None if neither is."""
    sent = f"sent on {_day(facts.last_move_sent)}" if facts.last_move_sent else None
    if facts.last_move is None:
        return f"the move {sent}" if sent else None
    move = _clean(facts.last_move)
    return f"{move}, {sent}" if sent else move


def _last_move(facts: GameFacts) -> str:
    """A sentence on the last move, with a space to follow it, or nothing if not known."""
    move = _move(facts)
    return f"The last move was {move}. " if move else ""


def _day(day: date) -> str:
    """``"1 March 2023"``, the same in every locale."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _clean(text: str) -> str:
    """``text`` on one line: runs of white space become one space, and other characters
    that cannot be printed (controls, format characters) go."""
    kept = "".join(c if c.isprintable() or c.isspace() else "" for c in text)
    return " ".join(kept.split())
