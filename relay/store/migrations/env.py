"""Alembic's entry point: migrations run on the connection :mod:`relay.store.schema` passes."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from relay.store import models  # noqa: F401  (registers the tables on SQLModel.metadata)

context.configure(
    connection=context.config.attributes["connection"],
    target_metadata=SQLModel.metadata,
    # SQLite cannot alter a column or a constraint in place; batch mode rebuilds the table.
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
