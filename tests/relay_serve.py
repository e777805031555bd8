"""``relay serve EVENT_FILE`` in a process of its own, as an organiser runs it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def relay_serve(
    folder: Path, event: Path, db: str, **env: str
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """The hub on a free port; yields the process and its address (``host:port/``).

    Settles quickly and without a sweep or rate limits unless ``env`` says otherwise; the
    hub's log goes to ``folder/hub.log`` (a pipe nobody reads would stall it once full).
    Stopped with SIGINT at the end if still running.
    """
    environment = {
        **os.environ,
        "RELAY_SETTLE_SECONDS": "0.06",
        "RELAY_BOARD_SWEEP_SECONDS": "0",
        "RELAY_RATE_LIMIT": "0",
        **env,
    }
    command = [sys.executable, "-m", "relay.cli", "serve", str(event), "--port", "0"]
    command += ["--db", db]
    with hub_process(command, folder, environment) as (process, address):
        yield process, address


@contextlib.contextmanager
def hub_process(
    command: list[str], folder: Path, environment: dict[str, str]
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``command`` (a ``relay serve`` on a free port) run in ``folder``: yields the process
    once it listens, and its address (``host:port/``); its log goes to ``folder/hub.log``."""
    with (
        (folder / "hub.log").open("a") as log,
        subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log, text=True, cwd=folder, env=environment
        ) as process,
    ):
        assert process.stdout is not None
        while (line := process.stdout.readline()) and "hub on" not in line:
            pass
        found = re.search(r"hub on http://(\S+) ", line)
        assert found, line + (folder / "hub.log").read_text()
        try:
            yield process, found.group(1)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=30)
