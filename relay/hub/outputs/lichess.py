"""The lichess output: each mapped round's PGN pushed to a lichess broadcast round.

One push is one ``POST {url}/api/broadcast/round/{id}/push`` carrying the whole round as
lichess documents it (the ``broadcastPush`` operation of lichess' API, scope
``study:write``): the organiser's token as ``Authorization: Bearer``, the body the round's
PGN in UTF-8 as ``text/plain``, every game in board order. Lichess matches each game to its
chapter by the ``GameId`` tag (or by event, round, board and players), so pushing the whole
round each time is what it expects, not a diff.

What is pushed is the round as the public sees it: the copy the runner hands over is
already cut at the transmission delay. Lichess applies its own round delay on top of ours,
so the lichess round's delay should be left at 0.

Lichess answers 200 with one entry per game it read, in the order sent
(``{"games": [{"tags": {...}, "moves": 12}, {"tags": {...}, "error": "..."}]}``). A game
it refused does not fail the push: the same PGN sent again would be refused again, so the
status line names the refused boards and the runner waits for the next change. Only when
lichess took none of the games (a round fed from a source URL on lichess, say) is the push
a failure. Every other answer is an :class:`OutputError` in words: the token refused
(401), the scope or the right missing (403), no such round (404), too many requests (429,
with the wait lichess asks for), lichess failing (5xx), a redirect (never followed).

HTTP goes through the standard library: ``urllib.request`` in a worker thread, so the event
loop never blocks, with a timeout on each socket operation (a cancelled push's thread ends
at the latest when it runs out). Redirects are not followed, so the token never goes to
another address, and the token appears in no message.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from email.utils import parsedate_to_datetime
from time import time
from typing import Any

from relay.domain.errors import InvalidInputError
from relay.domain.formats.output_setup import LichessSetup
from relay.hub.outputs.round_copy import OutputError, RoundCopy, in_output_thread

#: Seconds to wait for lichess' answer (each socket operation: connecting, sending, reading).
TIMEOUT = 30.0
#: Seconds to wait after a 429 that names no wait: lichess' API documentation says that
#: waiting one minute is enough in most cases.
RATE_LIMIT_WAIT = 60.0
#: Lichess reads at most this many games of one push (its spec says "up to 100 games") and a
#: broadcast round shows at most this many chapters.
MAX_GAMES = 100
#: A broadcast round id: eight letters and digits (the spec's ``broadcastRoundId``).
ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")
#: A lichess token (its API documentation: tokens match ``^[A-Za-z0-9_]+$``).
TOKEN = re.compile(r"[A-Za-z0-9_]+")
#: Answers are short JSON; more than this is not read.
MAX_ANSWER = 4 * 1024 * 1024
#: How much of lichess' own words a message quotes.
QUOTE = 200
USER_AGENT = "chess-relay (lichess broadcast push)"


class LichessSetupError(ValueError, InvalidInputError):
    """A lichess output the hub cannot run as set up: no token in the named environment
    variable, an address that is not http(s), a round id that is not lichess'."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What lichess answered, whatever the status."""

    status: int
    reason: str
    headers: Mapping[str, str]
    body: bytes


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are answers, not detours: following one would send the token elsewhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class LichessPush:
    """Pushes each mapped round to its lichess broadcast round (an
    :class:`~relay.hub.outputs.round_copy.Output`)."""

    kind = "lichess"

    def __init__(
        self, setup: LichessSetup, environ: Mapping[str, str], *, timeout: float = TIMEOUT
    ) -> None:
        token = environ.get(setup.token_env, "").strip()
        if not token:
            state = "is empty" if setup.token_env in environ else "is not set"
            raise LichessSetupError(
                f"the lichess output needs the organiser's lichess token (scope study:write) "
                f"in the environment variable {setup.token_env}, which {state}"
            )
        if not TOKEN.fullmatch(token):
            # Never quoted: http.client would put it in its error, and so in the log.
            raise LichessSetupError(
                f"the token in the environment variable {setup.token_env} is not a lichess "
                "token (letters, digits and _ only)"
            )
        parts = urllib.parse.urlsplit(setup.url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise LichessSetupError(
                f"the lichess output's url {setup.url!r} is not an http(s) address "
                "such as https://lichess.org"
            )
        if not setup.rounds:
            raise LichessSetupError("the lichess output maps no rounds")
        rounds: dict[int, str] = {}
        for number, round_id in setup.rounds:
            if not ROUND_ID.fullmatch(round_id):
                raise LichessSetupError(
                    f"round {number}: {round_id!r} is not a lichess broadcast round id "
                    "(eight letters and digits, the last part of the round's address)"
                )
            if number in rounds:
                raise LichessSetupError(f"round {number} is mapped twice")
            twin = next((n for n, other in rounds.items() if other == round_id), None)
            if twin is not None:
                raise LichessSetupError(
                    f"rounds {twin} and {number} both push to lichess round {round_id}"
                )
            rounds[number] = round_id
        self._token = token
        self._token_env = setup.token_env
        self._url = setup.url.rstrip("/")
        self._host = parts.netloc.rpartition("@")[2]
        self._rounds = rounds
        self._timeout = timeout
        self._opener = urllib.request.build_opener(_NoRedirect)
        ids = ", ".join(rounds.values())
        where = "" if self._url == "https://lichess.org" else f" at {self._url}"
        self.target = f"lichess round{'s' if len(rounds) > 1 else ''} {ids}{where}"

    def __repr__(self) -> str:
        return f"LichessPush({self.target!r})"

    def wants(self, copy: RoundCopy) -> bool:
        return copy.number in self._rounds

    def round_id(self, number: int) -> str | None:
        """The lichess round our round ``number`` is pushed to, if it is mapped."""
        return self._rounds.get(number)

    async def deliver(self, copy: RoundCopy) -> str:
        round_id = self._rounds.get(copy.number)
        if round_id is None:
            raise OutputError(f"round {copy.number} is not mapped to a lichess round")
        if not copy.games:
            return f"round {copy.number} has no games yet: nothing pushed"
        body = copy.pgn.encode("utf-8")
        answer = await in_output_thread(lambda: self._post(round_id, body))
        try:
            return read_answer(answer, copy, round_id, self._token_env)
        except OutputError as failure:
            raise self._clean(failure) from None

    def _post(self, round_id: str, body: bytes) -> Answer:
        """One POST, in a worker thread: lichess' answer whatever its status, or
        :class:`OutputError` when there is none."""
        request = urllib.request.Request(
            f"{self._url}/api/broadcast/round/{round_id}/push",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Bearer {self._token}",
                "Content-Type": "text/plain; charset=utf-8",
                "Accept": "application/json",
                "User-Agent": USER_AGENT,
            },
        )
        try:
            with self._opener.open(request, timeout=self._timeout) as response:
                return Answer(
                    response.status,
                    response.reason,
                    _headers(response.headers),
                    response.read(MAX_ANSWER),
                )
        except urllib.error.HTTPError as error:
            try:
                return Answer(error.code, error.reason, _headers(error.headers), _body(error))
            finally:
                error.close()
        except (OSError, http.client.HTTPException) as error:
            raise self._clean(OutputError(self._unreachable(error))) from None

    def _unreachable(self, error: BaseException) -> str:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        if isinstance(reason, TimeoutError):
            return f"lichess ({self._host}) did not answer within {self._timeout:g} s"
        if isinstance(reason, ConnectionRefusedError):
            return f"cannot reach lichess ({self._host}): connection refused"
        if isinstance(reason, socket.gaierror):
            return f"cannot reach lichess: unknown host {self._host}"
        if isinstance(reason, ssl.SSLError):
            return f"cannot reach lichess ({self._host}) securely: {_line(str(reason))}"
        if isinstance(reason, http.client.HTTPException | ConnectionError):
            what = type(reason).__name__
            return f"lichess ({self._host}) broke off the push: {_line(str(reason)) or what}"
        return f"cannot reach lichess ({self._host}): {_line(str(reason))}"

    def _clean(self, failure: OutputError) -> OutputError:
        """The failure with the token blanked out of its words, should they ever hold it."""
        text = str(failure)
        if self._token not in text:
            return failure
        return OutputError(text.replace(self._token, "(token)"), retry_after=failure.retry_after)


