"""What an output is given: a round as the public sees it at one moment, already rendered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar

from relay.domain.errors import UnavailableError


@dataclass(frozen=True, slots=True)
class GameCopy:
    """One game of the round: its board and its PGN (one game, tags and moves)."""

    board: int
    game_id: int
    pgn: str


@dataclass(frozen=True, slots=True)
class RoundCopy:
    """A published round as the public sees it at ``cut`` (Unix seconds; None: live, no
    transmission delay)."""

    tournament_id: int
    tournament: str
    round_id: int
    #: The round's number in its tournament (1, 2, ...).
    number: int
    cut: float | None
    #: The round's PGN, every game in board order, as ``GET /api/rounds/ID/games.pgn``.
    pgn: str
    #: Each game, in board order.
    games: tuple[GameCopy, ...]


class OutputError(UnavailableError):
    """An output could not take a copy now; the message says why in words (the runner
    tries again later, and the console shows it)."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        #: Seconds the platform asked us to wait before the next try, when it said.
        self.retry_after = retry_after


class Output(Protocol):
    """A place rounds are pushed to. :meth:`deliver` runs on the event loop and must not
    block it (blocking I/O goes to a thread)."""

    #: The kind, as the event file names it: ``lichess``, ``folder``, ``ftp``.
    kind: str
    #: Where it goes, for the console: ``lichess round AbCd1234``, ``/srv/www/live``.
    target: str

    def wants(self, copy: RoundCopy) -> bool:
        """Whether this output takes this round at all (lichess: only rounds it maps)."""
        ...

    async def deliver(self, copy: RoundCopy) -> str:
        """Send ``copy``; the answer is one short line for the console (``pushed 6
        games``). Raises :class:`OutputError` when it could not."""
        ...


T = TypeVar("T")
#: The outputs' blocking work (files, FTP, HTTP) runs on threads of its own: a slow or
#: unreachable platform holds none of the threads that read the store.
_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="relay-output")


async def in_output_thread(work: Callable[[], T]) -> T:
    """``work()`` on one of the outputs' threads."""
    return await asyncio.get_running_loop().run_in_executor(_THREADS, work)
