"""Databases for tests, with the migrated schema built once per test process.

Running the twelve migrations takes 0.3-0.6 s; a test that needs a store gets a copy instead:
a SQLite file copied from this process's template, or a PostgreSQL database made with
``CREATE DATABASE ... TEMPLATE`` from this process's template database. Each pytest-xdist
worker is a process of its own and so has templates of its own: nothing is shared between
workers, and a template is built on first use (a worker that runs no store test builds none).

The migrations themselves are tested from an empty database and from every earlier revision
(``tests/relay/store/test_migrations.py``), never through these copies.
"""

from __future__ import annotations

import atexit
import contextlib
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy

from relay.store.engine import open_store
from tests.services import POSTGRES_HOST, POSTGRES_PORT, ensure_postgres

_templates: dict[str, str] = {}


def _sqlite_template() -> Path:
    if "sqlite" not in _templates:
        folder = Path(tempfile.mkdtemp(prefix="relay-schema-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "template.db"
        # Disposing closes the last connection, which checkpoints the WAL into the file
        # and removes it: the file alone is the whole database.
        open_store(f"sqlite:///{path}").dispose()
        _templates["sqlite"] = str(path)
    return Path(_templates["sqlite"])


def migrated_sqlite(path: Path) -> str:
    """The URL of a new SQLite database at ``path`` with the schema at the head revision.

    ``path`` must not exist yet; its folder is made when missing."""
    if path.exists():
        raise FileExistsError(f"{path} exists: a migrated copy goes to a new file")
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_sqlite_template(), path)
    return f"sqlite:///{path}"


def _postgres_url(name: str) -> str:
    return f"postgresql+psycopg://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/{name}"


@contextlib.contextmanager
def _admin() -> Iterator[sqlalchemy.Connection]:
    admin = sqlalchemy.create_engine(_postgres_url("test"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            yield connection
    finally:
        admin.dispose()


def _drop(name: str) -> None:
    with _admin() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _drop_at_exit(name: str) -> None:
    with contextlib.suppress(sqlalchemy.exc.OperationalError):  # the server went first
        _drop(name)


def _postgres_template() -> str:
    if "postgresql" not in _templates:
        name = f"relay_template_{secrets.token_hex(6)}"
        with _admin() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        atexit.register(_drop_at_exit, name)
        # A template must have no open connection when it is copied.
        open_store(_postgres_url(name)).dispose()
        _templates["postgresql"] = name
    return _templates["postgresql"]


@contextlib.contextmanager
def postgres_database(*, migrated: bool = False) -> Iterator[str]:
    """A new database on the local PostgreSQL, dropped afterwards: empty, or with
    ``migrated`` a copy of the schema at the head revision."""
    ensure_postgres()
    template = f' TEMPLATE "{_postgres_template()}"' if migrated else ""
    name = f"relay_test_{secrets.token_hex(6)}"
    with _admin() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"{template}')
    try:
        yield _postgres_url(name)
    finally:
        _drop(name)


@contextlib.contextmanager
def empty_store(kind: str, folder: Path, name: str = "relay.db") -> Iterator[str]:
    """The URL of an empty database with no schema: ``"sqlite"``, a new file ``name`` in
    ``folder``; ``"postgresql"``, a throwaway database on the local server."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / name}"
    else:
        with postgres_database() as url:
            yield url


@contextlib.contextmanager
def store_engine(kind: str, folder: Path) -> Iterator[sqlalchemy.Engine]:
    """An opened store with the migrated schema: ``"sqlite"``, a file in ``folder``;
    ``"postgresql"``, a throwaway database on the local server."""
    with contextlib.ExitStack() as stack:
        if kind == "sqlite":
            url = migrated_sqlite(folder / "relay.db")
        elif kind == "postgresql":
            url = stack.enter_context(postgres_database(migrated=True))
        else:
            raise ValueError(f"no store of kind {kind!r}: sqlite or postgresql")
        engine = open_store(url)
        stack.callback(engine.dispose)
        yield engine
