"""Time controls as organisers write them: "90 min/40 moves + 30 min + 30 s/move",
"15 min/game + 10 sec/move", "G/90; d5", "3+2". :func:`parse_human` reads them and
:func:`format_human` writes one consistent English form; :func:`parse_time_control` takes a
``TimeControl`` tag or an event-file value in either PGN syntax or prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from relay.domain.clock.time_control import (
    Bonus,
    Period,
    TimeControl,
    TimeControlError,
    first_move,
    has_bonus,
    parse_pgn,
    read_number,
)

# What people write

_HUMAN_FORMS = (
    "write it like '90 min/40 moves + 30 min + 30 s/move', '15 min + 10 s/move', "
    "'G/90; d5', '5 min + 3 s Bronstein', '3+2' (minutes + seconds) or a PGN value "
    "such as '40/5400+30:1800+30'"
)


class _Kind(Enum):
    NUMBER = "number"
    UNIT = "unit"
    MOVE = "move"
    GAME = "game"
    SLASH = "/"
    SEPARATOR = "separator"
    PER = "per"
    INCREMENT = "increment"
    DELAY = "delay"
    BRONSTEIN = "bronstein"
    SANDCLOCK = "sandclock"
    FROM = "from"
    FIRST = "first"


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    text: str
    value: Fraction = Fraction(0)


_BONUS_KINDS = frozenset((_Kind.INCREMENT, _Kind.DELAY, _Kind.BRONSTEIN))

# Several words for one thing become the one word first.
_PHRASES = [
    (re.compile(r"\bsudden\s+death\b"), " sd "),
    (re.compile(r"\bfollowed\s+by\b"), " then "),
    (re.compile(r"\b(?:starting|beginning)(?:\s+(?:from|with|at))?\b|\bas\s+of\b"), " from "),
    (re.compile(r"\b(?:simple|us|u\.s\.)\s+delay\b"), " delay "),
    (re.compile(r"\bbronstein\s+delay\b"), " bronstein "),
    (re.compile(r"\b(?:sand\s*clock|hour\s*glass)\b"), " sandclock "),
]

_WORDS: dict[str, tuple[_Kind, int]] = {
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), (_Kind.UNIT, 3600)),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), (_Kind.UNIT, 60)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), (_Kind.UNIT, 1)),
    **dict.fromkeys(("move", "moves", "mv", "mvs"), (_Kind.MOVE, 0)),
    **dict.fromkeys(("g", "game", "games", "sd"), (_Kind.GAME, 0)),
    **dict.fromkeys(("per", "a", "each", "every"), (_Kind.PER, 0)),
    **dict.fromkeys(
        ("increment", "increments", "inc", "incr", "bonus", "fischer", "added"),
        (_Kind.INCREMENT, 0),
    ),
    **dict.fromkeys(("delay", "d"), (_Kind.DELAY, 0)),
    **dict.fromkeys(("bronstein", "b"), (_Kind.BRONSTEIN, 0)),
    "sandclock": (_Kind.SANDCLOCK, 0),
    "from": (_Kind.FROM, 0),
    "first": (_Kind.FIRST, 0),
    **dict.fromkeys(("then", "and", "with", "plus"), (_Kind.SEPARATOR, 0)),
}

# Words that only make the sentence read well.
_FILLER = frozenset(
    {
        "for",
        "in",
        "of",
        "on",
        "the",
        "an",
        "rest",
        "remaining",
        "all",
        "to",
        "end",
        "finish",
        "until",
        "player",
        "players",
        "side",
        "time",
        "control",
        "additional",
        "extra",
        "more",
    }
)

_SYMBOLS: dict[str, tuple[_Kind, int]] = {
    "/": (_Kind.SLASH, 0),
    "+": (_Kind.SEPARATOR, 0),
    ",": (_Kind.SEPARATOR, 0),
    ";": (_Kind.SEPARATOR, 0),
    ":": (_Kind.SEPARATOR, 0),
    **dict.fromkeys(("'", "\u2019", "\u2032"), (_Kind.UNIT, 60)),
    **dict.fromkeys(("''", "\u2019\u2019", '"', "\u2033"), (_Kind.UNIT, 1)),
}

_TOKEN = re.compile(
    r"(?P<number>[0-9]+(?:\.[0-9]+)?)"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<symbol>''|\u2019\u2019|[/+,;:'\"\u2019\u2032\u2033])"
    r"|(?P<space>[\s.()]+)"
)
_SHORTHAND = re.compile(r"([0-9]+)\s*(?:\+\s*([0-9]+))?")
_UNKNOWN = frozenset(("?", "unknown"))
_UNTIMED = frozenset(("-", "none", "untimed", "unlimited", "no time control", "no clock"))


def _tokens(text: str) -> list[_Token]:
    lowered = text.lower()
    for pattern, replacement in _PHRASES:
        lowered = pattern.sub(replacement, lowered)
    tokens: list[_Token] = []
    position = 0
    while position < len(lowered):
        match = _TOKEN.match(lowered, position)
        if match is None:
            raise TimeControlError(
                f"cannot read {text!r}: unexpected {lowered[position]!r}; {_HUMAN_FORMS}"
            )
        position = match.end()
        piece = match[0]
        if match["number"] is not None:
            try:
                number = Fraction(piece)
            except ValueError:  # beyond Python's limit on digits
                raise TimeControlError(f"cannot read {text!r}: a number is too long") from None
            tokens.append(_Token(_Kind.NUMBER, piece, number))
        elif match["word"] is not None:
            if piece in _FILLER:
                continue
            if piece not in _WORDS:
                raise TimeControlError(
                    f"cannot read {text!r}: unknown word {piece!r}; {_HUMAN_FORMS}"
                )
            kind, value = _WORDS[piece]
            tokens.append(_Token(kind, piece, Fraction(value)))
        elif match["symbol"] is not None:
            kind, value = _SYMBOLS[piece]
            tokens.append(_Token(kind, piece, Fraction(value)))
    return tokens


def _parts(tokens: list[_Token]) -> list[list[_Token]]:
    """The tokens between separators. A bonus word followed by its number ("d5", "inc 30")
    also starts a part, so "G/90 d5" reads like "G/90; d5"."""
    parts: list[list[_Token]] = [[]]
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.kind is _Kind.SEPARATOR:
            parts.append([])
            continue
        if (
            token.kind in _BONUS_KINDS
            and following is not None
            and following.kind is _Kind.NUMBER
            and any(seen.kind is _Kind.NUMBER for seen in parts[-1])
        ):
            parts.append([])
        parts[-1].append(token)
    return [part for part in parts if part]


@dataclass(slots=True)
class _Part:
    """What one part of the text says."""

    text: str
    seconds: Fraction | None = None
    units: set[int] = field(default_factory=set)
    moves: int | None = None
    game: bool = False
    per_move: bool = False
    bonus_words: set[_Kind] = field(default_factory=set)
    sandclock: bool = False
    from_move: int | None = None
    #: A number alone, without a unit.
    bare: bool = False

    def fail(self, why: str) -> TimeControlError:
        return TimeControlError(f"cannot read {self.text!r}: {why}; {_HUMAN_FORMS}")

    def set_seconds(self, seconds: Fraction, unit: int) -> None:
        if self.seconds is not None:
            raise self.fail("two times in one part")
        self.seconds = seconds
        self.units.add(unit)

    def set_moves(self, number: Fraction) -> None:
        if self.moves is not None:
            raise self.fail("two move counts in one part")
        if number.denominator != 1:
            raise self.fail(f"{number} moves")
        self.moves = int(number)

    @property
    def is_bonus(self) -> bool:
        return self.per_move or bool(self.bonus_words)

    @property
    def bonus(self) -> Bonus:
        if _Kind.BRONSTEIN in self.bonus_words:
            return Bonus.BRONSTEIN
        if _Kind.DELAY in self.bonus_words:
            return Bonus.DELAY
        return Bonus.FISCHER

    @property
    def whole_seconds(self) -> int:
        assert self.seconds is not None
        if self.seconds.denominator != 1:
            raise self.fail(f"{float(self.seconds):g} s is not a whole number of seconds")
        return int(self.seconds)


def _kind_at(tokens: list[_Token], index: int) -> _Kind | None:
    return tokens[index].kind if index < len(tokens) else None


def _read_part(tokens: list[_Token]) -> _Part:
    part = _Part(" ".join(token.text for token in tokens))
    index = 0
    while index < len(tokens):
        token = tokens[index]
        after = _kind_at(tokens, index + 1)
        kind = token.kind
        if kind is _Kind.FROM:
            following = (after, _kind_at(tokens, index + 2))
            if following == (_Kind.MOVE, _Kind.NUMBER):
                number = tokens[index + 2].value
                if number.denominator != 1 or number < 1:
                    raise part.fail(f"from move {number}")
                part.from_move = int(number)
            elif following == (_Kind.FIRST, _Kind.MOVE):
                part.from_move = 1
            else:
                raise part.fail("say 'from move N'")
            index += 3
        elif kind is _Kind.NUMBER and after is _Kind.UNIT:
            index = _read_duration(tokens, index, part)
        elif kind is _Kind.NUMBER and after is _Kind.MOVE:
            part.set_moves(token.value)
            index += 2
        elif (
            kind is _Kind.NUMBER
            and after is _Kind.SLASH
            and (_kind_at(tokens, index + 2), _kind_at(tokens, index + 3))
            == (_Kind.NUMBER, _Kind.UNIT)
        ):
            part.set_moves(token.value)  # "40/90 min": moves, then their time
            index += 2
        elif kind is _Kind.NUMBER and len(tokens) == 1:
            part.set_seconds(token.value, 1)  # "45 min + 0": seconds, if anything
            part.bare = True
            index += 1
        elif kind is _Kind.NUMBER:
            raise part.fail(f"the number {token.text} has no unit")
        elif kind is _Kind.SLASH and after in (_Kind.MOVE, _Kind.GAME):
            part.per_move = part.per_move or after is _Kind.MOVE
            part.game = part.game or after is _Kind.GAME
            index += 2
        elif kind is _Kind.SLASH and after is _Kind.NUMBER:
            if _kind_at(tokens, index + 2) in (_Kind.UNIT, _Kind.MOVE):
                index += 1  # "90 min/40 moves": the slash only joins them
            elif part.seconds is not None:
                part.set_moves(tokens[index + 1].value)  # "90 min/40"
                index += 2
            else:
                raise part.fail("a number after '/' with no time before it")
        elif kind is _Kind.GAME:
            part.game = True
            if after is _Kind.SLASH and _kind_at(tokens, index + 2) is _Kind.NUMBER:
                if _kind_at(tokens, index + 3) is _Kind.UNIT:
                    index += 2  # "G/90 min": the duration follows
                else:
                    part.set_seconds(tokens[index + 2].value * 60, 60)  # "G/90": minutes
                    index += 3
            else:
                index += 1
        elif kind is _Kind.PER:
            if after is _Kind.MOVE:
                part.per_move = True
                index += 2
            elif after is _Kind.GAME:
                part.game = True
                index += 2
            else:
                index += 1  # "with a 30 s increment"
        elif kind in _BONUS_KINDS:
            part.bonus_words.add(kind)
            if after is _Kind.NUMBER and _kind_at(tokens, index + 2) is not _Kind.UNIT:
                part.set_seconds(tokens[index + 1].value, 1)  # "d5": seconds
                index += 2
            else:
                index += 1
        elif kind is _Kind.SANDCLOCK:
            part.sandclock = True
            index += 1
        elif kind is _Kind.FIRST:
            index += 1  # "for the first 40 moves"
        else:
            raise part.fail(f"unexpected {token.text!r}")
    return part


def _read_duration(tokens: list[_Token], index: int, part: _Part) -> int:
    """Read "1 h 30 min", "1h30" or "90 s" from ``index``; return the index after it."""
    total = Fraction(0)
    units: list[int] = []
    while _kind_at(tokens, index) is _Kind.NUMBER and _kind_at(tokens, index + 1) is _Kind.UNIT:
        unit = int(tokens[index + 1].value)
        if units and unit >= units[-1]:
            raise part.fail("units of a time must go from hours to seconds")
        total += tokens[index].value * unit
        units.append(unit)
        index += 2
    if (
        units[-1] == 3600
        and _kind_at(tokens, index) is _Kind.NUMBER
        and _kind_at(tokens, index + 1) not in (_Kind.UNIT, _Kind.MOVE, _Kind.SLASH)
    ):
        total += tokens[index].value * 60  # "1h30": minutes
        units.append(60)
        index += 1
    part.set_seconds(total, units[-1])
    part.units.update(units)
    return index


@dataclass(slots=True)
class _HumanBonus:
    after: int  # how many periods precede it
    seconds: int
    kind: Bonus
    from_move: int | None
    text: str


def parse_human(text: str) -> TimeControl:
    """A time control as organisers write it ("90 min/40 moves + 30 min + 30 s/move").

    Case, spaces and punctuation are free. Periods are "90 min/40 moves", "40 moves in 90
    min", "15 min/game", "G/90"; bonuses "30 s/move", "10 s increment", "5 s delay", "d5",
    "3 s Bronstein", with "from move N" where they start later. A single bonus written after
    the last period counts from move 1 in every period, as FIDE writes it; bonuses written
    after single periods belong to those. A bare number of seconds after a period for the
    rest of the game is its increment ("25 min + 10 s"). "3+2" and "90" are minutes (and
    seconds), the players' shorthand. Anything else raises :class:`TimeControlError`.
    """
    plain = " ".join(text.lower().split()).rstrip(".")
    if plain in _UNKNOWN:
        return TimeControl(known=False)
    if plain in _UNTIMED:
        return TimeControl()
    shorthand = _SHORTHAND.fullmatch(plain)
    if shorthand is not None:
        minutes = read_number(shorthand[1], f"cannot read {text!r}")
        extra = read_number(shorthand[2] or "0", f"cannot read {text!r}")
        return TimeControl((Period(minutes * 60, bonus_seconds=extra),))
    parts = [_read_part(tokens) for tokens in _parts(_tokens(text))]
    if not parts:
        raise TimeControlError(f"cannot read {text!r}: it is empty; {_HUMAN_FORMS}")
    return _assemble(text, parts)


def _assemble(text: str, parts: list[_Part]) -> TimeControl:
    if any(part.sandclock for part in parts):
        part = parts[0]
        if (
            len(parts) != 1
            or part.seconds is None
            or part.moves is not None
            or part.is_bonus
            or part.from_move is not None
        ):
            raise part.fail("a sandclock is one time for the whole game, nothing else")
        return TimeControl((Period(part.whole_seconds),), sandclock=True)
    periods: list[Period] = []
    bonuses: list[_HumanBonus] = []
    for part in parts:
        if part.seconds is None:
            if part.from_move is None or part.is_bonus or part.moves is not None or part.game:
                raise part.fail("no time in it")
            if (
                not bonuses
                or bonuses[-1].after != len(periods)
                or bonuses[-1].from_move is not None
            ):
                raise part.fail("'from move N' follows the bonus it belongs to")
            bonuses[-1].from_move = part.from_move
        elif part.is_bonus or (
            # "25 min + 10 s", "45 min + 0": after a period for the rest of the game no
            # other period can follow, so plain seconds are its increment.
            part.units == {1}
            and part.moves is None
            and not part.game
            and periods
            and periods[-1].moves is None
        ):
            if part.moves is not None or part.game:
                raise part.fail("a bonus is per move, not per period")
            if not periods:
                raise part.fail("a bonus before any time")
            bonuses.append(
                _HumanBonus(len(periods), part.whole_seconds, part.bonus, part.from_move, part.text)
            )
        elif part.bare or part.sandclock:
            raise part.fail(f"the number {part.text} has no unit")
        else:
            if part.from_move is not None:
                raise part.fail("'from move N' belongs to a bonus")
            seconds = part.whole_seconds
            try:
                periods.append(Period(seconds, part.moves))
            except TimeControlError as error:
                raise part.fail(str(error)) from error
    if not periods:
        raise TimeControlError(f"cannot read {text!r}: no period; {_HUMAN_FORMS}")
    given: list[tuple[int, Bonus] | None] = [None] * len(periods)  # each period's bonus
    if len(bonuses) == 1 and bonuses[0].after == len(periods):
        bonus = bonuses[0]
        start = 1 if bonus.from_move is None else bonus.from_move
        firsts = [first_move(periods, index) for index in range(len(periods))]
        if start not in firsts:
            raise TimeControlError(
                f"cannot read {text!r}: no period starts at move {start} "
                f"(they start at moves {', '.join(map(str, firsts))})"
            )
        for index in range(firsts.index(start), len(periods)):
            given[index] = (bonus.seconds, bonus.kind)
    else:
        for bonus in bonuses:
            index = bonus.after - 1
            if given[index] is not None:
                raise TimeControlError(f"cannot read {text!r}: two bonuses for one period")
            if bonus.from_move not in (None, first_move(periods, index)):
                raise TimeControlError(
                    f"cannot read {text!r}: {bonus.text!r} follows a period that does not "
                    f"start at move {bonus.from_move}"
                )
            given[index] = (bonus.seconds, bonus.kind)
    try:
        return TimeControl(
            tuple(
                period if extra is None else Period(period.seconds, period.moves, *extra)
                for period, extra in zip(periods, given, strict=True)
            )
        )
    except TimeControlError as error:
        raise TimeControlError(f"cannot read {text!r}: {error}") from error


def _bonus_of(period: Period) -> tuple[int, Bonus]:
    return period.bonus_seconds, period.bonus


def format_human(control: TimeControl) -> str:
    """``control`` in plain English; :func:`parse_human` reads it back equal.

    "90 min/40 moves + 30 min, 30 s/move from move 1", "15 min + 10 s/move", "90 min + 5 s
    delay", "5 min + 3 s Bronstein"; bonuses that differ between periods follow each one:
    "90 min/40 moves + 10 s/move, then 30 min + 30 s/move".
    """
    if not control.known:
        return "unknown"
    if not control.periods:
        return "no time control"
    periods = control.periods
    if control.sandclock:
        return f"sandclock {_duration(periods[0].seconds)}"
    start = _uniform_bonus_from(periods)
    if start is None:
        return ", then ".join(
            _period_text(period) + (f" + {_bonus_text(period)}" if has_bonus(period) else "")
            for period in periods
        )
    text = " + ".join(_period_text(period) for period in periods)
    if start == len(periods):
        return text
    if len(periods) == 1:
        return f"{text} + {_bonus_text(periods[0])}"
    return f"{text}, {_bonus_text(periods[start])} from move {first_move(periods, start)}"


def _uniform_bonus_from(periods: tuple[Period, ...]) -> int | None:
    """The first period with a bonus when all later ones have the same (the number of
    periods when none has one); None when the bonuses differ otherwise."""
    with_bonus = [index for index, period in enumerate(periods) if has_bonus(period)]
    if not with_bonus:
        return len(periods)
    start = with_bonus[0]
    if all(_bonus_of(period) == _bonus_of(periods[start]) for period in periods[start:]):
        return start
    return None


def _duration(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if rest == 0:
        return f"{minutes} min"
    if minutes == 0:
        return f"{rest} s"
    return f"{minutes} min {rest} s"


def _period_text(period: Period) -> str:
    if period.moves is None:
        return _duration(period.seconds)
    return f"{_duration(period.seconds)}/{period.moves} move{'' if period.moves == 1 else 's'}"


def _bonus_text(period: Period) -> str:
    if period.bonus is Bonus.DELAY:
        return f"{period.bonus_seconds} s delay"
    if period.bonus is Bonus.BRONSTEIN:
        return f"{period.bonus_seconds} s Bronstein"
    return f"{period.bonus_seconds} s/move"


# Either

_PGN_SHORTHAND = re.compile(r"([0-9]+)\s*\+\s*([0-9]+)")


def parse_time_control(text: str) -> TimeControl:
    """A ``TimeControl`` tag or event-file value, in PGN syntax or as people write it.

    PGN is tried first, except for the ambiguous shorthand: a bare ``N+I`` whose N is below
    180 is minutes + seconds, so "10+0" is 10 minutes and "3+2" is 3 minutes + 2 s. A PGN
    base below 3 minutes is rare, while that shorthand is how players write their time
    controls; from 180 on it is PGN seconds ("300+2"). A bare ``N`` stays PGN seconds
    ("180", and "60" is 1 minute), as programs that write PGN mean it. What is
    not PGN is read by :func:`parse_human`.
    """
    stripped = text.strip()
    shorthand = _PGN_SHORTHAND.fullmatch(stripped)
    if shorthand is not None:
        if read_number(shorthand[1], f"cannot read {text!r}") < 180:
            return parse_human(stripped)
        stripped = f"{shorthand[1]}+{shorthand[2]}"
    try:
        return parse_pgn(stripped)
    except TimeControlError as pgn_error:
        try:
            return parse_human(stripped)
        except TimeControlError as human_error:
            raise TimeControlError(f"{human_error} (as PGN: {pgn_error})") from human_error
