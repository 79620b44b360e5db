"""Partidas played by time (issue #17): where time was called, so that a restarted server replays
the call and the partida's record writes it.

Revision ID: 0006
Revises: p0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "p0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("partidas") as batch:
        batch.add_column(sa.Column("time_up", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("partidas") as batch:
        batch.drop_column("time_up")
