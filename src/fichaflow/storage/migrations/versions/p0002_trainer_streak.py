"""A signed-in player's running streak of problemas solved in a row, kept by the server (the
best one was already kept): the page shows it on every device the player signs in on.

Revision ID: p0002
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0002"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("trainer_players") as batch:
        batch.add_column(sa.Column("streak", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("trainer_players") as batch:
        batch.drop_column("streak")
