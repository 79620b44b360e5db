"""The anotador's tables: its mesas and their append-only logs of actions.

Revision ID: a0001
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a0001"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "anotador_mesas",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("watch", sa.String(32), nullable=False, unique=True),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "anotador_actions",
        sa.Column("mesa", sa.String(32), sa.ForeignKey("anotador_mesas.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("change", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("mesa", "key", name="anotador_actions_key"),
    )


def downgrade() -> None:
    op.drop_table("anotador_actions")
    op.drop_table("anotador_mesas")
