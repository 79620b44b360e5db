"""The torneos' physical tables kept in the anotador: each table's sheet (its writing and
read-only codes), each side's confirmation code and the score each side confirmed.

Revision ID: t0003
Revises: t0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0003"
down_revision = "t0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "torneo_sheets",
        sa.Column("sheet", sa.String(32), primary_key=True),
        sa.Column("watch", sa.String(32), nullable=False),
        sa.Column("torneo", sa.String(32), sa.ForeignKey("torneos.code"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table", sa.Integer, nullable=False),
        sa.Column("code_a", sa.String(32), nullable=False),
        sa.Column("code_b", sa.String(32), nullable=False),
        sa.Column("confirmed_a", sa.String(32), nullable=True),
        sa.Column("confirmed_b", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("torneo", "round", "table", name="torneo_sheets_table"),
    )


def downgrade() -> None:
    op.drop_table("torneo_sheets")
