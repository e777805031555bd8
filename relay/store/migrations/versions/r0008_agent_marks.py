"""Agent marks: per game, the last input of its agent board whose consequences are in the
game's log, written in the same transaction as those events, so that a hub restarted after
a crash replays exactly the inputs after it (docs/venue-agent.md).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"


def upgrade() -> None:
    op.create_table(
        "agent_mark",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("agent", sa.String(), nullable=False),
        sa.Column("board", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("agent_mark")
