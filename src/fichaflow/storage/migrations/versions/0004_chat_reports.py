"""The table talk's reported sayings: the words, the mesa, who said them and who reported them
(talk itself is never stored; see docs/protocol.md, «Table talk»).

Revision ID: 0004
Revises: p0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "p0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("mesa", sa.String(32), nullable=False),
        sa.Column("saying", sa.Integer, nullable=False),
        sa.Column("text", sa.String(256), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("speaker", sa.Integer, nullable=False),
        sa.Column("speaker_name", sa.String(64), nullable=False),
        sa.Column("speaker_role", sa.String(8), nullable=False),
        sa.Column("speaker_account", sa.String(32), nullable=True),
        sa.Column("reporter", sa.Integer, nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("reporter_account", sa.String(32), nullable=True),
        sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_reports_mesa", "chat_reports", ["mesa"])
    op.create_index("ix_chat_reports_speaker_account", "chat_reports", ["speaker_account"])
    op.create_index("ix_chat_reports_reporter_account", "chat_reports", ["reporter_account"])


def downgrade() -> None:
    op.drop_table("chat_reports")
