"""The machine's PostgreSQL and Redis servers for tests: started when they are down, with a
throwaway database (or key prefix) per test, removed afterwards."""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import select
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis
import sqlalchemy

from relay.store.engine import open_store

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
    if _listening(POSTGRES_PORT):
        return
    versions = sorted(Path("/etc/postgresql").glob("*")) if Path("/etc/postgresql").is_dir() else []
    if not versions or shutil.which("pg_ctlcluster") is None:
        raise ServiceUnavailableError(
            "PostgreSQL is not running on 127.0.0.1:5432 and is not installed here"
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


def ensure_redis() -> None:
    """Start Redis in the foreground of a child process when it is down, wait for its
    "ready" line, and stop it when the tests end."""
    if _listening(REDIS_PORT):
        return
    if shutil.which("redis-server") is None:
        raise ServiceUnavailableError("Redis is not running on 127.0.0.1:6379 and not installed")
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(REDIS_PORT), "--save", "",
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
            return
        if readable and not line:
            break  # the server exited
    raise ServiceUnavailableError(f"Redis did not get ready on port {REDIS_PORT}")


def _stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    server.wait(timeout=30)
    if server.stdout is not None:
        server.stdout.close()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty database on the local server; dropped afterwards."""
    ensure_postgres()
    name = f"relay_test_{secrets.token_hex(6)}"
    admin = sqlalchemy.create_engine(
        f"postgresql+psycopg://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/test",
        isolation_level="AUTOCOMMIT",
    )
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        yield f"postgresql+psycopg://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/{name}"
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@contextlib.contextmanager
def store_engine(kind: str, folder: Path) -> Iterator[sqlalchemy.Engine]:
    """An opened store: ``"sqlite"``, a file in ``folder``; ``"postgresql"``, a throwaway
    database on the local server."""
    if kind == "sqlite":
        engine = open_store(f"sqlite:///{folder / 'relay.db'}")
        try:
            yield engine
        finally:
            engine.dispose()
        return
    with postgres_database() as url:
        engine = open_store(url)
        try:
            yield engine
        finally:
            engine.dispose()


@contextlib.contextmanager
def redis_namespace() -> Iterator[tuple[str, str]]:
    """The local Redis URL and a namespace of its own; its keys are deleted afterwards."""
    ensure_redis()
    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
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
