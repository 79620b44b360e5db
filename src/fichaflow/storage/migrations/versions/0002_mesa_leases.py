"""Each live mesa's lease: which server holds it in memory, until when, and its fencing token.

A server takes a mesa's lease when it loads the mesa (the token goes up by one each time anyone
takes it), renews it while it holds the mesa, and lets it go when the mesa leaves memory. Every
commit of an action checks, in its own transaction, that the mesa's owner and token are still the
committing server's: a server that lost its lease can never write the mesa again.

Revision ID: 0002
Revises: a0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "a0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mesas") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("lease_until", sa.BigInteger, nullable=False, server_default="0")
        )
    op.create_index("mesas_owner", "mesas", ["owner"])


def downgrade() -> None:
    op.drop_index("mesas_owner", "mesas")
    # Plain DDL (SQLite 3.35 and later drop a column in place): a batch would copy the table,
    # which other tables' foreign keys forbid.
    for column in ("lease_until", "fence", "owner"):
        op.execute(f"ALTER TABLE mesas DROP COLUMN {column}")
