"""Mesas, people, seats, partidas, hands and moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mesas",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "people",
        sa.Column("mesa", sa.String(32), sa.ForeignKey("mesas.code"), primary_key=True),
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("is_host", sa.Boolean, nullable=False),
        sa.Column("queue_pos", sa.Integer, nullable=True),
    )
    op.create_table(
        "seats",
        sa.Column("mesa", sa.String(32), sa.ForeignKey("mesas.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("person", sa.Integer, nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
    )
    op.create_table(
        "partidas",
        sa.Column("mesa", sa.String(32), sa.ForeignKey("mesas.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
    )
    op.create_table(
        "hands",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("partida", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("leader", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("mesa", sa.String(32), primary_key=True),
        sa.Column("partida", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("hand", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("notation", sa.String(16), nullable=False),
        sa.Column("timed_out", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("moves", "hands", "partidas", "seats", "people", "mesas"):
        op.drop_table(table)
