"""The puzzle trainer's tables (issue #18): each signed-in player's puzzle rating, each
puzzle's rating, and every attempt (a signed-in player's or a guest's).

Revision ID: p0001
Revises: c0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0001"
down_revision = "c0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trainer_players",
        sa.Column("account", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("streak_best", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "trainer_puzzles",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "trainer_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.String(32), nullable=True),
        sa.Column("puzzle", sa.String(64), nullable=False),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("cost", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("trainer_attempts_account", "trainer_attempts", ["account", "id"])


def downgrade() -> None:
    op.drop_index("trainer_attempts_account", "trainer_attempts")
    op.drop_table("trainer_attempts")
    op.drop_table("trainer_puzzles")
    op.drop_table("trainer_players")
