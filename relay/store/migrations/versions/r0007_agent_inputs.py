"""Agent inputs: the board events a venue agent forwards, kept by (agent, seq) before the
hub acknowledges them (docs/venue-agent.md).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"


def upgrade() -> None:
    op.create_table(
        "agent_input",
        sa.Column("agent", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("board", sa.String(), nullable=False),
        sa.Column("mono", sa.Float(), nullable=False),
        sa.Column("wall", sa.Float(), nullable=False),
        sa.Column("event", sa.String(), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("agent", "seq"),
    )


def downgrade() -> None:
    op.drop_table("agent_input")
