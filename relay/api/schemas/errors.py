"""What an error answer holds (docs/api.md, 'Errors'): every 4xx and 5xx of the API is a
JSON object with ``detail``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from relay.api.schemas.common import Schema


class FileProblem(Schema):
    """One error found in a file (event file, TRF, PGN)."""

    message: str
    line: int | None
    field: str | None


class RequestProblem(Schema):
    """One way the request does not match the route's schema (FastAPI's list)."""

    type: str
    loc: list[str | int]
    msg: str
    input: Any = Field(default=None, description="what was sent there, shortened")
    ctx: dict[str, Any] | None = None


class FittingMove(Schema):
    """A legal move that fits an entry that is not legal (docs/game-input.md)."""

    san: str
    words: str = Field(description='the move in words: "the rook from a1 to d1"')


class ErrorAnswer(Schema):
    """An error: ``detail`` in words (or, for a request that does not match the route's
    schema, the list of problems); ``errors`` for a file with errors, each with its line;
    ``request_id`` for a fault of the hub's (5xx), also in the log and the ``X-Request-ID``
    header."""

    detail: str | list[RequestProblem]
    errors: list[FileProblem] | None = None
    fitting: list[FittingMove] | None = Field(
        default=None, description="for a move entered by hand that is not legal"
    )
    request_id: str | None = None
