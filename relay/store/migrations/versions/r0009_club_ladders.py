"""Club ladders (docs/ladders.md): clubs, their members, ladders and games with an
append-only result log; club keys (``token.club_id``) and player keys (``token.member_id``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "club_member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("club.id"), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("ecf_member", sa.Boolean(), nullable=False),
        sa.Column("grading_code", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_club_member_club_id", "club_member", ["club_id"])
    op.create_table(
        "ladder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("club.id"), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("rate", sa.String(), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("ends", sa.Date(), nullable=False),
        sa.Column("initial_points", sa.Integer(), nullable=False),
        sa.Column("min_games", sa.Integer(), nullable=False),
        sa.Column("graded", sa.Boolean(), nullable=False),
        sa.Column("quota_standard", sa.Integer(), nullable=False),
        sa.Column("quota_rapid", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_ladder_club_id", "ladder", ["club_id"])
    op.create_table(
        "club_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("club.id"), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("rate", sa.String(), nullable=False),
        sa.Column("white_id", sa.Integer(), sa.ForeignKey("club_member.id"), nullable=False),
        sa.Column("black_id", sa.Integer(), sa.ForeignKey("club_member.id"), nullable=False),
        # No foreign key: replacing a round's pairings deletes its games; a tagged game that
        # no longer exists gives no board result.
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_club_game_club_id", "club_game", ["club_id"])
    op.create_table(
        "club_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_game_id", sa.Integer(), sa.ForeignKey("club_game.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(), nullable=True),
        sa.Column("by", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_game_id", "seq"),
    )
    op.create_index("ix_club_result_club_game_id", "club_result", ["club_game_id"])
    with op.batch_alter_table("token") as batch:
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("member_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_token_club_id_club", "club", ["club_id"], ["id"])
        batch.create_foreign_key(
            "fk_token_member_id_club_member", "club_member", ["member_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("token") as batch:
        batch.drop_constraint("fk_token_member_id_club_member", type_="foreignkey")
        batch.drop_constraint("fk_token_club_id_club", type_="foreignkey")
        batch.drop_column("member_id")
        batch.drop_column("club_id")
    for table in ("club_result", "club_game", "ladder", "club_member"):
        op.drop_index(f"ix_{table}_{'club_game_id' if table == 'club_result' else 'club_id'}")
        op.drop_table(table)
    op.drop_table("club")
