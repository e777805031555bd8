"""Answers for what the routes do not answer themselves: input the framework rejects, and
the hub's own faults.

Bad input of any kind is a 4xx with a JSON body that says what was wrong: a request that
does not match the route's schema (422, each problem with what was sent there, shortened
and never as raw bytes), a body that cannot be read (400: not UTF-8, JSON nested too deep),
a body over the size limit (413), a number too large to store (422).

A 5xx is kept for a real fault: the database cannot be reached (503) or a bug (500). Each
logs one line with a request id, and the answer carries the same id in ``request_id`` and
the ``X-Request-ID`` header, so an operator can find the line a user reports.
"""

from __future__ import annotations

import logging
import math
import re
import secrets
import traceback
from collections.abc import Mapping
from itertools import islice
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError, WebSocketRequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy import exc as db_errors
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from relay.domain.errors import Kind, RelayError

log = logging.getLogger("relay.api")

#: How much of a value sent is shown back in an answer.
SHOWN_CHARS = 120
SHOWN_ITEMS = 10
SHOWN_DEPTH = 3
#: A token's shape; wiped from whatever an answer or a log line would quote.
_TOKEN = re.compile(r"rly_[A-Za-z0-9_-]+")
#: The names PEP 249 gives, in every database driver, to "the database cannot be reached".
_UNREACHABLE = frozenset({"OperationalError", "InterfaceError"})


def install(app: FastAPI) -> None:
    """The app's handlers for rejected input and its middleware for faults (add it last:
    it must be the outermost of the app's own middleware)."""

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return await http_exception_handler(request, await _reworded(request, exc))

    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(WebSocketRequestValidationError, invalid_stream_request)
    app.add_exception_handler(OverflowError, out_of_range)
    app.add_exception_handler(db_errors.DataError, out_of_range)
    app.add_middleware(Faults)


async def _reworded(request: Request, exc: HTTPException) -> HTTPException:
    """The framework's answers for a body it cannot take, in words that say why."""
    if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
        cause = exc.__cause__
        if isinstance(cause, UnicodeDecodeError):
            return HTTPException(400, not_utf8(await request.body()))
        if isinstance(cause, RecursionError):
            return HTTPException(400, "the body's JSON is nested too deeply")
        if isinstance(cause, ValueError):
            return HTTPException(400, f"the body's JSON cannot be read: {shown(str(cause))}")
    return exc


def not_utf8(body: bytes) -> str:
    """Where a body stops being UTF-8, in words."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"the body is not UTF-8: byte 0x{body[error.start]:02x} at offset {error.start}"
    return "the body is not UTF-8"


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """422 for a request that does not match the route's schema: FastAPI's list of
    problems, with what was sent at each shortened (and bytes never quoted raw)."""
    assert isinstance(exc, RequestValidationError)
    listed = problems(exc.errors())
    for problem in listed:
        if problem["type"] == "string_unicode" and problem["loc"] == ["body"]:
            problem["msg"] = not_utf8(await request.body())
    return JSONResponse({"detail": listed}, status_code=422)


async def invalid_stream_request(websocket: WebSocket, exc: Exception) -> None:
    assert isinstance(exc, WebSocketRequestValidationError)
    first = problems(exc.errors())[:1]
    reason = "; ".join(f"{'.'.join(map(str, p['loc']))}: {p['msg']}" for p in first)
    await websocket.close(code=1008, reason=reason[:120])


async def out_of_range(request: Request, exc: Exception) -> JSONResponse:
    """A value the database cannot store (a number too large for its column, a character
    a text column refuses): the request's fault, 422."""
    return JSONResponse(
        {"detail": "a value in the request is out of the range the hub can store"},
        status_code=422,
    )


def problems(errors: Any) -> list[dict[str, Any]]:
    """Validation errors as an answer may show them."""
    listed: list[dict[str, Any]] = []
    for error in islice(errors, 50):
        problem: dict[str, Any] = {
            "type": str(error.get("type", "")),
            "loc": [part if isinstance(part, int) else str(part)[:60] for part in error["loc"]],
            "msg": str(error.get("msg", "")),
            "input": shown(error.get("input")),
        }
        context = error.get("ctx")
        if isinstance(context, Mapping):
            problem["ctx"] = {str(k): shown(v) for k, v in islice(context.items(), 10)}
        listed.append(problem)
    return listed


def shown(value: Any, depth: int = 0) -> Any:
    """``value`` as an answer may quote it: JSON, short, bytes escaped, no token."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= 64 else f"{str(value)[:20]}... (a large number)"
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes | bytearray):
        value = bytes(value[: SHOWN_CHARS * 4]).decode("utf-8", "backslashreplace")
    if isinstance(value, str):
        text = _TOKEN.sub("rly_...", value)
        return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "..."
    if depth < SHOWN_DEPTH and isinstance(value, Mapping):
        return {
            str(key)[:SHOWN_CHARS]: shown(item, depth + 1)
            for key, item in islice(value.items(), SHOWN_ITEMS)
        }
    if depth < SHOWN_DEPTH and isinstance(value, list | tuple):
        return [shown(item, depth + 1) for item in islice(value, SHOWN_ITEMS)]
    if isinstance(value, Mapping | list | tuple):
        return f"({type(value).__name__} of {len(value)})"
    return shown(str(value), depth)


def unreachable(exc: BaseException) -> bool:
    """The database (or something else the hub needs) cannot be reached: a 503."""
    if isinstance(exc, RelayError) and exc.kind is Kind.UNAVAILABLE:
        return True
    if isinstance(
        exc,
        db_errors.OperationalError
        | db_errors.InterfaceError
        | db_errors.DisconnectionError
        | db_errors.TimeoutError,
    ):
        return True
    return any(cls.__name__ in _UNREACHABLE for cls in type(exc).__mro__)


class Faults:
    """ASGI middleware: an exception no route answered becomes a 503 (the database cannot be
    reached) or a 500, with a request id, and one line in the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            await self._fault(scope, send, exc, started)

    async def _fault(self, scope: Scope, send: Send, exc: Exception, started: bool) -> None:
        request_id = secrets.token_hex(6)
        while isinstance(exc, ExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]  # a task group's one failure: name it, not the group
        status = 503 if unreachable(exc) else 500
        what = _TOKEN.sub("rly_...", str(exc).splitlines()[0] if str(exc) else "")[:200]
        log.error(
            "request %s: %s %s: %d, %s: %s",
            request_id,
            scope.get("method", "WEBSOCKET"),
            scope.get("path", "?"),
            status,
            type(exc).__name__,
            what,
        )
        if log.isEnabledFor(logging.DEBUG):
            trace = "".join(traceback.format_exception(exc))
            log.debug("request %s: %s", request_id, _TOKEN.sub("rly_...", trace))
        if started:
            return  # the answer is under way; the connection is cut short
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1011, "reason": request_id})
            return
        detail = (
            "the database cannot be reached now; try again shortly"
            if status == 503
            else "the hub failed on this request; the operator can look it up by its id"
        )
        headers = {"X-Request-ID": request_id}
        if status == 503:
            headers["Retry-After"] = "5"
        answer = JSONResponse(
            {"detail": detail, "request_id": request_id}, status_code=status, headers=headers
        )
        await answer(scope, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.disconnect"}
