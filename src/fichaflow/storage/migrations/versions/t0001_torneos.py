"""The torneos' tables: each torneo's record (settings, entrants, rounds) and its append-only
results log.

Revision ID: t0001
Revises: c0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0001"
down_revision = "c0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "torneos",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("public", sa.String(32), nullable=False, unique=True),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "torneo_results",
        sa.Column("torneo", sa.String(32), sa.ForeignKey("torneos.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("line", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("torneo_results")
    op.drop_table("torneos")
