"""The table talk's blocks between accounts: a signed-in player who blocks another account
hears none of its words at any mesa, after reloads and restarts (docs/protocol.md).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_blocks",
        sa.Column("blocker", sa.String(32), primary_key=True),
        sa.Column("blocked", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_blocks_blocked", "chat_blocks", ["blocked"])


def downgrade() -> None:
    op.drop_table("chat_blocks")
