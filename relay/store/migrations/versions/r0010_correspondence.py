"""Correspondence events (docs/correspondence.md): the event's control and start, players'
addresses, leaves, notices of delay, conditional sequences, withdrawals, adjudications after the
global limit, what the hub did about what fell due, and players' keys (``token.player_id``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"


def upgrade() -> None:
    op.create_table(
        "correspondence_event",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("control", sa.String(), nullable=False),
        sa.Column("format", sa.String(), nullable=False),
        sa.Column("started", sa.Date(), nullable=False),
        sa.Column("ts_email", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id"),
    )
    op.create_table(
        "correspondence_player",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("email", sa.String(), nullable=True),
        sa.Column("time_zone", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_table(
        "correspondence_leave",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("announced", sa.Date(), nullable=False),
        sa.Column("first", sa.Date(), nullable=False),
        sa.Column("last", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_correspondence_leave_tournament_id", "correspondence_leave", ["tournament_id"]
    )
    op.create_table(
        "correspondence_notice",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("sent", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "ply"),
    )
    op.create_index("ix_correspondence_notice_game_id", "correspondence_notice", ["game_id"])
    op.create_table(
        "correspondence_mail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("side", sa.String(), nullable=False),
        sa.Column("since", sa.Date(), nullable=False),
        sa.Column("done_on", sa.Date(), nullable=False),
        sa.Column("sent_to", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "ply", "kind", "side"),
    )
    op.create_index("ix_correspondence_mail_game_id", "correspondence_mail", ["game_id"])
    op.create_table(
        "correspondence_conditional",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("proposer", sa.String(), nullable=False),
        sa.Column("fen", sa.String(), nullable=False),
        sa.Column("steps", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "correspondence_withdrawal",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("on", sa.Date(), nullable=False),
        sa.Column("unfinished", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )
    op.create_table(
        "correspondence_adjudication_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("on", sa.Date(), nullable=False),
        sa.Column("data", sa.String(), nullable=False),
        sa.Column("by", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index(
        "ix_correspondence_adjudication_step_game_id",
        "correspondence_adjudication_step",
        ["game_id"],
    )
    with op.batch_alter_table("token") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_token_player_id_player", "player", ["player_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("token") as batch:
        batch.drop_constraint("fk_token_player_id_player", type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_index("ix_correspondence_adjudication_step_game_id")
    op.drop_table("correspondence_adjudication_step")
    op.drop_table("correspondence_withdrawal")
    op.drop_table("correspondence_conditional")
    for table in ("correspondence_mail", "correspondence_notice"):
        op.drop_index(f"ix_{table}_game_id")
        op.drop_table(table)
    op.drop_index("ix_correspondence_leave_tournament_id")
    op.drop_table("correspondence_leave")
    op.drop_table("correspondence_player")
    op.drop_table("correspondence_event")
