"""Club games tagged with hub games that no longer exist lose their tags.

Before this revision, replacing a round's pairings deleted its games and left the club
games tagged with them pointing at the deleted ids (docs/ladders.md). SQLite gives a new
row the id of a deleted one, so such a tag could come to follow another game's result.
Pairings now move or clear the tags as they replace the games; this clears the tags left
behind by earlier replacements. There is nothing to put back on downgrade.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision: str | None = "0010"


def upgrade() -> None:
    op.execute(
        "UPDATE club_game SET game_id = NULL"
        " WHERE game_id IS NOT NULL AND game_id NOT IN (SELECT id FROM game)"
    )


def downgrade() -> None:
    pass