def read_answer(answer: Answer, copy: RoundCopy, round_id: str, token_env: str) -> str:
    """Lichess' answer in words: the status line of a push it took, or
    :class:`OutputError` saying why it did not."""
    status = answer.status
    said = _lichess_error(answer.body)
    quoted = f": {said}" if said else ""
    if 200 <= status < 300:
        return _took(answer.body, copy, round_id)
    if status == 401:
        raise OutputError(
            f"lichess refused the token in {token_env} (401{quoted}): "
            "it is wrong, expired or revoked"
        )
    if status == 403:
        raise OutputError(
            f"lichess refused the push to round {round_id} (403{quoted}): the token in "
            f"{token_env} needs the study:write scope and its account must be a contributor "
            "to the broadcast"
        )
    if status == 404:
        raise OutputError(
            f"lichess has no broadcast round {round_id} (404): check the rounds of the "
            "event file's lichess output"
        )
    if status == 429:
        wait = retry_after(answer.headers.get("retry-after"))
        raise OutputError(
            f"lichess asks us to slow down (429): wait {wait:g} s before the next push",
            retry_after=wait,
        )
    if 300 <= status < 400:
        location = answer.headers.get("location", "elsewhere")
        raise OutputError(
            f"lichess sent the push to {_line(location)} ({status}): set the lichess "
            "output's url in the event file to the address lichess uses"
        )
    if status == 400:
        raise OutputError(f"lichess refused the PGN of round {copy.number} (400{quoted})")
    if status >= 500:
        raise OutputError(f"lichess failed to take the push ({status} {answer.reason}{quoted})")
    raise OutputError(f"lichess refused the push ({status} {answer.reason}{quoted})")


