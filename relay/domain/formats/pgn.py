"""Game PGN as broadcast platforms poll it (``docs/formats.md``, "Round PGN"), and the strict
archive form of seed 001 ("Strict archive PGN").

The moves come from the game's log, where they were stored as SAN by python-chess after a
legality check, so rendering is string building: no board is replayed. That keeps a game's
PGN at a few microseconds per move, which is what lets the round PGN be served from a cache
that re-renders only the games that changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from relay.domain.errors import RefusedError
from relay.domain.results import Result
from relay.domain.vocabulary import UnknownWordError

#: Export format lines are at most 79 characters (PGN standard 8.2.6).
LINE_LIMIT = 79
SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


class PgnExportError(ValueError, RefusedError):
    """Headers or moves that cannot become a valid PGN game."""


@dataclass(frozen=True, slots=True)
class PlayerTags:
    name: str
    rating: int | None = None
    title: str | None = None
    fide_id: int | None = None
    team: str | None = None


@dataclass(frozen=True, slots=True)
class GameHeaders:
    """What a relay PGN says about a game besides its moves."""

    event: str
    site: str
    date: str  # "YYYY.MM.DD", "??" for unknown parts
    round: int
    board: int
    white: PlayerTags
    black: PlayerTags
    result: Result = Result.ONGOING
    game_id: str | None = None
    termination: str | None = None
    #: PGN standard syntax, for example ``40/5400+30:1800+30``.
    time_control: str | None = None
    #: When the game started (its first clock start), in UTC.
    started: datetime | None = None
    annotator: str | None = None
    #: The plies an arbiter amended (seed 004, ch. 18), e.g. ``"ply 41"``: the ``Amended`` tag.
    amended: str | None = None


@dataclass(frozen=True, slots=True)
class PgnMove:
    san: str
    #: The mover's remaining time after the move, in seconds (``%clk``).
    clock: float | None = None
    #: An arbiter's note shown after the move (an illegal move let stand, a correction).
    note: str | None = None
    #: The time the move took, in seconds (``%emt``).
    spent: float | None = None


def render_game(headers: GameHeaders, moves: Sequence[PgnMove], before: str | None = None) -> str:
    """One game as PGN text: Seven Tag Roster first, then relay tags, then the moves;
    ``before`` is a comment before the first move (a note on the whole score)."""
    result = _checked(headers.result)
    tags = _roster(headers) + _relay_tags(headers)
    words = _movetext(moves, comments=True)
    if before is not None and before.strip():
        words = ["{", *_clean_comment(before).split(), "}", *words]
    return _assemble(tags, words, result)


def render_archive(headers: GameHeaders, sans: Sequence[str]) -> str:
    """The strict seven-tag form: roster only, no comments, a decided result."""
    result = _checked(headers.result)
    if not result.is_decided:
        raise PgnExportError("an archive game needs a result: 1-0, 0-1 or 1/2-1/2")
    words = _movetext([PgnMove(san) for san in sans], comments=False)
    return _assemble(_roster(headers), words, result)


def render_round(games: Iterable[str]) -> str:
    """Several rendered games as one multi-game PGN file, in the order given."""
    return "".join(f"{game}\n\n" for game in games)


def format_clock(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _checked(result: str) -> Result:
    """``result`` as a :class:`Result`, refused when it is none (headers made with text
    past the type checker)."""
    try:
        return Result.parse(result)
    except UnknownWordError as error:
        raise PgnExportError(str(error)) from None


def _roster(headers: GameHeaders) -> list[tuple[str, str]]:
    return [
        ("Event", headers.event),
        ("Site", headers.site),
        ("Date", headers.date),
        ("Round", f"{headers.round}.{headers.board}"),
        ("White", headers.white.name),
        ("Black", headers.black.name),
        ("Result", headers.result),
    ]


def _relay_tags(headers: GameHeaders) -> list[tuple[str, str]]:
    tags = [("Board", str(headers.board))]
    for colour, player in (("White", headers.white), ("Black", headers.black)):
        if player.title:
            tags.append((f"{colour}Title", player.title))
        if player.rating is not None:
            tags.append((f"{colour}Elo", str(player.rating)))
        if player.fide_id is not None:
            tags.append((f"{colour}FideId", str(player.fide_id)))
        if player.team:
            tags.append((f"{colour}Team", player.team))
    if headers.time_control:
        tags.append(("TimeControl", headers.time_control))
    if headers.started is not None:
        tags.append(("UTCDate", headers.started.strftime("%Y.%m.%d")))
        tags.append(("UTCTime", headers.started.strftime("%H:%M:%S")))
    if headers.game_id is not None:
        tags.append(("GameId", headers.game_id))
    if headers.termination is not None:
        tags.append(("Termination", headers.termination))
    if headers.annotator is not None:
        tags.append(("Annotator", headers.annotator))
    if headers.amended:
        tags.append(("Amended", headers.amended))
    return tags


def _movetext(moves: Sequence[PgnMove], *, comments: bool) -> list[str]:
    """Move numbers, SAN and comments as words to be wrapped.

    No word that could start a line begins with ``[`` or ``%`` (a tag or an escape line to
    some readers): the clock annotation is glued to the word before it.
    """
    words: list[str] = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif comments and _has_comment(moves[ply - 1]):
            words.append(f"{ply // 2 + 1}...")
        words.append(move.san)
        if comments and _has_comment(move):
            words.extend(_comment(move))
    return words


def _has_comment(move: PgnMove) -> bool:
    return move.clock is not None or move.note is not None or move.spent is not None


def _comment(move: PgnMove) -> list[str]:
    parts = ["{", *_clean_comment(move.note or "").split()]
    if move.clock is not None:
        parts[-1] += f" [%clk {format_clock(move.clock)}]"
    if move.spent is not None:
        parts[-1] += f" [%emt {format_clock(move.spent)}]"
    parts[-1] += " }"
    return parts


def _clean_comment(text: str) -> str:
    # A brace would end the comment; brackets and percent signs would read as commands.
    for bad, good in (("{", "("), ("}", ")"), ("[", "("), ("]", ")"), ("%", " percent")):
        text = text.replace(bad, good)
    return text


def _escape(value: str) -> str:
    return " ".join(value.replace("\\", "\\\\").replace('"', '\\"').split())


def _assemble(tags: list[tuple[str, str]], words: list[str], result: str) -> str:
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    lines.append("")
    line = ""
    for word in [*words, result]:
        if line and len(line) + 1 + len(word) > LINE_LIMIT:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)
