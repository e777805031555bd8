"""One tree for the relay's errors: every exception the relay defines is a :class:`RelayError`.

Below the root sit the few kinds the API tells apart (``relay.api.refusals`` turns each into
an HTTP status; the kinds themselves know nothing of HTTP):

* :class:`MissingError`: what was asked for does not exist (404);
* :class:`RefusedError`: an action that does not fit things as they stand, or contradicts
  what is stored (409);
* :class:`InvalidInputError`: input that cannot be read or used as given (422);
* :class:`UnavailableError`: something the relay needs cannot be reached now (503).

An error of none of these kinds derives from :class:`RelayError` directly (``Kind.OTHER``): a
failure of the relay or its surroundings (a command that fails, a backup that cannot be made),
or an HTTP answer already made (``relay.api.refusals.HTTPInputError``). The API has no status
of its own for it and lets it through.

A class may also keep a built-in base (``ValueError``, ``LookupError``, ``OSError``) so the
``except`` clauses written for it keep working: the built-in base comes first, the kind
second, as in ``class ConflictError(ValueError, RefusedError)``.

Readers of whole files (TRF, PGN, event files) do not stop at the first error: a
:class:`Collector` gathers each one and the reader raises them together, as one error of its
own class whose :attr:`InvalidInputError.problems` lists every one with where it is.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, Generic, ParamSpec, Self, TypeVar


class Kind(enum.Enum):
    """What an error says about the request that met it."""

    #: None of the four: a failure of the relay or its surroundings, or an answer already made.
    OTHER = "other"
    NOT_FOUND = "not found"
    REFUSED = "refused"
    INVALID = "invalid input"
    UNAVAILABLE = "unavailable"


class RelayError(Exception):
    """The root of the relay's errors."""

    kind: ClassVar[Kind] = Kind.OTHER


class MissingError(RelayError):
    """What was asked for does not exist."""

    kind = Kind.NOT_FOUND


class RefusedError(RelayError):
    """An action that does not fit the game, round or tournament as it stands."""

    kind = Kind.REFUSED


class UnavailableError(RelayError):
    """Something the relay needs (a board, the database, Redis) cannot be reached now."""

    kind = Kind.UNAVAILABLE


@dataclass(frozen=True, slots=True)
class Problem:
    """One error found in an input: its words (which already say where, as the reader puts
    it), and where it is for a program to use: a 1-based ``line``, a ``field`` (such as
    ``player 3`` or ``game 2``), or both."""

    message: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        return self.message


def listing(problems: Sequence[Problem]) -> str:
    """One message for several problems: ``3 errors: first; second; third``."""
    if len(problems) == 1:
        return problems[0].message
    return f"{len(problems)} errors: " + "; ".join(p.message for p in problems)


class InvalidInputError(RelayError):
    """Input that cannot be read or used as given.

    :attr:`problems` lists every error found in it: the error itself, unless a reader that
    collects raised several together (:meth:`collected`). A subclass that knows where its
    error is says so by overriding :meth:`problem`.
    """

    kind = Kind.INVALID
    _collected: tuple[Problem, ...] = ()

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self._collected or (self.problem(),)

    def problem(self) -> Problem:
        """This error as one :class:`Problem`."""
        return Problem(str(self))

    @classmethod
    def collected(cls, errors: Sequence[InvalidInputError]) -> Self:
        """One error of this class for all of ``errors``: the error itself if there is only
        one, else a new one whose message lists them (:func:`listing`).

        The new one is made as ``cls(message)``: a subclass must accept its message alone.
        """
        if not errors:
            raise ValueError("no errors to collect")
        if len(errors) == 1 and isinstance(errors[0], cls):
            return errors[0]
        problems = tuple(problem for error in errors for problem in error.problems)
        error = cls(listing(problems))
        error._collected = problems
        return error


E = TypeVar("E", bound=InvalidInputError)
T = TypeVar("T")
P = ParamSpec("P")


class Collector(Generic[E]):
    """The errors of one input, gathered so that its reader goes on past each one.

    A reader reads every part of its input that it can read on its own (a line, a table, a
    game) through :meth:`attempt` or :meth:`catching`, notes what it finds wrong itself with
    :meth:`add`, and calls :meth:`check` at the end: it raises all the errors at once, as one
    ``kind`` error (:meth:`InvalidInputError.collected`).
    """

    def __init__(self, kind: type[E]) -> None:
        self.kind = kind
        self.errors: list[E] = []

    def __len__(self) -> int:
        return len(self.errors)

    def add(self, error: E) -> None:
        self.errors.append(error)

    def attempt(self, read: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T | None:
        """``read(*args, **kwargs)``, or None once its error is noted."""
        try:
            return read(*args, **kwargs)
        except self.kind as error:
            self.errors.append(error)
            return None

    @contextmanager
    def catching(self) -> Iterator[None]:
        """Note an error of the block and go on after it (what the block assigned before the
        error stays assigned)."""
        try:
            yield
        except self.kind as error:
            self.errors.append(error)

    def check(self, order: Callable[[E], int | None] | None = None) -> None:
        """Raise the errors gathered so far, if any, as one; ``order`` sorts them (by line,
        say; None keys go last), otherwise they stay in the order found."""
        if not self.errors:
            return
        errors = list(self.errors)
        if order is not None:
            key = order

            def place(error: E) -> tuple[bool, int]:
                at = key(error)
                return (at is None, 0 if at is None else at)

            errors.sort(key=place)
        raise self.kind.collected(errors)
