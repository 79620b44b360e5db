"""The servers of a cluster and the address their peers reach each at: a server that does not
hold a mesa's lease relays that mesa's requests and WebSockets to the one that does.

Revision ID: 0003
Revises: t0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "t0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(512), nullable=False),
        sa.Column("seen", sa.BigInteger, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("nodes")
