"""The torneos' players and online tables: whether a torneo takes registrations by its link (and
how many), which account registered which entrant, and the game mesa of each table played
online with its seats' tokens.

Revision ID: t0002
Revises: p0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "t0002"
down_revision = "p0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "torneo_signups",
        sa.Column("torneo", sa.String(32), sa.ForeignKey("torneos.code"), primary_key=True),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("capacity", sa.Integer, nullable=True),
    )
    op.create_table(
        "torneo_accounts",
        sa.Column("torneo", sa.String(32), sa.ForeignKey("torneos.code"), primary_key=True),
        sa.Column("account", sa.String(64), primary_key=True),
        sa.Column("entrant", sa.Integer, nullable=False),
    )
    op.create_table(
        "torneo_mesas",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("torneo", sa.String(32), sa.ForeignKey("torneos.code"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table", sa.Integer, nullable=False),
        sa.Column("tokens", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("torneo", "round", "table", name="torneo_mesas_table"),
    )


def downgrade() -> None:
    op.drop_table("torneo_mesas")
    op.drop_table("torneo_accounts")
    op.drop_table("torneo_signups")
