"""The first schema: tournaments, rounds, games with the players' names, the event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("site", sa.String(), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=True),
    )
    op.create_table(
        "round",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_index("ix_round_tournament_id", "round", ["tournament_id"])
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("round.id"), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white", sa.String(), nullable=False),
        sa.Column("black", sa.String(), nullable=False),
        sa.Column("white_elo", sa.Integer(), nullable=True),
        sa.Column("black_elo", sa.Integer(), nullable=True),
        sa.UniqueConstraint("round_id", "board"),
    )
    op.create_index("ix_game_round_id", "game", ["round_id"])
    op.create_table(
        "game_event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("data", sa.String(), nullable=False),
        sa.Column("recorded_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index("ix_game_event_game_id", "game_event", ["game_id"])


def downgrade() -> None:
    for table in ("game_event", "game", "round", "tournament"):
        op.drop_table(table)