def retry_after(value: str | None, now: float | None = None) -> float:
    """The wait a ``Retry-After`` header asks for (seconds or an HTTP date), at least one
    second; lichess' documented minute when there is none or it cannot be read."""
    if value is None or not value.strip():
        return RATE_LIMIT_WAIT
    text = value.strip()
    if text.isdigit():
        return max(1.0, float(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return RATE_LIMIT_WAIT
    if when.tzinfo is None:
        return RATE_LIMIT_WAIT
    return max(1.0, when.timestamp() - (time() if now is None else now))


def _took(body: bytes, copy: RoundCopy, round_id: str) -> str:
    head = f"pushed round {copy.number} to lichess round {round_id}"
    sent = len(copy.games)
    read = min(sent, MAX_GAMES)
    over = (
        f"; lichess shows at most {MAX_GAMES} games a round, boards "
        f"{copy.games[MAX_GAMES].board} and after are not shown"
        if sent > MAX_GAMES
        else ""
    )
    entries = _entries(body)
    if entries is None:
        return f"{head}: {read} games{over}"
    refused: list[str] = []
    taken = 0
    plies = 0
    for index, entry in enumerate(entries):
        error = entry.get("error")
        if error is None:
            taken += 1
            moves = entry.get("moves")
            plies += moves if isinstance(moves, int) else 0
            continue
        where = _which(entry, index, copy, len(entries) == read)
        refused.append(f"{where}{_line(str(error))}")
    if refused and not taken:
        raise OutputError(
            f"lichess took none of the {read} games of round {copy.number}: "
            + "; ".join(refused[:3])
            + (f"; and {len(refused) - 3} more" if len(refused) > 3 else "")
        )
    line = f"{head}: {taken} games, {plies} half-moves"
    if refused:
        line += f"; lichess refused {len(refused)}: " + "; ".join(refused[:3])
        line += f"; and {len(refused) - 3} more" if len(refused) > 3 else ""
    return line + over


def _entries(body: bytes) -> list[dict[str, Any]] | None:
    """The per-game entries of a 200 answer, or None when it has none (an older answer such
    as ``{"ok": true}``, or no JSON at all)."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list):
        return None
    return [entry for entry in games if isinstance(entry, dict)]


def _which(entry: Mapping[str, Any], index: int, copy: RoundCopy, one_each: bool) -> str:
    """Which game an entry is about, as words before its error: ``board 3: ``."""
    tags = entry.get("tags")
    tags = tags if isinstance(tags, dict) and tags else None
    if tags is None:
        return ""
    if one_each:
        return f"board {copy.games[index].board}: "
    board = tags.get("Board")
    if board is not None:
        return f"board {_line(str(board))}: "
    return f"{_line(str(tags.get('White', '?')))} - {_line(str(tags.get('Black', '?')))}: "


def _lichess_error(body: bytes) -> str:
    """The ``error`` lichess' JSON answers carry, as one short line ("" when none)."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ""
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return _line(data["error"])
    return ""


def _line(text: str) -> str:
    words = " ".join(text.split())
    return words if len(words) <= QUOTE else words[: QUOTE - 3] + "..."


def _headers(message: Message | None) -> dict[str, str]:
    if message is None:
        return {}
    return {name.lower(): value for name, value in message.items()}


def _body(error: urllib.error.HTTPError) -> bytes:
    try:
        return error.read(MAX_ANSWER)
    except (OSError, http.client.HTTPException):
        return b""
