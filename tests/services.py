"""The PostgreSQL and Redis servers the tests use, safe for tests running side by side: the
machine's PostgreSQL, started when it is down; the machine's Redis, or one of the test
process's own when it is down. A Redis key prefix per test, removed afterwards (databases:
:mod:`tests.stores`)."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import secrets
import select
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from tests.tiers import inner_loop, refuse

POSTGRES_HOST = os.environ.get("RELAY_TEST_PG_HOST", "127.0.0.1")
POSTGRES_PORT = int(os.environ.get("RELAY_TEST_PG_PORT", "5432"))
REDIS_PORT = int(os.environ.get("RELAY_TEST_REDIS_PORT", "6379"))


class ServiceUnavailableError(RuntimeError):
    """A server the tests need is down and could not be started."""


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def ensure_postgres() -> None:
    """Start the machine's PostgreSQL when it is down. Test processes running side by side
    (pytest-xdist's workers) take turns through a lock, so that one starts it and the others
    find it up; it is the machine's own server, left running afterwards."""
    if inner_loop():
        refuse("needs PostgreSQL", "services")
    if _listening(POSTGRES_PORT):
        return
    with _machine_lock("postgres"):
        if _listening(POSTGRES_PORT):
            return
        found = Path("/etc/postgresql")
        versions = sorted(found.glob("*")) if found.is_dir() else []
        if not versions or shutil.which("pg_ctlcluster") is None:
            raise ServiceUnavailableError(
                f"PostgreSQL is not running on 127.0.0.1:{POSTGRES_PORT} and is not installed"
            )
        # pg_ctlcluster returns once the server accepts connections (pg_ctl start --wait).
        subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1].name, "main", "start"],
            check=True,
            capture_output=True,
            timeout=60,
        )
    if not _listening(POSTGRES_PORT):
        raise ServiceUnavailableError(f"PostgreSQL started but is not on port {POSTGRES_PORT}")


@contextlib.contextmanager
def _machine_lock(name: str) -> Iterator[None]:
    """A lock that every test process on the machine shares (a file lock)."""
    path = Path(tempfile.gettempdir()) / f"chess-relay-tests-{name}.lock"
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_own_redis: list[int] = []


def redis_port() -> int:
    """The port of a Redis server: the machine's on REDIS_PORT when it is up; else one this
    test process starts for itself on a free port (in the foreground of a child process,
    ready once it says so) and stops when it ends. A server of its own per process: a
    worker that finishes first cannot take a server away from another that still runs."""
    if inner_loop():
        refuse("needs Redis", "services")
    if _listening(REDIS_PORT):
        return REDIS_PORT
    if _own_redis:
        return _own_redis[0]
    if shutil.which("redis-server") is None:
        raise ServiceUnavailableError(
            f"Redis is not running on 127.0.0.1:{REDIS_PORT} and is not installed"
        )
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = int(free.getsockname()[1])
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--daemonize", "no"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    atexit.register(_stop, server)
    assert server.stdout is not None
    deadline = time.monotonic() + 30
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([server.stdout], [], [], left)
        line = server.stdout.readline() if readable else ""
        if "Ready to accept connections" in line:
            _own_redis.append(port)
            return port
        if readable and not line:
            break  # the server exited
    raise ServiceUnavailableError(f"Redis did not get ready on port {port}")


def _stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    server.wait(timeout=30)
    if server.stdout is not None:
        server.stdout.close()


@contextlib.contextmanager
def redis_namespace() -> Iterator[tuple[str, str]]:
    """The local Redis URL and a namespace of its own; its keys are deleted afterwards."""
    url = f"redis://127.0.0.1:{redis_port()}/0"
    namespace = f"relay-test-{secrets.token_hex(6)}"
    try:
        yield url, namespace
    finally:
        client = redis.Redis.from_url(url)
        try:
            keys = list(client.scan_iter(f"{namespace}:*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
