"""Two server processes on one PostgreSQL database share their events through Redis: a
spectator connected to one sees what an arbiter does on the other, at once."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from websockets.sync.client import connect

from relay.cli import main
from tests.services import redis_namespace
from tests.stores import postgres_database

EVENT = """
[tournament]
name = "Two Servers Open"
[[player]]
number = 1
name = "Moss, Mary"
[[player]]
number = 2
name = "Lee, Hugo"
[[round]]
number = 1
pairings = [[1, 2]]
"""


@contextlib.contextmanager
def server(tmp_path: Path, env: dict[str, str], *args: str) -> Iterator[str]:
    command = [sys.executable, "-m", "relay.cli", "serve", "--port", "0", *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        try:
            while (line := process.stdout.readline()) and "hub on" not in line:
                pass
            found = re.search(r"hub on (http://\S+) ", line)
            assert found, line + process.stderr.read()
            yield found.group(1)
        finally:
            process.send_signal(signal.SIGINT)
            code = process.wait(timeout=30)
        errors = process.stderr.read()
    assert code == 0, errors
    assert "Traceback" not in errors


def post(url: str, body: dict[str, object], token: str) -> dict[str, object]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        result: dict[str, object] = json.load(reply)
        return result


def test_an_action_on_one_server_reaches_the_spectators_of_the_other(tmp_path, capsys):
    event = tmp_path / "event.toml"
    event.write_text(EVENT)
    with postgres_database() as db, redis_namespace() as (redis_url, namespace):
        assert main(["token", "create", "--role", "arbiter", "--user", "Jane", "--db", db]) == 0
        token = capsys.readouterr().out.strip()
        env = {**os.environ, "RELAY_REDIS_NAMESPACE": namespace, "RELAY_RATE_LIMIT": "0"}
        with (
            server(tmp_path, env, str(event), "--db", db, "--redis", redis_url) as first,
            server(tmp_path, env, "--db", db, "--redis", redis_url) as second,
        ):
            with urllib.request.urlopen(f"{second}api/rounds", timeout=10) as reply:
                (round_,) = json.load(reply)
            ws_url = second.replace("http", "ws") + f"api/rounds/{round_['id']}/stream"
            with connect(ws_url, open_timeout=10) as spectator:
                snapshot = json.loads(spectator.recv(timeout=10))
                (game,) = snapshot["games"]
                assert game["ply"] == 0
                post(
                    f"{first}api/games/{game['id']}/moves",
                    {"ply": 1, "san": ["e4", "c5", "Nf3"], "reason": "scoresheet"},
                    token,
                )
                post(f"{first}api/games/{game['id']}/result", {"result": "1-0"}, token)
                seen = [json.loads(spectator.recv(timeout=10)) for _ in range(2)]
            assert [(m["kind"], m["v"]) for m in seen] == [("arbiter-correction", 1), ("result", 2)]
            assert seen[0]["data"]["uci"] == ["e2e4", "c7c5", "g1f3"]
            with urllib.request.urlopen(f"{second}api/rounds/{round_['id']}/games.pgn") as reply:
                pgn = reply.read().decode()
            assert "1. e4 c5 2. Nf3 1-0" in pgn
