"""The tournament engine: pairing system and tie-break order per tournament, withdrawals,
and the byes of each round.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("pairing_system", sa.String(), nullable=True))
        batch.add_column(sa.Column("tie_breaks", sa.String(), nullable=True))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("withdrawn_after", sa.Integer(), nullable=True))
    op.create_table(
        "bye",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("round.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.UniqueConstraint("round_id", "player_id"),
    )
    op.create_index("ix_bye_round_id", "bye", ["round_id"])


def downgrade() -> None:
    op.drop_index("ix_bye_round_id", "bye")
    op.drop_table("bye")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("withdrawn_after")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("tie_breaks")
        batch.drop_column("pairing_system")
