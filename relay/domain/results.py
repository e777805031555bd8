"""A game's result: the words PGN writes and the relay stores, and what each is worth."""

from __future__ import annotations

from enum import StrEnum

import chess

from relay.domain.vocabulary import parse_word


class Result(StrEnum):
    """A game's result as PGN writes it (the ``Result`` tag, the end of the movetext) and the
    relay stores and sends it; ``*`` while the game is open.

    A forfeit is not a result of its own: it is a win with the ``forfeit`` flag of the
    arbiter's result (``ResultSet``; TRF ``+`` and ``-``), and the game was not played.
    """

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    #: The game is still being played (or was reopened).
    ONGOING = "*"

    @classmethod
    def parse(cls, text: object) -> Result:
        """The result written ``text``; :class:`~relay.domain.vocabulary.UnknownWordError`
        for anything else."""
        return parse_word(cls, text, "result")

    @classmethod
    def win_for(cls, colour: chess.Color) -> Result:
        return cls.WHITE_WINS if colour == chess.WHITE else cls.BLACK_WINS

    @property
    def is_decided(self) -> bool:
        return self is not Result.ONGOING

    @property
    def winner(self) -> chess.Color | None:
        """The colour that won; None for a draw or a game still open."""
        return _WINNERS.get(self)

    @property
    def white_points(self) -> float | None:
        """White's points: 1, 0.5 or 0; None while the game is open."""
        return _WHITE_POINTS.get(self)

    @property
    def black_points(self) -> float | None:
        """Black's points: 1, 0.5 or 0; None while the game is open."""
        white = self.white_points
        return None if white is None else 1.0 - white


_WINNERS = {Result.WHITE_WINS: chess.WHITE, Result.BLACK_WINS: chess.BLACK}
_WHITE_POINTS = {Result.WHITE_WINS: 1.0, Result.BLACK_WINS: 0.0, Result.DRAW: 0.5}
