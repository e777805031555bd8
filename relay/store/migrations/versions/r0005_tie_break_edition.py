"""The edition of FIDE C.07 that ranks each tournament (``2024`` or ``2026``); tournaments
stored before it have none, which means the edition in force at their start date.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("tie_break_edition", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("tie_break_edition")
