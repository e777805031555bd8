"""The clock setting of each electronic board: which side of its clock White's is
(``auto``, ``white-left`` or ``white-right``); boards stored before it are ``auto``.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    with op.batch_alter_table("eboard") as batch:
        batch.add_column(sa.Column("clock", sa.String(), nullable=False, server_default="auto"))


def downgrade() -> None:
    with op.batch_alter_table("eboard") as batch:
        batch.drop_column("clock")
