"""Ratings and players' partidas: each account's rating per mode, every partida an account
played signed in (with its rating before and after, when rated), and the account of each
mesa person who joined signed in (see docs/ratings.md).

Revision ID: c0003
Revises: c0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0003"
down_revision = "c0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("account", sa.String(32), nullable=True))
    op.create_index("ix_people_account", "people", ["account"])
    op.create_table(
        "player_ratings",
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), primary_key=True),
        sa.Column("mode", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("partidas", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("player_ratings_mode_mu", "player_ratings", ["mode", "mu"])
    op.create_table(
        "player_partidas",
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), primary_key=True),
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("partida", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("before", sa.Integer, nullable=True),
        sa.Column("after", sa.Integer, nullable=True),
        sa.Column("provisional", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("player_partidas_account_time", "player_partidas", ["account", "finished_at"])


def downgrade() -> None:
    op.drop_table("player_partidas")
    op.drop_table("player_ratings")
    op.drop_index("ix_people_account", "people")
    with op.batch_alter_table("people") as batch:
        batch.drop_column("account")
