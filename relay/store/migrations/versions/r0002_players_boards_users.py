"""Players, electronic boards, users, tokens and the audit trail; round publication and delay.

Games now point at players; the names and ratings of the first schema become one player per
name and tournament, numbered in order of first appearance.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("end_date", sa.Date(), nullable=True))
        batch.add_column(sa.Column("time_control", sa.String(), nullable=True))
        batch.add_column(sa.Column("rounds_planned", sa.Integer(), nullable=True))
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("start_number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("fide_id", sa.Integer(), nullable=True),
        sa.Column("title", sa.String(), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("federation", sa.String(), nullable=True),
        sa.Column("team", sa.String(), nullable=True),
        sa.UniqueConstraint("tournament_id", "start_number"),
    )
    op.create_index("ix_player_tournament_id", "player", ["tournament_id"])
    with op.batch_alter_table("round") as batch:
        batch.add_column(sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("delay_seconds", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "eboard",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("driver", sa.String(), nullable=False),
        sa.Column("url", sa.String(), nullable=False),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_index("ix_eboard_tournament_id", "eboard", ["tournament_id"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("white_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("black_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("eboard_id", sa.Integer(), nullable=True))
    _players_from_names()
    with op.batch_alter_table("game") as batch:
        batch.alter_column("white_id", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("black_id", existing_type=sa.Integer(), nullable=False)
        batch.create_foreign_key("fk_game_white_id", "player", ["white_id"], ["id"])
        batch.create_foreign_key("fk_game_black_id", "player", ["black_id"], ["id"])
        batch.create_foreign_key("fk_game_eboard_id", "eboard", ["eboard_id"], ["id"])
        for column in ("white", "black", "white_elo", "black_elo"):
            batch.drop_column(column)
    op.create_table(
        "relay_user",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False, unique=True),
        sa.Column("role", sa.String(), nullable=False),
    )
    op.create_table(
        "token",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("relay_user.id"), nullable=False),
        sa.Column("digest", sa.String(), nullable=False, unique=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("revoked_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_token_user_id", "token", ["user_id"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("user", sa.String(), nullable=False),
        sa.Column("role", sa.String(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("target", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("detail", sa.String(), nullable=False),
    )


def _players_from_names() -> None:
    bind = op.get_bind()
    games = bind.execute(
        sa.text(
            "SELECT game.id, round.tournament_id, game.white, game.black,"
            " game.white_elo, game.black_elo FROM game JOIN round ON round.id = game.round_id"
            " ORDER BY round.tournament_id, round.number, game.board"
        )
    ).all()
    players: dict[tuple[int, str], int] = {}
    numbers: dict[int, int] = {}

    def player(tournament: int, name: str, rating: int | None) -> int:
        key = (tournament, name)
        if key not in players:
            numbers[tournament] = numbers.get(tournament, 0) + 1
            players[key] = bind.execute(
                sa.text(
                    "INSERT INTO player (tournament_id, start_number, name, rating)"
                    " VALUES (:t, :n, :name, :rating) RETURNING id"
                ),
                {"t": tournament, "n": numbers[tournament], "name": name, "rating": rating},
            ).scalar_one()
        return players[key]

    for game_id, tournament, white, black, white_elo, black_elo in games:
        bind.execute(
            sa.text("UPDATE game SET white_id = :w, black_id = :b WHERE id = :id"),
            {
                "w": player(tournament, white, white_elo),
                "b": player(tournament, black, black_elo),
                "id": game_id,
            },
        )


def downgrade() -> None:
    raise NotImplementedError("the relay does not downgrade its database; restore a backup")
