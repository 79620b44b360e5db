"""Optional accounts: accounts, their sessions, one-time recovery codes, passkeys, and the
WebAuthn challenges under way (see docs/accounts.md).

Revision ID: c0001
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c0001"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_sessions_account", "account_sessions", ["account"])
    op.create_table(
        "account_recovery_codes",
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), primary_key=True),
        sa.Column("code_hash", sa.String(64), primary_key=True),
    )
    op.create_table(
        "account_passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("account", sa.String(32), sa.ForeignKey("player_accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("account_passkeys_account", "account_passkeys", ["account"])
    op.create_table(
        "account_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("account", sa.String(32), nullable=True),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_index("account_challenges_expires_at", "account_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_table("account_challenges")
    op.drop_table("account_passkeys")
    op.drop_table("account_recovery_codes")
    op.drop_table("account_sessions")
    op.drop_table("player_accounts")
