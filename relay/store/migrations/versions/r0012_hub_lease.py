"""Leases among hub processes that share the store (``hub_lease``): the correspondence
sweep is done by one process at a time (docs/correspondence.md).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"


def upgrade() -> None:
    op.create_table(
        "hub_lease",
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("holder", sa.String(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("hub_lease")
