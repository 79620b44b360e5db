"""Problemas from the server's own partidas (issue #18): a player's consent to have their
partidas used (off by default), the problemas mined from them with their source partida, the
partidas mined already and the accounts that played each one.

Revision ID: p0003
Revises: t0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "p0003"
down_revision = "t0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_accounts") as batch:
        batch.add_column(
            sa.Column("problemas", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "trainer_mined_puzzles",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("mesa", sa.String(32), nullable=False),
        sa.Column("partida", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("mined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_trainer_mined_puzzles_mesa", "trainer_mined_puzzles", ["mesa"])
    op.create_table(
        "trainer_mined_partidas",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("partida", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("mined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "trainer_mined_players",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("partida", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account", sa.String(32), primary_key=True),
    )
    op.create_index("ix_trainer_mined_players_account", "trainer_mined_players", ["account"])


def downgrade() -> None:
    op.drop_index("ix_trainer_mined_players_account", "trainer_mined_players")
    op.drop_table("trainer_mined_players")
    op.drop_table("trainer_mined_partidas")
    op.drop_index("ix_trainer_mined_puzzles_mesa", "trainer_mined_puzzles")
    op.drop_table("trainer_mined_puzzles")
    with op.batch_alter_table("player_accounts") as batch:
        batch.drop_column("problemas")
