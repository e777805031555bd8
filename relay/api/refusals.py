"""A desk's refusals as HTTP answers, by the kind of the relay error (``relay.domain.errors``):
404 for what does not exist, 409 for an action that does not fit the game or round as it
stands, 422 for input that cannot be read, 503 for what cannot be reached now; with the desk's
own words.

An answer for input that cannot be read keeps ``detail`` (the message, which lists every error
found) and adds ``errors``: each one's ``message``, ``line`` and ``field`` (null where the
reader does not know). The app answers with it through :func:`listed_errors`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse

from relay.domain.errors import InvalidInputError, Kind, RelayError

#: The status of each kind; an error of none (``Kind.OTHER``) goes on as it is (a 500 for a
#: failure).
STATUS: dict[Kind, int] = {
    Kind.NOT_FOUND: 404,
    Kind.REFUSED: 409,
    Kind.INVALID: 422,
    Kind.UNAVAILABLE: 503,
}


class HTTPInputError(HTTPException, RelayError):
    """An HTTP answer for input with errors: ``detail``, and ``errors`` listing them. A
    RelayError of no kind (``Kind.OTHER``), as every exception of the relay is one: an answer
    already made goes through :func:`refusals` as it is."""

    def __init__(self, status_code: int, detail: str, error: InvalidInputError) -> None:
        super().__init__(status_code, detail)
        self.errors = [
            {"message": p.message, "line": p.line, "field": p.field} for p in error.problems
        ]


def unreadable(error: InvalidInputError, what: str = "", status: int = 422) -> HTTPInputError:
    """The answer for input that cannot be read: ``{what}: {error}`` (the error alone without
    ``what``), with every error of it listed."""
    return HTTPInputError(status, f"{what}: {error}" if what else str(error), error)


async def listed_errors(request: Request, exc: Exception) -> JSONResponse:
    """The app's handler for :class:`HTTPInputError` (FastAPI's own would drop ``errors``)."""
    assert isinstance(exc, HTTPInputError)
    return JSONResponse(
        {"detail": exc.detail, "errors": exc.errors},
        status_code=exc.status_code,
        headers=exc.headers,
    )


@contextmanager
def refusals(what: str, *conflicts: type[Exception]) -> Iterator[None]:
    """The block's relay errors as answers by kind: 404 ``no {what}`` when something is
    missing, 409 for a refusal, 422 for input that cannot be read (listing its errors), 503
    for what cannot be reached; an error of none of these kinds goes on as it is.

    ``conflicts`` are 409 whatever their kind. The tree makes listing a refusal unnecessary
    (it is 409 anyway); call sites that still list them keep working. Listing one matters
    for an error of another kind that this route answers as a conflict (a ``TrfError`` from
    writing the tournament report is 409 at the pairing routes, not 422), and for an
    exception outside the tree.
    """
    try:
        yield
    except RelayError as error:
        if error.kind is Kind.NOT_FOUND:
            raise HTTPException(404, f"no {what}") from None
        if isinstance(error, conflicts):
            raise HTTPException(409, str(error)) from None
        status = STATUS.get(error.kind)
        if status is None:
            raise
        if isinstance(error, InvalidInputError):
            raise unreadable(error, status=status) from None
        raise HTTPException(status, str(error)) from None
    except conflicts as error:
        raise HTTPException(409, str(error)) from None
