"""What the event file last said of each electronic board (``loaded_url``,
``loaded_clock``), so that loading the file again tells an edited file, whose new port or
clock setting is applied, from an unchanged one, whose values give way to what the operator
set on the console since. Boards stored before it take their stored values.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"


def upgrade() -> None:
    with op.batch_alter_table("eboard") as batch:
        batch.add_column(sa.Column("loaded_url", sa.String(), nullable=True))
        batch.add_column(sa.Column("loaded_clock", sa.String(), nullable=True))
    op.execute("UPDATE eboard SET loaded_url = url, loaded_clock = clock")


def downgrade() -> None:
    with op.batch_alter_table("eboard") as batch:
        batch.drop_column("loaded_clock")
        batch.drop_column("loaded_url")
