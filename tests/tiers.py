"""The inner loop's promise, kept: under ``make check`` (``RELAY_TEST_TIER=check``) a test
that starts a process, opens a browser or needs the machine's PostgreSQL or Redis fails at
once, naming the mark it lacks, instead of making the inner loop slow in silence.

``make check`` selects with ``-m "not (e2e or browser or processes or services or gate)"``;
this module is what catches a test that should carry one of those marks and does not.
"""

from __future__ import annotations

import _posixsubprocess
import os
import platform
import subprocess
from typing import NoReturn

TIER_VARIABLE = "RELAY_TEST_TIER"


class OutOfTierError(RuntimeError):
    """A test under ``make check`` reached for what the inner loop leaves out."""


def inner_loop() -> bool:
    """True when the tests run as ``make check``."""
    return os.environ.get(TIER_VARIABLE) == "check"


def refuse(what: str, mark: str) -> NoReturn:
    raise OutOfTierError(
        f"this test {what}, which `make check` leaves out: mark it "
        f"`@pytest.mark.{mark}` (or move it to tests/e2e/); see docs/testing.md"
    )


def guard_inner_loop() -> None:
    """Under ``make check``, make starting a process fail with the mark to add."""
    if not inner_loop():
        return
    # Asked once by pytest-xdist's worker as it reports in; the answer is cached.
    platform.uname().processor  # noqa: B018

    def no_process(*_args: object, **_kwargs: object) -> NoReturn:
        refuse("starts a process", "processes")

    # Every way Python starts a process goes through one of these: subprocess (and so
    # asyncio's subprocesses) through Popen._execute_child, multiprocessing's spawn through
    # fork_exec, its fork start method and pty through fork or forkpty.
    subprocess.Popen._execute_child = no_process  # type: ignore[attr-defined]
    _posixsubprocess.fork_exec = no_process
    os.fork = no_process
    os.forkpty = no_process
