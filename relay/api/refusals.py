"""A desk's refusals as HTTP answers: 404 for what does not exist, 409 for an action that
does not fit the game or round as it stands, with the desk's own words."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import HTTPException

from relay.store.tournaments import NotFoundError


@contextmanager
def refusals(what: str, *conflicts: type[Exception]) -> Iterator[None]:
    """404 ``no {what}`` when something is missing; 409 for any of ``conflicts``."""
    try:
        yield
    except NotFoundError:
        raise HTTPException(404, f"no {what}") from None
    except conflicts as error:
        raise HTTPException(409, str(error)) from None
