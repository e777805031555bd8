"""Device tokens: a token may be bound to one game (``token.game_id``), for a tablet beside a
board that enters that game's moves and nothing else; tokens stored before it are bound to
none.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"


def upgrade() -> None:
    with op.batch_alter_table("token") as batch:
        batch.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_token_game_id_game", "game", ["game_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("token") as batch:
        batch.drop_constraint("fk_token_game_id_game", type_="foreignkey")
        batch.drop_column("game_id")
