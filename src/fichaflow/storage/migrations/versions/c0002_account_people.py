"""The mesas' people that are an account's: a guest who signs up keeps the mesa they sit at
(see docs/accounts.md).

Revision ID: c0002
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0002"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_people",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("person", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_people_account", "account_people", ["account"])


def downgrade() -> None:
    op.drop_table("account_people")
