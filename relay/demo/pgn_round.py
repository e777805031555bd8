"""A round whose board ``n`` plays the ``n``-th game of a PGN file, between that game's
own players: the fixture of the tests and benchmarks that compare what the hub recorded
with the games the simulated boards played (``relay demo`` itself pairs invented players,
see :mod:`relay.demo.run`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from importlib import resources
from pathlib import Path

import chess.pgn

from relay.domain.errors import InvalidInputError
from relay.domain.formats.event_file import (
    BoardSetup,
    EventSetup,
    PlayerSetup,
    RoundSetup,
    TournamentSetup,
)


def bundled_games() -> Path:
    """The PGN file of real games the demo plays."""
    return Path(str(resources.files("relay.demo").joinpath("games.pgn")))


class NoGamesError(ValueError, InvalidInputError):
    """The PGN file holds no game."""


@dataclass(frozen=True, slots=True)
class Pairing:
    white: str
    black: str
    white_elo: int | None
    black_elo: int | None

    @classmethod
    def of_headers(cls, headers: chess.pgn.Headers) -> Pairing:
        return cls(
            headers.get("White", "?"),
            headers.get("Black", "?"),
            _rating(headers.get("WhiteElo")),
            _rating(headers.get("BlackElo")),
        )


def _rating(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def load_pairings(games: Path, boards: int) -> list[Pairing]:
    """The players of the first ``boards`` games of ``games``, cycling through the file as
    boardsim does when it has more boards than games."""
    pairings: list[Pairing] = []
    with games.open(encoding="utf-8") as handle:
        while (headers := chess.pgn.read_headers(handle)) is not None:
            pairings.append(Pairing.of_headers(headers))
    if not pairings:
        raise NoGamesError(f"{games}: no games")
    return [pairings[i % len(pairings)] for i in range(boards)]


def event_setup(pairings: list[Pairing], ports: list[str]) -> EventSetup:
    """Round 1 of a tournament where board ``n`` plays the ``n``-th game on port ``n``.

    The same game may be played on several boards, so every board has its own two players.
    """
    players = []
    for board, pairing in enumerate(pairings, start=1):
        players.append(PlayerSetup(2 * board - 1, pairing.white, rating=pairing.white_elo))
        players.append(PlayerSetup(2 * board, pairing.black, rating=pairing.black_elo))
    return EventSetup(
        tournament=TournamentSetup(
            name=f"chess-relay replay {datetime.now().isoformat(timespec='seconds')}",
            site="boardsim",
            start_date=date.today(),
        ),
        players=tuple(players),
        boards=tuple(BoardSetup(number, port) for number, port in enumerate(ports, start=1)),
        rounds=(
            RoundSetup(
                number=1,
                pairings=tuple((2 * b - 1, 2 * b) for b in range(1, len(pairings) + 1)),
                published=True,
            ),
        ),
    )
