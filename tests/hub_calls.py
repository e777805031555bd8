"""Calling a running hub's API from a test, as a script would: JSON in and out (a ``.pgn``
path's answer as text), an error answer as an AssertionError that says what came back."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from sqlmodel import Session

from relay.store.access import create_token
from relay.store.engine import open_store


def hub_call(
    address: str, method: str, path: str, body: Any = None, token: str | None = None
) -> Any:
    """``method`` on ``path`` of the hub at ``address`` (``host:port/``)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://{address}{path.lstrip('/')}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            text = reply.read().decode()
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from None
    return text if path.endswith(".pgn") else json.loads(text)


def hub_tokens(db: str, *users: tuple[str, str]) -> list[str]:
    """A token for each ``(user, role)``, made in the hub's database at ``db``."""
    engine = open_store(db)
    try:
        with Session(engine) as session:
            tokens = [create_token(session, user=user, role=role) for user, role in users]
            session.commit()
    finally:
        engine.dispose()
    return tokens
